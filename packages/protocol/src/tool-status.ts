/**
 * Tool calls and child runs as a person reads them: a tool part's state in words ("Running…", "Done",
 * "Failed: <error>") instead of the wire's `output-available`, a readable fallback name for a tool the app
 * has no words for (`processPayment` → "Process payment", with its first plain inputs), and a child run's
 * summary with its text parts kept apart. Pure, so every view says the same.
 */
import type { AgentToolRunState } from "./agent-tool-runs.ts";
import { runTitle } from "./run-display.ts";
import type { ToolPartLike } from "./tool-parts.ts";

/**
 * Where a tool call stands, for a person: `running` (input streaming, or the call is on its way),
 * `waiting` (an approval or the person's own answer is needed), `done`, `failed`, `denied`.
 */
export type ToolStatusKind = "running" | "waiting" | "done" | "failed" | "denied";

/** A tool call's state in words, and its kind (for styling: `data-tool-status`, an icon). */
export interface ToolStatus {
  kind: ToolStatusKind;
  /** "Running…", "Waiting for approval", "Waiting for you", "Done", "Failed: <error>", "Denied: <reason>". */
  label: string;
}

/** Options of `toolStatus`. */
export interface ToolStatusOptions {
  /**
   * The tool is answered in the browser (a client tool, `addToolOutput`): while it has its input and no
   * output it waits for the person ("Waiting for you"), not for the server ("Running…").
   */
  clientTool?: boolean;
  /**
   * The child runs this call dispatched (`runsByToolCallId`). An agent tool's part reads `output-available`
   * even when its helper failed (the output is the failure envelope), so once the part has its output the runs
   * say where it stands: "Running…" while one still runs, "Failed: <helper> failed", "<helper> was
   * interrupted" or "<helper> was cancelled" for the first that did not complete, "Done" when all completed.
   */
  runs?: readonly Pick<AgentToolRunState, "status" | "agentType" | "display">[];
}

/** Where a finished agent-tool call stands by its runs, or undefined when they all completed (or there are none). */
function runsStatus(runs: ToolStatusOptions["runs"]): ToolStatus | undefined {
  if (!runs || runs.length === 0) return undefined;
  if (runs.some((r) => r.status === "running")) return { kind: "running", label: "Running…" };
  const failed = runs.find((r) => r.status === "error");
  if (failed) return { kind: "failed", label: `Failed: ${runTitle(failed)} failed` };
  const stopped = runs.find((r) => r.status === "interrupted");
  if (stopped) return { kind: "failed", label: `${runTitle(stopped)} was interrupted` };
  const cancelled = runs.find((r) => r.status === "aborted");
  if (cancelled) return { kind: "denied", label: `${runTitle(cancelled)} was cancelled` };
  return undefined;
}

/**
 * A tool part's state in words (docs/protocol.md#tool-part-states): `input-streaming` and
 * `input-available` are "Running…" (a client tool's `input-available` is "Waiting for you"),
 * `approval-requested` is "Waiting for approval", `approval-responded` is "Running…" when approved and
 * "Denied" when not (the server then sends `output-denied`), `output-available` is "Done" ("Running…" while
 * the output is preliminary), `output-error` is "Failed: <errorText>", `output-denied` is "Denied" with the
 * person's reason when there is one. An unknown state reads "Running…": the part is not finished. With
 * `runs`, a call whose output is in says how its child runs ended.
 */
