/**
 * Part-level rules for applying AI SDK `UIMessageChunk`s to a message's parts (docs/protocol.md#applying-chunks). Used for chat
 * messages (`message-list.ts`) and for child runs (`agent-tool-runs.ts`), so a child transcript is built
 * exactly like a chat message.
 *
 * The functions mutate a `PartsTarget` in place; the target decides which objects may be mutated (copy on
 * write), so callers get O(1) amortised text deltas without ever mutating an object they already published.
 */
import type { UIMessage, UIMessageChunk } from "ai";

/** A message part as it travels on the wire; typed loosely because it comes from JSON. */
export type Part = UIMessage["parts"][number];

/** A mutable view of a part, used while applying a chunk. */
type MutablePart = Record<string, unknown> & { type: string };

/** Where chunks are applied: a parts array the caller owns, and a way to get a writable part. */
export interface PartsTarget {
  /** The parts array. The caller guarantees it is not shared with anything published. */
  readonly parts: Part[];
  /** Returns `parts[index]` as an object that may be mutated (cloned in place if it was published). */
  writable(index: number): MutablePart;
  /**
   * Where each tool call's part is in `parts` (see `toolPartIndexOf`), for a caller that keeps one: a tool chunk
   * then finds its part without a walk over all parts (a message with thousands of tool calls paid one per
   * tool chunk). Without it, tool chunks scan.
   */
  readonly tools?: Map<string, number>;
}

/**
 * A target over `parts` that copies a part before its first write unless `owned` says it was created since the
 * last published snapshot. The caller must own the `parts` array itself. `tools`: an index of `parts` by tool
 * call id (`toolPartIndexOf`) that the caller drops whenever `parts` change other than through this target.
 */
export function copyOnWriteTarget(
  parts: Part[],
  owned: Set<object>,
  tools?: Map<string, number>,
): PartsTarget {
  return {
    parts,
    ...(tools ? { tools } : {}),
    writable(index) {
      const p = parts[index] as MutablePart;
      if (owned.has(p)) return p;
      const copy = { ...p };
      owned.add(copy);
      parts[index] = copy as Part;
      return copy;
    },
  };
}

/**
 * Per-stream bookkeeping the rules need beyond the parts themselves: which text/reasoning block id is open at
 * which index (so interleaved blocks do not merge, unlike the reference builder, docs/protocol.md#observer-gaps), and the raw tool
 * input text received so far (the wire carries `inputTextDelta`, not a parsed input).
 */
export interface PartContext {
  /** Open text and reasoning blocks by chunk id (separate maps: no key string built per delta). */
  open: { text: Map<string, number>; reasoning: Map<string, number> };
  inputText: Map<string, string>;
}

/** A fresh context for a new stream, or after a message's parts were rebuilt. */
export function createPartContext(): PartContext {
  return { open: { text: new Map(), reasoning: new Map() }, inputText: new Map() };
}

/** What applying one chunk did. */
export type PartsEffect =
  | { kind: "applied" }
  | { kind: "ignored"; reason: string }
  /** A `data-*` chunk; `transient` ones are not stored and only reported (for `onData`). */
  | { kind: "data"; part: { type: string; id?: string; data: unknown }; transient: boolean }
  /** A tool chunk for a tool call that is not in these parts: the caller may apply it to an earlier message. */
  | { kind: "elsewhere"; toolCallId: string }
  /** `start`, `finish`, `message-metadata`, `error`, `abort`: handled at message level. */
  | { kind: "message-level" };

const APPLIED: PartsEffect = { kind: "applied" };
const MESSAGE_LEVEL: PartsEffect = { kind: "message-level" };
const ignored = (reason: string): PartsEffect => ({ kind: "ignored", reason });

/** Tool states after which no later chunk may change the part (first write wins). */
const SETTLED = new Set(["output-available", "output-error", "output-denied"]);

/** True when a tool part's result is final and must not be overwritten. */
export function isSettledToolState(state: unknown): boolean {
  return SETTLED.has(state as string);
}

/** True for `tool-<name>` and `dynamic-tool` parts. */
export function isToolPart(part: { type: string }): boolean {
  return part.type.startsWith("tool-") || part.type === "dynamic-tool";
}

/** Index of the tool part with this tool call id, or -1. */
export function findToolPartIndex(parts: readonly Part[], toolCallId: string): number {
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i] as MutablePart;
    if (p.toolCallId === toolCallId && isToolPart(p)) return i;
  }
  return -1;
}

/**
 * Tool call id → index of its part in `parts` (the last one, as `findToolPartIndex` answers), for
 * `PartsTarget.tools`. The applier adds the tool parts it creates; an entry that no longer matches its part is
 * looked up again, and an id the index does not hold has no part.
 */
