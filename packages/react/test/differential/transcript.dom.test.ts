/**
 * The initial transcript, differential: where it is fetched from and what `getInitialMessages` receives,
 * when it loads, HTTP failures, a new agent (name change, token rotation), and suspension while it loads
 * (issue 13 §1, bullets 2, 6, 8 and 9).
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { assistantText, ServerStream, userMessage } from "./frames.ts";
import { both, compare, type Driver, dump } from "./harness.ts";
import { textTurn } from "./turns.ts";

const T = { timeout: 60_000 };
const report = (official: Driver, ours: Driver, diffs: string[]) =>
  diffs.length ? `${diffs.join("\n")}\n--- official\n${dump(official)}\n--- ours\n${dump(ours)}` : "";

const earlier: UIMessage[] = [userMessage("u0", "earlier question"), assistantText("a0", "earlier answer")];
const roomOf = (url: string | undefined) => (url ? new URL(url).pathname.split("/")[3] : undefined);

describe("bullet 2: the official useAgent object as agent", () => {
  it("the transcript is read from <http url>/get-messages (the URL without _pk)", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.serve(earlier);
      await d.mount();
    });
    expect(official.steps[0]?.fetches).toEqual(["http://HOST/agents/chat-agent/ROOM/get-messages"]);
    const diffs = compare(official, ours, { fields: ["fetches", "messages", "errors"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("getInitialMessages receives { agent, name, url } with the URL without _pk", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.learn(earlier);
      await d.mount({ getInitialMessages: d.cb("getInitialMessages", async () => earlier) });
    });
    expect(official.callsOf("getInitialMessages")).toEqual([
      {
        name: "getInitialMessages",
        args: { agent: "chat-agent", name: "ROOM", url: "http://HOST/agents/chat-agent/ROOM" },
      },
    ]);
    const diffs = compare(official, ours, { fields: ["calls", "messages"], calls: ["getInitialMessages"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it(
    "while the socket is re-addressing (getHttpUrl() is empty) getInitialMessages waits for the address",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        d.learn(earlier);
        d.agent.addressPending = true;
        await d.mount({ getInitialMessages: d.cb("getInitialMessages", async () => earlier) });
        d.agent.addressPending = false;
        await d.renderAgain("address ready");
      });
      expect(official.steps[0]?.calls.filter((c) => c.name === "getInitialMessages")).toEqual([]);
      const diffs = compare(official, ours, {
        fields: ["calls", "messages", "suspended"],
        calls: ["getInitialMessages"],
      });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
    },
  );
});

describe("bullet 6: when the transcript loads", () => {
  it("not while the address is not ready: fetched once it is", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.serve(earlier);
      d.agent.addressPending = true;
      await d.mount();
      d.agent.addressPending = false;
      await d.renderAgain("address ready");
    });
    expect(official.steps.map((s) => s.fetches)).toEqual([
      [],
      ["http://HOST/agents/chat-agent/ROOM/get-messages"],
    ]);
    const diffs = compare(official, ours, { fields: ["fetches", "messages", "suspended"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("a transcript that arrives after the user sent a message is kept, before that message", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.serve(earlier, { gate: "transcript" });
      await d.mount();
      await d.actWhenVisible("sendMessage", (c) => c.sendMessage({ text: "hello" }));
      await d.release("transcript");
      const r = d.lastRequest();
      const s = new ServerStream(r.id);
      await d.pushAll("answer", [...s.textTurn("assistant_1", ["Hi"]), s.done({ messageIds: r.userIds })]);
    });
    const diffs = compare(official, ours, {
      fields: ["messages", "status"],
      steps: (label) => label === "answer",
    });
    // The request carried the earlier transcript too (the server persists what the request holds).
    const sentOfficial = official.sentOf("cf_agent_use_chat_request");
    const sentOurs = ours.sentOf("cf_agent_use_chat_request");
    expect(sentOfficial).toHaveLength(1);
    expect(diffs, report(official, ours, diffs)).toEqual([]);
    expect(sentOurs, dump(ours)).toEqual(sentOfficial);
  });

  for (const status of [401, 404, 500]) {
    it(
      `an HTTP ${status} leaves no transcript and is reported through onError (the official only warns)`,
      T,
      async () => {
        const { official, ours } = await both(async (d) => {
          d.serve("Nope", { status });
          await d.mount();
        });
        const diffs = compare(official, ours, {
          fields: ["messages", "status", "error", "fetches", "errors"],
        });
        expect(diffs, report(official, ours, diffs)).toEqual([]);
        // The official hook logs the failure and calls nothing.
        expect(official.callsOf("onError")).toEqual([]);
        expect(official.steps[0]?.warnings.join("\n")).toContain(String(status));
        // The issue asks for onError here: a difference to list in the README.
        const reported = ours.callsOf("onError").map((c) => JSON.stringify(c.args));
        expect(reported.join("\n"), dump(ours)).toContain(String(status));
      },
    );
  }

  it("a new agent name loads that thread's transcript", T, async () => {
    const other: UIMessage[] = [userMessage("u9", "other thread"), assistantText("a9", "other answer")];
    const { official, ours } = await both(async (d) => {
      d.learn(earlier);
      d.learn(other);
      const load = d.cb("getInitialMessages", async (o: { url?: string }) =>
        roomOf(o.url)?.endsWith("-b") ? other : earlier,
      );
      await d.mount({ getInitialMessages: load });
      await d.useAgent(d.newAgent(`${d.room}-b`), { getInitialMessages: load }, "agent name changes");
    });
    const diffs = compare(official, ours, { fields: ["messages", "status", "errors"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
    expect(ours.last?.messages, dump(ours)).toEqual(official.last?.messages);
  });
});

describe("bullet 8: a new agent object for the same thread (token rotation)", () => {
  it("keeps the chat and does not read the transcript again", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.learn(earlier);
      // What the server has stored: the history, then the turn below.
      let stored = earlier;
      const load = d.cb("getInitialMessages", async () => stored);
      await d.mount({ getInitialMessages: load });
      const r = await textTurn(d, "hello", "assistant_1", ["Hi ", "there"]);
      stored = [
        ...earlier,
        userMessage(r.userIds[0] as string, "hello"),
        assistantText("assistant_1", "Hi there"),
      ];
      await d.useAgent(d.newAgent(d.room), { getInitialMessages: load }, "token rotated");
      await textTurn(d, "again", "assistant_2", ["Sure"]);
    });
    const diffs = compare(official, ours, {
      fields: ["messages", "status", "isStreaming", "calls", "sent", "fetches", "errors"],
      calls: ["getInitialMessages", "onTurnEnd"],
      looseStart: true,
      steps: (_l, i) => i >= official.steps.findIndex((s) => s.label === "token rotated"),
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });
});

describe("bullet 9: suspension while the transcript loads", () => {
  it("the hook suspends (Suspense shows its fallback) until the transcript is in", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.serve(earlier, { gate: "transcript" });
      await d.mount();
      await d.release("transcript");
    });
    expect(official.steps.map((s) => s.suspended)).toEqual([true, false]);
    const diffs = compare(official, ours, { fields: ["suspended", "messages"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("with getInitialMessages too", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.learn(earlier);
      await d.mount({
        getInitialMessages: async () => {
          await d.gate("transcript");
          return earlier;
        },
      });
      await d.release("transcript");
    });
    expect(official.steps.map((s) => s.suspended)).toEqual([true, false]);
    const diffs = compare(official, ours, { fields: ["suspended", "messages"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });
});