export function toolStatus(
  part: Pick<ToolPartLike, "state" | "errorText" | "approval" | "preliminary">,
  options: ToolStatusOptions = {},
): ToolStatus {
  const reason = typeof part.approval?.reason === "string" ? part.approval.reason.trim() : "";
  const denied = (): ToolStatus => ({ kind: "denied", label: reason ? `Denied: ${reason}` : "Denied" });
  switch (part.state) {
    case "input-available":
      return options.clientTool
        ? { kind: "waiting", label: "Waiting for you" }
        : { kind: "running", label: "Running…" };
    case "approval-requested":
      return { kind: "waiting", label: "Waiting for approval" };
    case "approval-responded":
      return part.approval?.approved === false ? denied() : { kind: "running", label: "Running…" };
    case "output-available":
      if (part.preliminary) return { kind: "running", label: "Running…" };
      return runsStatus(options.runs) ?? { kind: "done", label: "Done" };
    case "output-error": {
      const error = typeof part.errorText === "string" ? part.errorText.trim() : "";
      return { kind: "failed", label: error ? `Failed: ${error}` : "Failed" };
    }
    case "output-denied":
      return denied();
    default:
      return { kind: "running", label: "Running…" };
  }
}

/**
 * A tool name as words: camelCase, snake_case and kebab-case split, the first word capitalised and the rest
 * lower case unless they are acronyms (`processPayment` → "Process payment", `get_user_ID` → "Get user ID",
 * `AgentTool` → "Agent tool"). Empty for an empty name.
 */
export function humanizeToolName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase()));
  if (words.length === 0) return "";
  const [first = "", ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(" ");
}

/**
 * The first plain values of a tool input, as one short line: strings, numbers and booleans of the top-level
 * fields in their order, up to `max` (default 2), each cut to 40 characters, joined with ", "
 * (`{ amount: 250, recipient: "ACME" }` → "250, ACME"). Nested objects and arrays are skipped; a string input
 * is itself the value, and a string that is a JSON object (`"{\"query\": \"queues\"}"`) gives its own first
 * value. Empty when there is nothing plain to show.
 */
export function toolInputGist(input: unknown, max = 2): string {
  const cut = (s: string) => (s.length > 40 ? `${s.slice(0, 39)}…` : s);
  const plain = (v: unknown): string | undefined => {
    if (typeof v === "string") {
      // A child agent's task is often its parent's tool input as JSON text: say its values, not its braces.
      const inner = jsonObjectText(v);
      if (inner !== undefined) return toolInputGist(inner, 1) || undefined;
      return v.trim() === "" ? undefined : cut(v.trim().replace(/\s+/g, " "));
    }
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
    if (typeof v === "boolean") return String(v);
    return undefined;
  };
  if (typeof input !== "object" || input === null) return plain(input) ?? "";
  if (Array.isArray(input)) return "";
  const out: string[] = [];
  for (const v of Object.values(input)) {
    const s = plain(v);
    if (s !== undefined) out.push(s);
    if (out.length >= max) break;
  }
  return out.join(", ");
}

/** The object a string holds as JSON text (`{…}` only), else undefined. */
function jsonObjectText(text: string): object | undefined {
  const t = text.trim();
  if (!t.startsWith("{") || !t.endsWith("}")) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A completed run's summary as a person reads it. agents 0.32 makes `finished.summary` of the child's last
 * answer by gluing its text parts together with nothing between them ("Researching now.Summary: found 2
 * sources", docs/protocol.md#retry-and-reconnect). When the summary is exactly the run's own text parts glued
 * that way, they are given back as paragraphs (joined with a blank line); any other summary (the app's own,
 * `formatDetachedCompletion`, a cut one) is returned as it is. Empty without a summary.
 */
export function runSummaryText(run: Pick<AgentToolRunState, "summary" | "parts">): string {
  const summary = typeof run.summary === "string" ? run.summary : "";
  if (summary === "") return "";
  const texts: string[] = [];
  for (const part of run.parts) {
    const text = (part as { type?: unknown; text?: unknown }).text;
    if ((part as { type?: unknown }).type === "text" && typeof text === "string" && text !== "")
      texts.push(text);
  }
  // Only the whole transcript, or the last answer's tail of it, can have made the summary.
  for (let from = 0; from < texts.length - 1; from++) {
    const tail = texts.slice(from);
    if (tail.join("") === summary) return tail.map((t) => t.trim()).join("\n\n");
  }
  return summary;
}