export function toolPartIndexOf(parts: readonly Part[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as MutablePart;
    if (typeof p.toolCallId === "string" && isToolPart(p)) index.set(p.toolCallId, i);
  }
  return index;
}

/** `findToolPartIndex` through the target's index when it keeps one. */
function toolPartIndex(target: PartsTarget, toolCallId: string): number {
  const { tools, parts } = target;
  if (!tools) return findToolPartIndex(parts, toolCallId);
  const i = tools.get(toolCallId);
  if (i === undefined) return -1;
  const p = parts[i] as MutablePart | undefined;
  if (p && p.toolCallId === toolCallId && isToolPart(p)) return i;
  const found = findToolPartIndex(parts, toolCallId);
  if (found < 0) tools.delete(toolCallId);
  else tools.set(toolCallId, found);
  return found;
}

type Chunk = UIMessageChunk & Record<string, unknown>;

/**
 * Applies one chunk to the parts of a message. Never throws on odd input: a chunk that does not fit (an output
 * for a settled tool, an unknown type) is reported as ignored and changes nothing.
 */
export function applyChunkToParts(target: PartsTarget, ctx: PartContext, chunk: UIMessageChunk): PartsEffect {
  const c = chunk as Chunk;
  const type = c.type;
  switch (type) {
    case "text-start":
    case "reasoning-start":
      return startBlock(target, ctx, type === "text-start" ? "text" : "reasoning", c);
    case "text-delta":
    case "reasoning-delta":
      return appendBlock(target, ctx, type === "text-delta" ? "text" : "reasoning", c, false);
    case "text-end":
    case "reasoning-end":
      return appendBlock(target, ctx, type === "text-end" ? "text" : "reasoning", c, true);
    case "start-step":
    case "step-start" as string:
      target.parts.push({ type: "step-start" });
      return APPLIED;
    case "finish-step":
      return APPLIED;
    case "file":
    case "reasoning-file":
      target.parts.push(withMeta({ type, mediaType: c.mediaType, url: c.url }, c.providerMetadata) as Part);
      return APPLIED;
    case "source-url":
      target.parts.push(
        withMeta(
          { type, sourceId: c.sourceId, url: c.url, ...(c.title === undefined ? {} : { title: c.title }) },
          c.providerMetadata,
        ) as Part,
      );
      return APPLIED;
    case "source-document":
      target.parts.push(
        withMeta(
          {
            type,
            sourceId: c.sourceId,
            mediaType: c.mediaType,
            title: c.title,
            ...(c.filename === undefined ? {} : { filename: c.filename }),
          },
          c.providerMetadata,
        ) as Part,
      );
      return APPLIED;
    case "start":
    case "finish":
    case "message-metadata":
    case "error":
    case "abort":
      return MESSAGE_LEVEL;
    case "tool-input-start":
    case "tool-input-delta":
    case "tool-input-available":
    case "tool-input-error":
    case "tool-approval-request":
    case "tool-approval-response":
    case "tool-output-available":
    case "tool-output-error":
    case "tool-output-denied":
      return applyToolChunk(target, ctx, c);
    default:
      if (typeof type === "string" && type.startsWith("data-")) return applyData(target, c);
      return ignored(`unhandled chunk type '${String(type)}'`);
  }
}

function withMeta(part: Record<string, unknown>, providerMetadata: unknown): Record<string, unknown> {
  if (providerMetadata !== undefined) part.providerMetadata = providerMetadata;
  return part;
}

function startBlock(
  target: PartsTarget,
  ctx: PartContext,
  kind: "text" | "reasoning",
  c: Chunk,
): PartsEffect {
  const part = withMeta({ type: kind, text: "", state: "streaming" }, c.providerMetadata);
  target.parts.push(part as Part);
  if (typeof c.id === "string") ctx.open[kind].set(c.id, target.parts.length - 1);
  return APPLIED;
}

/** Finds the part a delta or end belongs to: its own block by id, else the last streaming block of that kind. */
function blockIndex(target: PartsTarget, ctx: PartContext, kind: "text" | "reasoning", id: unknown): number {
  if (typeof id === "string") {
    const i = ctx.open[kind].get(id);
    // The index is only trusted while it still points at an open block of that kind (parts can be replaced
    // wholesale by a server update between chunks).
    if (i !== undefined) {
      const p = target.parts[i] as MutablePart | undefined;
      if (p && p.type === kind && p.state === "streaming") return i;
    }
  }
  // No start seen for this id: the server omits `text-start` when it continues an interrupted text part
  // (docs/protocol.md#chunk-bodies), so the delta belongs to the last block of that kind that is still streaming.
  for (let i = target.parts.length - 1; i >= 0; i--) {
    const p = target.parts[i] as MutablePart;
    if (p.type === kind && p.state === "streaming") return i;
  }
  return -1;
}

