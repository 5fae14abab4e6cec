/**
 * The generator's steps: server events (chunks, errors, another tab's turn, answer, transcript or clear, a
 * server-started turn, drops and reconnects) and app actions (send with and without files, metadata or a
 * body; edit; regenerate; stop; approve or deny; answer a client tool; setMessages; clearHistory;
 * resumeStream; a new agent object for another thread or the same one; remount; a parent re-render). A run is
 * a seed's configuration and a list of steps. Steps are chosen while the official hook plays them, from what
 * the server model says is legal then; the same list is then played against ours. Every step can be applied
 * in any state (one whose target is gone does nothing), so a list can be shrunk by deleting steps.
 */
import type { UIMessage } from "ai";
import type { Chat, Driver } from "../harness.ts";
import { findLast, KINDS, type Kind, PROMPTS } from "./recorded.ts";
import type { ServerModel } from "./server.ts";

/** One step of a run. */
export type Step =
  | { do: "send"; kind: Kind; files?: boolean; metadata?: boolean; body?: boolean }
  | { do: "edit"; kind: Kind }
  | { do: "regenerate"; earlier?: boolean }
  | { do: "stop" }
  | { do: "decide"; approved: boolean }
  | { do: "toolOutput"; error?: boolean }
  | { do: "setMessages"; how: "dropLast" | "append" }
  | { do: "clearHistory" }
  | { do: "resumeStream" }
  | { do: "agent"; to: "other-thread" | "same-thread" | "first-thread" }
  | { do: "remount" }
  | { do: "render" }
  | { do: "advance"; n: number }
  | { do: "fail"; thrown: boolean }
  | { do: "otherTurn"; kind: Kind }
  | { do: "otherAnswer"; approved: boolean }
  | { do: "serverTurn" }
  | { do: "otherSnapshot"; trim: boolean }
  | { do: "otherClear" }
  | { do: "drop" }
  | { do: "reopen" };

/** How a run's app is set up (chosen once per seed). */
export interface Config {
  /** Mounted under `<StrictMode>`. */
  strict: boolean;
  /** How the app answers client tools. */
  tools: "onToolCall" | "manual" | "execute" | "none";
  /** What the thread holds before the page loads. */
  history: "empty" | "text" | "waiting-tool" | "approval";
  /** The transcript comes from `get-messages` or from the app's `getInitialMessages`. */
  initial: "fetch" | "getInitialMessages";
  /** The `resume` option. */
  resume: boolean;
  /** The `autoContinueAfterToolResult` option. */
  autoContinue: boolean;
  /** A `body` option sent with every request. */
  body: boolean;
}

/** A seeded PRNG (mulberry32): the same seed always gives the same run. */
export class Random {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0;
  }
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  /** One of `options`, with probability proportional to its weight. */
  weighted<T>(options: [number, () => T][]): T {
    const total = options.reduce((s, [w]) => s + w, 0);
    let x = this.next() * total;
    for (const [w, f] of options) {
      x -= w;
      if (x < 0) return f();
    }
    return (options.at(-1) as [number, () => T])[1]();
  }
}

/** A seed's configuration. */
export function configFor(rng: Random): Config {
  return {
    strict: rng.chance(0.25),
    tools: rng.pick(["onToolCall", "onToolCall", "manual", "execute", "none"] as const),
    history: rng.pick(["empty", "empty", "text", "text", "waiting-tool", "approval"] as const),
    initial: rng.chance(0.25) ? "getInitialMessages" : "fetch",
    resume: !rng.chance(0.15),
    autoContinue: !rng.chance(0.15),
    body: rng.chance(0.3),
  };
}

/** A step in words (the label both recordings carry). */
export function describeStep(s: Step): string {
  switch (s.do) {
    case "send":
      return `send ${s.kind}${s.files ? " +files" : ""}${s.metadata ? " +metadata" : ""}${s.body ? " +body" : ""}`;
    case "edit":
      return `edit last user message to ${s.kind}`;
    case "regenerate":
      return s.earlier ? "regenerate an earlier answer" : "regenerate";
    case "decide":
      return s.approved ? "approve" : "deny";
    case "toolOutput":
      return s.error ? "answer the client tool with an error" : "answer the client tool";
    case "setMessages":
      return `setMessages ${s.how}`;
    case "agent":
      return `new agent object (${s.to})`;
    case "advance":
      return `server: ${s.n} chunk(s)`;
    case "fail":
      return s.thrown ? "server: thrown error" : "server: in-band error";
    case "otherTurn":
      return `other tab sends ${s.kind}`;
    case "otherAnswer":
      return s.approved ? "other tab approves / answers" : "other tab denies / answers";
    case "serverTurn":
      return "server starts a turn";
    case "otherSnapshot":
      return s.trim ? "other tab's trimmed transcript" : "other tab's transcript";
    case "otherClear":
      return "other tab clears";
    case "drop":
      return "socket drops";
    case "reopen":
      return "socket reconnects";
    default:
      return s.do;
  }
}

