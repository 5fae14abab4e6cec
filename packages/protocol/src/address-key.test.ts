import { describe, expect, it } from "vitest";
import { agentAddressKey, agentAddressOf, fnv1a32 } from "./address-key.ts";
import { agentHttpUrl } from "./url.ts";

describe("agentAddressKey", () => {
  it("FNV-1a 32 matches the reference values", () => {
    expect(fnv1a32("")).toBe("811c9dc5");
    expect(fnv1a32("a")).toBe("e40c292c");
    expect(fnv1a32("foobar")).toBe("bf9cf968");
  });

  it("keeps host and path, drops scheme, user info, query and fragment", () => {
    expect(agentAddressOf("https://me:p@ss@My.App/agents/chat-agent/r?token=abc#x")).toBe(
      "my.app/agents/chat-agent/r",
    );
    expect(agentAddressOf("wss://my.app/agents/chat-agent/r/?_pk=1&token=abc")).toBe(
      "my.app/agents/chat-agent/r",
    );
    // A URL that does not parse loses its credentials all the same.
    expect(agentAddressOf("http://u:pw@[::1/agents/a/b?token=t")).toBe("[::1/agents/a/b");
  });

  it("is the same for two tokens of one agent, different for other agents and instances", () => {
    const url = (name: string, token: string, agent = "ChatAgent") =>
      agentHttpUrl({ host: "my.app", agent, name, query: { token } });
    expect(agentAddressKey(url("r", "one"))).toBe(agentAddressKey(url("r", "two")));
    expect(agentAddressKey(url("r", "one"))).not.toBe(agentAddressKey(url("s", "one")));
    expect(agentAddressKey(url("r", "one"))).not.toBe(agentAddressKey(url("r", "one", "Other")));
    expect(agentAddressKey(url("r", "secret"))).toMatch(/^[0-9a-f]{8}$/);
  });
});