function appendBlock(
  target: PartsTarget,
  ctx: PartContext,
  kind: "text" | "reasoning",
  c: Chunk,
  end: boolean,
): PartsEffect {
  let i = blockIndex(target, ctx, kind, c.id);
  if (i < 0) {
    if (end) return ignored(`${kind}-end without an open ${kind} part`);
    target.parts.push({ type: kind, text: "", state: "streaming" } as Part);
    i = target.parts.length - 1;
    if (typeof c.id === "string") ctx.open[kind].set(c.id, i);
  }
  const p = target.writable(i);
  if (!end && typeof c.delta === "string") p.text = (p.text as string) + c.delta;
  if (c.providerMetadata !== undefined) {
    // Shallow merge keeps provider signatures sent on the delta and on the end (Anthropic thinking blocks).
    p.providerMetadata = { ...(p.providerMetadata as object | undefined), ...(c.providerMetadata as object) };
  }
  if (end) {
    p.state = "done";
    if (typeof c.id === "string") ctx.open[kind].delete(c.id);
  }
  return APPLIED;
}

function applyData(target: PartsTarget, c: Chunk): PartsEffect {
  const part: { type: string; id?: string; data: unknown } = { type: c.type, data: c.data };
  if (typeof c.id === "string") part.id = c.id;
  if (c.transient === true) return { kind: "data", part, transient: true };
  if (part.id !== undefined) {
    for (let i = 0; i < target.parts.length; i++) {
      const p = target.parts[i] as MutablePart;
      if (p.type === part.type && p.id === part.id) {
        target.writable(i).data = part.data;
        return { kind: "data", part, transient: false };
      }
    }
  }
  target.parts.push({ ...part } as Part);
  return { kind: "data", part, transient: false };
}

function applyToolChunk(target: PartsTarget, ctx: PartContext, c: Chunk): PartsEffect {
  if (c.type === "tool-approval-response") {
    // AI SDK v7 keys this chunk by approval id only.
    const i = target.parts.findIndex(
      (p) => (p as { approval?: { id?: unknown } }).approval?.id === c.approvalId,
    );
    return i < 0
      ? ignored("tool-approval-response for an unknown approval")
      : updateToolPart(target, i, ctx, c);
  }
  const toolCallId = c.toolCallId;
  if (typeof toolCallId !== "string") return ignored(`${c.type} without a toolCallId`);
  const i = toolPartIndex(target, toolCallId);
  if (i < 0) {
    switch (c.type) {
      case "tool-input-start":
      case "tool-input-available":
      case "tool-input-error":
        target.parts.push(newToolPart(c));
        target.tools?.set(toolCallId, target.parts.length - 1);
        return updateToolPart(target, target.parts.length - 1, ctx, c);
      default:
        return { kind: "elsewhere", toolCallId };
    }
  }
  return updateToolPart(target, i, ctx, c);
}

function newToolPart(c: Chunk): Part {
  const toolName = String(c.toolName ?? "");
  // `toolName` on static parts too: the server stores its copy with it, and a snapshot then matches.
  const part: MutablePart = {
    type: c.dynamic === true ? "dynamic-tool" : `tool-${toolName}`,
    toolCallId: c.toolCallId,
    toolName,
    state: "input-streaming",
    input: undefined,
  };
  if (c.providerExecuted !== undefined) part.providerExecuted = c.providerExecuted;
  if (c.providerMetadata !== undefined) part.callProviderMetadata = c.providerMetadata;
  if (c.title !== undefined) part.title = c.title;
  return part as Part;
}

/**
 * Applies a tool chunk to the tool part at `index`. Exported so a caller can apply an output to the tool part
 * of an earlier message (a "cross-message" update, docs/protocol.md#applying-chunks).
 */
