/**
 * `useAgent`, differential: the same fake-socket frames and app actions to the official hook and to ours,
 * comparing what an app sees (issue 30 §1, the `useAgent` bullets): the object's `agent` and `name`, its
 * `identified` / `ready` across closes, `shouldReconnect`, RPC calls across a replaced socket, a disabled
 * hook and an address change, a late reply's warning, and a `setState` made before the server's initial state.
 */
import { describe, expect, it } from "vitest";
import { type AgentRun, bothAgents, compareAgents, dumpAgents } from "./agent-harness.ts";

const T = { timeout: 60_000 };
const identity = (name: string, stateFollows = false) =>
  JSON.stringify({
    type: "cf_agent_identity",
    name,
    agent: "test-state-agent",
    ...(stateFollows ? { stateFollows } : {}),
  });
const state = (s: unknown) => JSON.stringify({ type: "cf_agent_state", state: s });
const mcp = JSON.stringify({
  type: "cf_agent_mcp_servers",
  mcp: { servers: {}, tools: [], prompts: [], resources: [] },
});
/** What the real server sends on connect (docs/protocol.md#connect-frames): identity, state, MCP list. */
const connectFrames = (name: string, s: unknown = { counter: 0 }) => [identity(name, true), state(s), mcp];
/** Keeps a dropped socket waiting between attempts (no socket connecting) for the whole test. */
const SLOW_RECONNECT = { minReconnectionDelay: 600_000, maxReconnectionDelay: 600_000 };
const DISCARDED = "Call discarded: the agent address changed before the request could be sent";
const answer = (r: AgentRun, call: string, result: unknown) =>
  JSON.stringify({ type: "rpc", id: r.rpcId(call), success: true, result, done: true });

const expectSame = (official: AgentRun, ours: AgentRun, fields: Parameters<typeof compareAgents>[2]) => {
  const diffs = compareAgents(official, ours, fields);
  expect(diffs, diffs.length ? `${diffs.join("\n")}\n${dumpAgents(official, ours)}` : "").toEqual([]);
};

describe("useAgent: the returned object", () => {
  it(
    "agent is the kebab-cased class and name the instance, before and after the identity frame",
    T,
    async () => {
      const { official, ours } = await bothAgents(async (r) => {
        r.autoOpen = false;
        await r.mount({ agent: "TestStateAgent", name: "room-1" });
        await r.open();
        await r.push("connect frames", ...connectFrames("room-1"));
      });
      expect(official.steps.map((s) => s.view?.agent)).toEqual([
        "test-state-agent",
        "test-state-agent",
        "test-state-agent",
      ]);
      expectSame(official, ours, ["agent", "name"]);
    },
  );

  it("with a sub-agent chain, agent and name are the last step's", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.autoOpen = false;
      await r.mount({
        agent: "TestStateAgent",
        name: "root",
        sub: [{ agent: "CounterSubAgent", name: "child-1" }],
      });
    });
    expect(official.steps.at(-1)?.view).toMatchObject({ agent: "counter-sub-agent", name: "child-1" });
    expectSame(official, ours, ["agent", "name"]);
  });

  it("with a custom basePath, name comes from the server's identity frame", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.onConnect = () => connectFrames("picked-by-server");
      await r.mount({ agent: "TestStateAgent", basePath: "user/inbox", name: undefined });
    });
    expect(official.steps.at(-1)?.view?.name).toBe("picked-by-server");
    expectSame(official, ours, ["agent", "name"]);
  });

  it("identified and ready reset on every close and come back with the next identity", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.autoOpen = false;
      r.onConnect = () => connectFrames("room");
      await r.mount();
      await r.open("connected");
      await r.drop("dropped");
      await r.until("reconnecting", () => r.sockets.length === 2);
      await r.open("reconnected");
    });
    expect(official.steps.map((s) => [s.label, s.view?.identified, s.view?.readyResolved])).toEqual([
      ["mount", false, false],
      ["connected", true, true],
      ["dropped", false, false],
      ["reconnecting", false, false],
      ["reconnected", true, true],
    ]);
    expectSame(official, ours, ["identified", "readyResolved"]);
  });

  it("has partysocket's shouldReconnect: true while connected, false once disabled", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.onConnect = () => connectFrames("room");
      await r.mount();
      await r.rerender({ enabled: false }, "disabled");
      await r.rerender({ enabled: true }, "enabled again");
    });
    expect(official.steps.map((s) => s.view?.shouldReconnect)).toEqual([true, false, true]);
    expectSame(official, ours, ["shouldReconnect"]);
  });
});