type Part = Record<string, unknown> & { type: string };

const partsOf = (chat: Chat | undefined): { m: UIMessage; p: Part }[] =>
  (chat?.messages ?? []).flatMap((m) => (m.parts as unknown as Part[]).map((p) => ({ m, p })));

/** The approval the app shows (the first part waiting for a decision). */
function shownApproval(chat: Chat | undefined): string | undefined {
  const hit = partsOf(chat).find(({ p }) => p.state === "approval-requested");
  return (hit?.p.approval as { id?: string } | undefined)?.id;
}

/**
 * The client tool call the app could answer: the last assistant message's `getLocation` call with its input
 * (the app answers its own tools, not the server's).
 */
function shownClientTool(chat: Chat | undefined): { toolCallId: string; tool: string } | undefined {
  const last = findLast(chat?.messages ?? [], (m) => m.role === "assistant");
  const p = (last?.parts as unknown as Part[] | undefined)?.find(
    (x) => x.state === "input-available" && typeof x.toolCallId === "string" && x.type === "tool-getLocation",
  );
  if (!p) return undefined;
  const tool = p.type === "dynamic-tool" ? String(p.toolName) : p.type.replace(/^tool-/, "");
  return { toolCallId: p.toolCallId as string, tool };
}

/** The location a client tool answers with. */
export const LOCATION = { lat: 38.72, lng: -9.14 };

const FILE = {
  type: "file",
  mediaType: "text/plain",
  filename: "note.txt",
  url: "data:text/plain;base64,aGk=",
};

/** Picks the next step from what the official run's server and hook show now. */
export function chooseStep(rng: Random, d: Driver, server: ServerModel, cfg: Config): Step {
  const r = server.current;
  const open = d.agent.readyState === 1;
  const chat = d.latest;
  const shown = chat !== undefined && !d.fallbackShown;
  const hasAssistant = shown && chat.messages.some((m) => m.role === "assistant");
  const hasUser = shown && chat.messages.some((m) => m.role === "user");
  const options: [number, () => Step][] = [];
  const add = (w: number, f: () => Step) => options.push([w, f]);
  if (!open) add(5, () => ({ do: "reopen" }));
  if (r.live) {
    add(12, () => ({ do: "advance", n: rng.int(1, 4) }));
    add(0.6, () => ({ do: "fail", thrown: rng.chance(0.3) }));
    add(0.5, () => ({ do: "otherSnapshot", trim: rng.chance(0.3) }));
    add(1.2, () => ({ do: "stop" }));
    add(0.6, () => ({ do: "resumeStream" }));
    add(0.4, () => ({ do: "send", kind: rng.pick(KINDS) }));
  } else if (r.queue.length > 0) add(8, () => ({ do: "advance", n: 1 }));
  if (r.idle) {
    add(5, () => ({
      do: "send",
      kind: rng.pick(KINDS),
      ...(rng.chance(0.2) ? { files: true } : {}),
      ...(rng.chance(0.2) ? { metadata: true } : {}),
      ...(rng.chance(0.15) ? { body: true } : {}),
    }));
    add(1.2, () => ({ do: "otherTurn", kind: rng.pick(KINDS) }));
    add(0.5, () => ({ do: "serverTurn" }));
    add(0.25, () => ({ do: "otherClear" }));
    add(0.3, () => ({ do: "clearHistory" }));
    add(0.3, () => ({ do: "otherSnapshot", trim: rng.chance(0.3) }));
    if (hasAssistant) add(0.7, () => ({ do: "regenerate", ...(rng.chance(0.3) ? { earlier: true } : {}) }));
    if (hasUser) add(0.4, () => ({ do: "edit", kind: rng.pick(KINDS) }));
    add(0.3, () => ({ do: "resumeStream" }));
  }
  if (shownApproval(shown ? chat : undefined)) add(3, () => ({ do: "decide", approved: rng.chance(0.7) }));
  if (shownClientTool(shown ? chat : undefined) && (cfg.tools === "manual" || cfg.tools === "none"))
    add(3, () => ({ do: "toolOutput", ...(rng.chance(0.2) ? { error: true } : {}) }));
  if (!r.live && r.openGate() && !r.pendingContinuation)
    add(0.6, () => ({ do: "otherAnswer", approved: rng.chance(0.7) }));
  if (shown) add(0.3, () => ({ do: "setMessages", how: rng.pick(["dropLast", "append"] as const) }));
  add(0.3, () => ({ do: "remount" }));
  add(0.3, () => ({ do: "render" }));
  add(0.35, () => ({ do: "agent", to: rng.pick(["other-thread", "same-thread", "first-thread"] as const) }));
  if (open) add(0.7, () => ({ do: "drop" }));
  return rng.weighted(options);
}

