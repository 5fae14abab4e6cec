/**
 * A basic turn, differential, in full: every field at every step (messages, status and flags, callbacks
 * with their arguments, frames sent, fetches, suspension, errors); then under StrictMode, and with the
 * transcript held so that Suspense shows its fallback. Also the parts a streamed tool call builds.
 */
import { describe, expect, it } from "vitest";
import { assistantText, ServerStream, userMessage } from "./frames.ts";
import { both, compare, type Driver, dump, type Script } from "./harness.ts";
import { toolCallTurn } from "./turns.ts";

const T = { timeout: 60_000 };
const report = (official: Driver, ours: Driver, diffs: string[]) =>
  diffs.length ? `${diffs.join("\n")}\n--- official\n${dump(official)}\n--- ours\n${dump(ours)}` : "";

const earlier = [userMessage("u0", "earlier question"), assistantText("a0", "earlier answer")];

/** Mount on a thread with history, ask, get a streamed answer. */
const basicTurn =
  (o: { strict?: boolean; held?: boolean } = {}): Script =>
  async (d) => {
    d.serve(earlier, o.held ? { gate: "transcript" } : {});
    await d.mount({}, { strict: o.strict === true });
    if (o.held) await d.release("transcript");
    await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
    const r = d.lastRequest();
    const s = new ServerStream(r.id);
    await d.push(...s.textTurn("assistant_1", ["Hi ", "there"]));
    await d.push(s.done({ messageIds: r.userIds }));
  };

describe("a basic turn", () => {
  it("every field at every step", T, async () => {
    const { official, ours } = await both(basicTurn());
    const diffs = compare(official, ours);
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("under StrictMode", T, async () => {
    const { official, ours } = await both(basicTurn({ strict: true }));
    // StrictMode runs the official hook's effects twice, and each sends a resume probe. A development-only
    // artefact, not compared: ours must probe at least once.
    expect(official.sentOf("cf_agent_stream_resume_request")).toHaveLength(2);
    expect(ours.sentOf("cf_agent_stream_resume_request").length).toBeGreaterThan(0);
    const diffs = compare(official, ours, { ignoreFrames: ["cf_agent_stream_resume_request"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("under Suspense, with the transcript held: the fallback shows until it arrives", T, async () => {
    const { official, ours } = await both(basicTurn({ held: true }));
    expect(official.steps.slice(0, 2).map((s) => [s.label, s.suspended])).toEqual([
      ["mount", true],
      ["release transcript", false],
    ]);
    const diffs = compare(official, ours);
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("under StrictMode and Suspense together", T, async () => {
    const { official, ours } = await both(basicTurn({ strict: true, held: true }));
    expect(ours.sentOf("cf_agent_stream_resume_request").length).toBeGreaterThan(0);
    const diffs = compare(official, ours, { ignoreFrames: ["cf_agent_stream_resume_request"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });
});

describe("the parts a streamed tool call builds", () => {
  it(
    "as the AI SDK builds them (rawInput while the input streams); ours also names static tool parts, as the servers store them",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        await d.mount({ onToolCall: d.cb("onToolCall") });
        await toolCallTurn(d, {
          text: "weather?",
          messageId: "assistant_1",
          toolCallId: "call-w-1",
          toolName: "getWeather",
          input: { city: "Lisbon" },
        });
      });
      const diffs = compare(official, ours, { fields: ["messages"], staticToolName: true });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
      // The deliberate difference: `toolName` on the `tool-getWeather` part, as the server's stored copy has it
      // (so a transcript read back compares equal to what streamed).
      const last = ours.steps.at(-1)?.view?.messages.at(-1) as { parts: Record<string, unknown>[] };
      expect(last.parts.find((p) => p.type === "tool-getWeather")?.toolName).toBe("getWeather");
    },
  );
});