describe("useAgent: RPC calls across sockets", () => {
  it(
    "a call through an older object, after a new static query replaced the socket, goes out on the new socket",
    T,
    async () => {
      const { official, ours } = await bothAgents(async (r) => {
        r.onConnect = () => connectFrames("room");
        await r.mount({ query: { token: "a" } });
        const old = r.latest;
        await r.rerender({ query: { token: "b" } }, "token rotated");
        await r.act("call through the old object", (a) => a.call("increment", [1]), {
          call: "old.call",
          on: old,
        });
        await r.push("answered", answer(r, "c1", 2));
        await r.act("stub through the old object", (a) => a.stub.increment?.(2), {
          call: "old.stub",
          on: old,
        });
        await r.push("answered again", answer(r, "c2", 4));
      });
      expect(official.steps.at(-1)?.calls).toEqual({ "old.call": "resolved 2", "old.stub": "resolved 4" });
      expect(official.sockets).toHaveLength(2);
      expectSame(official, ours, ["calls", "sent"]);
    },
  );

  it("a call waiting for the reconnect when the query changes goes out on the new socket", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.onConnect = () => connectFrames("room");
      await r.mount({ query: { token: "a" }, ...SLOW_RECONNECT });
      await r.drop("dropped, waiting to reconnect");
      await r.act("call while down", (a) => a.call("increment", [1]), { call: "queued" });
      await r.rerender({ query: { token: "b" }, ...SLOW_RECONNECT }, "token rotated");
      await r.push("answered", answer(r, "c1", 2));
    });
    expect(official.steps.at(-1)?.calls).toEqual({ queued: "resolved 2" });
    expect(official.sockets).toHaveLength(2);
    expectSame(official, ours, ["calls", "sent", "state"]);
  });

  it(
    "a call waiting while the old socket was still connecting goes out on the new socket (deliberate)",
    T,
    async () => {
      const { official, ours } = await bothAgents(async (r) => {
        r.autoOpen = false;
        r.onConnect = () => connectFrames("room");
        await r.mount({ query: { token: "a" } });
        await r.act("call while connecting", (a) => a.call("increment", [1]), { call: "queued" });
        await r.rerender({ query: { token: "b" } }, "token rotated");
        await r.until("new socket", () => r.sockets.length === 2);
        await r.open("new socket opens");
        if (r.sockets[1]?.sent.length) await r.push("answered", answer(r, "c1", 2));
      });
      // The official hook closes the connecting socket before it looks at its queue, and that close rejects
      // the call, although it never went out; here it goes out on the new socket, as it does when the old
      // socket was waiting between attempts (above). README: "Where the kit deliberately differs".
      expect(official.steps.at(-1)?.calls).toEqual({ queued: "rejected Connection closed" });
      expect(ours.steps.at(-1)?.calls).toEqual({ queued: "resolved 2" });
      expect(ours.steps.flatMap((s) => s.sent)).toEqual(["2 rpc increment([1]) c1"]);
    },
  );

  it("under StrictMode: a call through the older object goes out on the new socket", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.onConnect = () => connectFrames("room");
      await r.mount({ query: { token: "a" } }, { strict: true });
      const old = r.latest;
      await r.rerender({ query: { token: "b" } }, "token rotated");
      await r.act("call through the old object", (a) => a.call("increment", [1]), {
        call: "old.call",
        on: old,
      });
      await r.push("answered", answer(r, "c1", 2));
    });
    expect(official.steps.at(-1)?.calls).toEqual({ "old.call": "resolved 2" });
    expectSame(official, ours, ["calls"]);
  });

  it("calls made while enabled is false are sent once it turns true", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.onConnect = () => connectFrames("room");
      await r.mount({ enabled: false });
      await r.act("call while disabled", (a) => a.call("increment", [1]), { call: "disabled" });
      await r.rerender({ enabled: true }, "enabled");
      await r.push("answered", answer(r, "c1", 2));
    });
    expect(official.steps.at(-1)?.calls).toEqual({ disabled: "resolved 2" });
    expectSame(official, ours, ["calls", "sent"]);
  });

  it("calls waiting when the address changes reject with the official message", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.onConnect = () => connectFrames("a");
      await r.mount({ name: "a", ...SLOW_RECONNECT });
      await r.drop("dropped, waiting to reconnect");
      await r.act("call while down", (a) => a.call("increment", [1]), { call: "queued" });
      await r.rerender({ name: "b", ...SLOW_RECONNECT }, "another instance");
    });
    expect(official.steps.at(-1)?.calls).toEqual({ queued: `rejected ${DISCARDED}` });
    expectSame(official, ours, ["calls", "sent"]);
  });

  it("calls made while disabled reject with the same message when the address changes", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      await r.mount({ name: "a", enabled: false });
      await r.act("call while disabled", (a) => a.call("increment", [1]), { call: "queued" });
      await r.rerender({ name: "b", enabled: false }, "another instance");
    });
    expect(official.steps.at(-1)?.calls).toEqual({ queued: `rejected ${DISCARDED}` });
    expectSame(official, ours, ["calls", "sent"]);
  });

  it(
    "also while the old socket was still connecting (deliberate: the official close says Connection closed)",
    T,
    async () => {
      const { official, ours } = await bothAgents(async (r) => {
        r.autoOpen = false;
        await r.mount({ name: "a" });
        await r.act("call while connecting", (a) => a.call("increment", [1]), { call: "queued" });
        await r.rerender({ name: "b" }, "another instance");
      });
      expect(official.steps.at(-1)?.calls).toEqual({ queued: "rejected Connection closed" });
      expect(ours.steps.at(-1)?.calls).toEqual({ queued: `rejected ${DISCARDED}` });
    },
  );

  it("a reply that arrives after its call timed out is warned about in the console", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.onConnect = () => connectFrames("room");
      await r.mount();
      await r.act("call with a short timeout", (a) => a.call("slow", [], { timeout: 20 }), { call: "slow" });
      await r.until("timed out", () => r.callState("slow") !== "pending");
      await r.push("late reply", answer(r, "c1", "late"));
    });
    expect(official.steps.at(-1)?.warnings).toEqual([
      '[useAgent] Discarded an RPC response with no matching pending call (id "c1"). The call likely timed out or was rejected when its connection closed before the response arrived.',
    ]);
    // The same warning, under the kit's prefix.
    const unprefixed = (r: AgentRun) => r.steps.map((s) => s.warnings.map((w) => w.replace(/^\[\w+\] /, "")));
    expect(unprefixed(ours)).toEqual(unprefixed(official));
    expectSame(official, ours, ["calls"]);
    // The kit also reports it through onError, as it does every reply nobody waits for.
    expect(ours.steps.at(-1)?.errors).toEqual(['rpc reply for unknown call id "c1": ignored']);
  });
});