/** Steps that let the server finish what it started (a reconnect, then chunks until nothing is left). */
export function drainStep(d: Driver, server: ServerModel): Step | undefined {
  if (d.agent.readyState !== 1) return { do: "reopen" };
  const r = server.current;
  if (r.live || r.queue.length > 0) return { do: "advance", n: 4 };
  return undefined;
}

let notes = 0;

/** Plays one step on a side. */
export async function playStep(
  d: Driver,
  server: ServerModel,
  s: Step,
  ctx: { rooms: string[] },
): Promise<void> {
  const label = describeStep(s);
  const act = (fn: (c: Chat) => unknown) => d.tryAct(label, fn);
  switch (s.do) {
    case "send":
      return act((c) =>
        (c.sendMessage as (m: unknown, o?: unknown) => Promise<void>)(
          {
            text: PROMPTS[s.kind],
            ...(s.files ? { files: [FILE] } : {}),
            ...(s.metadata ? { metadata: { from: "generator" } } : {}),
          },
          s.body ? { body: { extra: "per-call" } } : undefined,
        ),
      );
    case "edit":
      return act((c) => {
        const last = findLast(c.messages, (m) => m.role === "user");
        if (!last) return undefined;
        return (c.sendMessage as (m: unknown) => Promise<void>)({
          text: PROMPTS[s.kind],
          messageId: last.id,
        });
      });
    case "regenerate":
      return act((c) => {
        if (!s.earlier) return c.regenerate();
        const assistants = c.messages.filter((m) => m.role === "assistant");
        const target = assistants.length > 1 ? assistants[0] : undefined;
        if (!target) return c.regenerate();
        return (c.regenerate as (o: unknown) => Promise<void>)({ messageId: target.id });
      });
    case "stop":
      return act((c) => c.stop());
    case "decide":
      return act((c) => {
        const id = shownApproval(c);
        if (id) return c.addToolApprovalResponse({ id, approved: s.approved });
        return undefined;
      });
    case "toolOutput":
      return act((c) => {
        const t = shownClientTool(c);
        if (!t) return undefined;
        return s.error
          ? c.addToolOutput({
              toolCallId: t.toolCallId,
              toolName: t.tool,
              state: "output-error",
              errorText: "Not allowed",
            })
          : c.addToolOutput({ toolCallId: t.toolCallId, toolName: t.tool, output: LOCATION });
      });
    case "setMessages":
      return act((c) =>
        c.setMessages((prev) =>
          s.how === "dropLast"
            ? prev.slice(0, -1)
            : [
                ...prev,
                { id: `local-note-${++notes}`, role: "user", parts: [{ type: "text", text: "a note" }] },
              ],
        ),
      );
    case "clearHistory":
      return act((c) => c.clearHistory());
    case "resumeStream":
      return act((c) => c.resumeStream());
    case "agent": {
      const room =
        s.to === "same-thread"
          ? d.agent.name
          : s.to === "first-thread"
            ? (ctx.rooms[0] as string)
            : `${d.room}-b`;
      if (s.to === "other-thread" && !ctx.rooms.includes(room)) ctx.rooms.push(room);
      const agent = d.newAgent(room);
      // A new socket is a new connection: the server greets it (offering a live stream first).
      server.connected(agent);
      // biome-ignore lint/correctness/useHookAtTopLevel: the Driver's step that swaps the agent object, no React hook
      return d.useAgent(agent, {}, label, true);
    }
    case "remount":
      return d.remount(label);
    case "render":
      return d.renderAgain(label);
    case "drop":
      return d.agent.readyState === 1 ? d.drop(label) : d.step(label);
    case "reopen":
      return d.agent.readyState === 1 ? d.step(label) : d.reopen(label);
    case "advance":
      return d.serverStep(label, () => server.advance(s.n));
    case "fail":
      return d.serverStep(label, () => server.fail(s.thrown));
    case "otherTurn":
      return d.serverStep(label, () => server.otherTurn(s.kind));
    case "otherAnswer":
      return d.serverStep(label, () => server.otherAnswer(s.approved));
    case "serverTurn":
      return d.serverStep(label, () => server.serverTurn());
    case "otherSnapshot":
      return d.serverStep(label, () => server.otherSnapshot(s.trim));
    case "otherClear":
      return d.serverStep(label, () => server.otherClear());
  }
}