export function updateToolPart(target: PartsTarget, index: number, ctx: PartContext, c: Chunk): PartsEffect {
  const current = target.parts[index] as MutablePart;
  const state = current.state as string | undefined;
  switch (c.type) {
    case "tool-input-start":
      // A provider replaying an earlier call must not reset it (#1412).
      return state === "input-streaming" ? APPLIED : ignored("tool-input-start for an existing tool call");
    case "tool-input-delta": {
      if (state !== "input-streaming") return ignored("tool-input-delta after input was complete");
      const id = c.toolCallId as string;
      const text = (ctx.inputText.get(id) ?? "") + String(c.inputTextDelta ?? "");
      ctx.inputText.set(id, text);
      const partial = parsePartialJson(text);
      const p = target.writable(index);
      // The text so far, beside its parse, while the input streams (the AI SDK's `rawInput`).
      p.rawInput = text;
      if (partial !== undefined) p.input = partial;
      return APPLIED;
    }
    case "tool-input-available": {
      if (state !== "input-streaming" && state !== undefined) return ignored("tool input already available");
      const p = target.writable(index);
      p.state = "input-available";
      p.input = normalizeToolInput(c.input);
      delete p.rawInput;
      if (c.providerExecuted !== undefined) p.providerExecuted = c.providerExecuted;
      if (c.title !== undefined) p.title = c.title;
      ctx.inputText.delete(c.toolCallId as string);
      return APPLIED;
    }
    case "tool-input-error": {
      if (isSettledToolState(state)) return ignored("tool already settled");
      const p = target.writable(index);
      p.state = "output-error";
      if (c.input !== undefined) p.input = c.input;
      p.errorText = String(c.errorText ?? "");
      return APPLIED;
    }
    case "tool-approval-request": {
      // A repeated request must not undo a decision the user already made (#1818).
      if (isSettledToolState(state) || state === "approval-responded")
        return ignored("approval already decided");
      const p = target.writable(index);
      p.state = "approval-requested";
      const approval: Record<string, unknown> = { id: c.approvalId };
      // Think attaches an action descriptor (summary, risk, permissions) that approval UIs read.
      if (c.approvalDescriptor !== undefined) approval.descriptor = c.approvalDescriptor;
      if (c.isAutomatic !== undefined) approval.isAutomatic = c.isAutomatic;
      p.approval = approval;
      return APPLIED;
    }
    case "tool-approval-response": {
      if (state !== "approval-requested") return ignored("no approval pending");
      const p = target.writable(index);
      p.state = "approval-responded";
      p.approval = {
        ...(p.approval as object),
        approved: c.approved,
        ...(c.reason === undefined ? {} : { reason: c.reason }),
      };
      return APPLIED;
    }
    case "tool-output-denied": {
      if (isSettledToolState(state) || state === "approval-responded") return ignored("tool already decided");
      target.writable(index).state = "output-denied";
      return APPLIED;
    }
    case "tool-output-available": {
      // First write wins, except that a final output replaces a preliminary one.
      if (isSettledToolState(state) && !(state === "output-available" && current.preliminary === true))
        return ignored("tool output already settled");
      const p = target.writable(index);
      p.state = "output-available";
      p.output = c.output;
      if (c.preliminary !== undefined) p.preliminary = c.preliminary;
      else if (p.preliminary !== undefined) delete p.preliminary;
      if (c.providerExecuted !== undefined) p.providerExecuted = c.providerExecuted;
      // A Think durable pause sends its action descriptor beside the paused output; the part keeps it, as the
      // server's persisted part does, so an approval card can show what is waiting.
      if (c.approvalDescriptor !== undefined) p.approvalDescriptor = c.approvalDescriptor;
      return APPLIED;
    }
    case "tool-output-error": {
      if (isSettledToolState(state)) return ignored("tool output already settled");
      const p = target.writable(index);
      p.state = "output-error";
      p.errorText = String(c.errorText ?? "");
      return APPLIED;
    }
    default:
      return ignored(`unhandled tool chunk '${c.type}'`);
  }
}

/** Tool input as servers persist it: objects as they are, JSON strings parsed, anything else as sent. */
export function normalizeToolInput(input: unknown): unknown {
  if (typeof input === "string") {
    try {
      return JSON.parse(input);
    } catch {
      return input;
    }
  }
  return input;
}

/**
 * Parses JSON that may be cut off mid-way (streamed tool input), closing open strings, arrays and objects.
 * Returns undefined when nothing sensible can be read yet.
 */
export function parsePartialJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // fall through to repair
  }
  const closers: string[] = [];
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") closers.push("}");
    else if (ch === "[") closers.push("]");
    else if (ch === "}" || ch === "]") closers.pop();
  }
  let repaired = text;
  if (inString) repaired += escaped ? '\\"' : '"';
  // Drop a dangling separator, or an object key that has no value yet.
  repaired = repaired.replace(/,\s*$/, "").replace(/,?\s*"(?:[^"\\]|\\.)*"\s*:\s*$/, "");
  if (closers.at(-1) === "}")
    repaired = repaired.replace(/([{,])\s*"(?:[^"\\]|\\.)*"\s*$/, "$1").replace(/,$/, "");
  const candidate = repaired + closers.reverse().join("");
  try {
    return JSON.parse(candidate);
  } catch {
    return undefined;
  }
}