describe("useAgent: setState right after connecting (an official bug, fixed here)", () => {
  it("is held until the server's initial state has been applied, then sent", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.autoOpen = false;
      await r.mount();
      await r.open("socket opens");
      await r.act("setState before the initial state", (a) => a.setState({ counter: 1, by: "app" }));
      await r.push("connect frames", ...connectFrames("room", { counter: 5, by: "server" }));
    });
    // Official: the frame goes out at once and the server's initial state, older than the app's update,
    // overwrites it here (while the server keeps the app's): the two sides disagree from then on.
    expect(official.steps.map((s) => [s.label, s.sent, s.view?.state])).toEqual([
      ["mount", [], undefined],
      ["socket opens", [], undefined],
      [
        "setState before the initial state",
        ['1 cf_agent_state {"counter":1,"by":"app"}'],
        { counter: 1, by: "app" },
      ],
      ["connect frames", [], { counter: 5, by: "server" }],
    ]);
    // Ours: shown at once, sent once the initial state has been applied (the app hears both), kept.
    expect(ours.steps.map((s) => [s.label, s.sent, s.view?.state, s.stateUpdates])).toEqual([
      ["mount", [], undefined, []],
      ["socket opens", [], undefined, []],
      [
        "setState before the initial state",
        [],
        { counter: 1, by: "app" },
        ['client {"counter":1,"by":"app"}'],
      ],
      [
        "connect frames",
        ['1 cf_agent_state {"counter":1,"by":"app"}'],
        { counter: 1, by: "app" },
        ['server {"counter":5,"by":"server"}', 'client {"counter":1,"by":"app"}'],
      ],
    ]);
  });

  it("once the initial state is in, setState goes out at once, as upstream's", T, async () => {
    const { official, ours } = await bothAgents(async (r) => {
      r.onConnect = () => connectFrames("room");
      await r.mount();
      await r.act("setState", (a) => a.setState({ counter: 1 }));
    });
    expectSame(official, ours, ["sent", "state", "stateUpdates"]);
  });
});
