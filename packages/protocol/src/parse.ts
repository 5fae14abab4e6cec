/**
 * Frame parsing. Nothing here throws: bad input from the wire becomes a result with a reason, so a client can
 * report it through its error channel and keep going.
 */
import type { UIMessageChunk } from "ai";
import { readSessionStatus } from "./compaction.ts";
import { MAX_JSON_DEPTH, oversize, scanNesting } from "./frame-limits.ts";
import type { AgentToolEvent, ClientFrame, ServerFrame } from "./frames.ts";

/** Why a frame was rejected. */
export interface FrameError {
  kind: "error";
  /** Human-readable reason, e.g. `"cf_agent_use_chat_response: field 'done' must be a boolean"`. */
  reason: string;
  /** The frame's `type` when it could be read. */
  frameType?: string;
  /**
   * Set when the frame broke a limit (`maxBytes`, or nesting past `MAX_JSON_DEPTH`); such a frame was refused
   * before `JSON.parse`, and a client drops it instead of handing it on.
   */
  limit?: "size" | "depth";
}

/** Limits applied before a frame is parsed. */
export interface FrameLimits {
  /** The largest frame accepted, in bytes (UTF-8 for text). Default: no size limit. */
  maxBytes?: number;
}

/** A well-formed frame of a type this package does not know; passed through untouched. */
export interface UnknownFrame {
  kind: "unknown";
  type: string;
  frame: Record<string, unknown>;
}

/** The result of parsing one frame. */
export type ParseResult<F> = { kind: "frame"; frame: F } | UnknownFrame | FrameError;

type Obj = Record<string, unknown>;
/** Returns an error reason, or undefined when the object has the frame's shape. */
type Check = (o: Obj) => string | undefined;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const TYPE_NAMES: Record<string, string> = {
  s: "a string",
  b: "a boolean",
  n: "a finite number",
  a: "an array",
};
const typeIs = (t: string, v: unknown) =>
  t === "s"
    ? typeof v === "string"
    : t === "b"
      ? typeof v === "boolean"
      : t === "n"
        ? typeof v === "number" && Number.isFinite(v)
        : Array.isArray(v);
/** The reason field `k` of `o` is not of type `t` (a letter, as in `fields`), or undefined. */
const field = (o: Obj, k: string, t: string, optional = false) =>
  (optional && o[k] === undefined) || typeIs(t, o[k]) ? undefined : `field '${k}' must be ${TYPE_NAMES[t]}`;
const str = (o: Obj, k: string) => field(o, k, "s");
const optStr = (o: Obj, k: string) => field(o, k, "s", true);
const optBool = (o: Obj, k: string) => field(o, k, "b", true);
const num = (o: Obj, k: string) => field(o, k, "n");
const has = (o: Obj, k: string) => (k in o ? undefined : `field '${k}' is missing`);

/**
 * A check of typed fields from a spec such as `"id:s done:b error:b?"` (`s` string, `b` boolean, `n` finite
 * number, `a` array; `?` may be absent), then any `more` checks, first failure wins. The spec is read once;
 * one loop then serves every frame, which matters on the streaming path where every delta is checked (a chain
 * of one closure per field was a quarter of the frame parse time in the chat benchmark).
 */
function fields(spec: string, ...more: Check[]): Check {
  const list = spec.split(" ").map((f) => {
    const [key, t = ""] = f.split(":");
    return { key: key as string, type: t.charAt(0), optional: t.endsWith("?") };
  });
  return (o) => {
    for (const { key, type, optional } of list) {
      const r = field(o, key, type, optional);
      if (r) return r;
    }
    for (const c of more) {
      const r = c(o);
      if (r) return r;
    }
    return undefined;
  };
}

const messagesCheck: Check = (o) => {
  const r = field(o, "messages", "a");
  if (r) return r;
  const ids = new Set<string>();
  for (const m of o.messages as unknown[]) {
    const e = messageShape(m);
    if (e) return `messages: ${e}`;
    // A transcript with two messages of one id cannot be rendered or updated unambiguously.
    const id = (m as { id: string }).id;
    if (ids.has(id)) return `messages: duplicate message id '${id}'`;
    ids.add(id);
  }
  return undefined;
};

/** String fields a part type's AI SDK type promises: `[required, optional]`. */
const PART_STRINGS: Record<string, readonly [required: readonly string[], optional: readonly string[]]> = {
  text: [["text"], ["state"]],
  reasoning: [["text"], ["state", "id"]],
  "source-url": [["sourceId", "url"], ["title"]],
  "source-document": [["sourceId", "mediaType", "title"], ["filename"]],
  file: [["mediaType", "url"], ["filename"]],
  "reasoning-file": [["mediaType", "url"], []],
};
const TOOL_PART_STRINGS = ["toolName", "title", "errorText"];

/** The first string field of `o` that is not one, as a reason; `where` names the object. */
function strings(o: Obj, required: readonly string[], optional: readonly string[], where: string) {
  for (const k of required) if (typeof o[k] !== "string") return `${where} needs a string '${k}'`;
  for (const k of optional)
    if (o[k] !== undefined && typeof o[k] !== "string") return `${where} field '${k}' must be a string`;
  return undefined;
}

/** A tool part's `approval`: an object with a string `id`, a boolean `approved` and string reasons. */
function approvalShape(a: unknown): string | undefined {
  if (a === undefined) return undefined;
  if (!isObj(a)) return "tool part field 'approval' must be an object";
  return (
    strings(a, ["id"], ["reason", "requestReason"], "tool part approval") ??
    (a.approved === undefined || typeof a.approved === "boolean"
      ? undefined
      : "tool part approval field 'approved' must be a boolean")
  );
}

/**
 * Checks the parts of a UIMessage a client relies on: id, role and a parts array of typed objects whose
 * fields have their AI SDK types.
 */
export function messageShape(m: unknown): string | undefined {
  if (!isObj(m)) return "message must be an object";
  if (typeof m.id !== "string") return "message 'id' must be a string";
  if (m.role !== "user" && m.role !== "assistant" && m.role !== "system") return "message 'role' is invalid";
  if (!Array.isArray(m.parts)) return "message 'parts' must be an array";
  const toolCalls = new Set<string>();
  for (const p of m.parts) {
    if (!isObj(p) || typeof p.type !== "string") return "message part needs a 'type'";
    // The fields every UI reads must have their AI SDK types, or rendering `part.text` or switching on
    // `part.state` breaks in the app (found by the client fuzz test: a snapshot part without `text`, and
    // an approval whose `id` was an object, which React cannot render).
    const fields = Object.hasOwn(PART_STRINGS, p.type) ? PART_STRINGS[p.type] : undefined;
    if (fields) {
      const e = strings(p, fields[0], fields[1], `${p.type} part`);
      if (e) return e;
    } else if (p.type.startsWith("tool-") || p.type === "dynamic-tool") {
      if (typeof p.toolCallId !== "string" || typeof p.state !== "string")
        return "tool part needs a string 'toolCallId' and 'state'";
      if (toolCalls.has(p.toolCallId)) return `message has tool call '${p.toolCallId}' twice`;
      toolCalls.add(p.toolCallId);
      const e =
        strings(p, p.type === "dynamic-tool" ? ["toolName"] : [], TOOL_PART_STRINGS, "tool part") ??
        approvalShape(p.approval) ??
        (p.preliminary === undefined || typeof p.preliminary === "boolean"
          ? undefined
          : "tool part field 'preliminary' must be a boolean");
      if (e) return e;
    } else if (p.type.startsWith("data-") && p.id !== undefined && typeof p.id !== "string")
      return `${p.type} part field 'id' must be a string`;
  }
  return undefined;
}

const rpcResponse: Check = (o) => {
  const e = str(o, "id");
  if (e) return e;
  if (o.success === true) return optBool(o, "done");
  if (o.success === false) return str(o, "error");
  // A request echoed back to a client is not a response.
  if ("method" in o) return "an rpc request is not a server frame";
  return "field 'success' must be a boolean";
};

const agentToolEvent: Check = (o) => {
  const e = num(o, "sequence") ?? optStr(o, "parentToolCallId");
  if (e) return e;
  if (o.replay !== undefined && o.replay !== true) return "field 'replay' must be true when present";
  return eventShape(o.event);
};

const INTERRUPT_REASONS = new Set([
  "no-progress",
  "window-exceeded",
  "not-tailable",
  "inspect-timeout",
  "inspect-failed",
  "recovery-deadline",
  "budget-exceeded",
]);

function eventShape(ev: unknown): string | undefined {
  if (!isObj(ev)) return "field 'event' must be an object";
  const e = str(ev, "kind") ?? str(ev, "runId");
  if (e) return `event: ${e}`;
  let r: string | undefined;
  switch (ev.kind) {
    case "started":
      r = str(ev, "agentType") ?? (ev.order === undefined ? undefined : num(ev, "order"));
      if (!r && ev.display !== undefined)
        // A run's display name and icon go straight into a UI (found by the fuzz test: an object as
        // `display.name` reached React as a child and threw).
        r = isObj(ev.display)
          ? strings(ev.display, [], ["name", "icon"], "display")
          : "field 'display' must be an object";
      break;
    case "chunk":
      r = str(ev, "body") ?? optStr(ev, "unstoredId");
      break;
    case "finished":
      r = str(ev, "summary");
      break;
    case "error":
      r = str(ev, "error");
      break;
    case "aborted":
      r = optStr(ev, "reason");
      break;
    case "interrupted":
      r = str(ev, "error") ?? optBool(ev, "childStillRunning");
      if (!r && ev.reason !== undefined && !INTERRUPT_REASONS.has(ev.reason as string))
        r = "field 'reason' is not a known interrupt reason";
      break;
    default:
      return UNKNOWN_EVENT;
  }
  return r ? `event ${ev.kind}: ${r}` : undefined;
}

// Marker: an event kind from a newer server is not an error, the frame is passed through as unknown.
const UNKNOWN_EVENT = "\0unknown-event-kind";

const chatResponseFields = fields("id:s body:s done:b error:b? continuation:b? replay:b? replayComplete:b?");
const chatErrorFields = fields("id:s body:s error:b continuation:b? replay:b? replayComplete:b?");
/**
 * An error frame is terminal with or without `done` (the server may send `{error:true}` and a bare `{done:true}`
 * after it): one without `done` is read as `done: false`, so it still ends the stream with its error.
 */
function chatResponse(o: Record<string, unknown>): string | undefined {
  if (o.error !== true || o.done !== undefined) return chatResponseFields(o);
  const reason = chatErrorFields(o);
  if (reason === undefined) o.done = false;
  return reason;
}

/**
 * `cf_agent_session` (docs/protocol.md#compaction): the same rule the chat store reads it by, so a frame is
 * either rejected here (and reported once, by the connection) or shown; never accepted here and refused there.
 */
function sessionCheck(o: Record<string, unknown>): string | undefined {
  const read = readSessionStatus(o);
  return "problem" in read ? read.problem.replace(/^cf_agent_session: /, "") : undefined;
}

const serverChecks: Record<string, Check> = {
  cf_agent_identity: fields("name:s agent:s stateFollows:b?"),
  cf_agent_state: (o) => has(o, "state"),
  cf_agent_state_error: (o) => str(o, "error"),
  cf_agent_mcp_servers: (o) => (isObj(o.mcp) ? undefined : "field 'mcp' must be an object"),
  rpc: rpcResponse,
  cf_agent_session: sessionCheck,
  cf_agent_session_error: (o) => str(o, "error"),
  cf_agent_use_chat_response: chatResponse,
  cf_agent_chat_messages: messagesCheck,
  cf_agent_chat_clear: () => undefined,
  cf_agent_message_updated: (o) => {
    const e = messageShape(o.message);
    return e ? `message: ${e}` : undefined;
  },
  cf_agent_chat_recovering: fields("recovering:b id:s?"),
  cf_agent_stream_resuming: fields("id:s probeId:s?"),
  cf_agent_stream_resume_none: (o) =>
    optStr(o, "probeId") ??
    (o.reason === undefined || o.reason === "idle" || o.reason === "continuation-owned"
      ? undefined
      : "field 'reason' must be 'idle' or 'continuation-owned'"),
  cf_agent_stream_pending: fields("id:s? probeId:s?"),
  "agent-tool-event": agentToolEvent,
};

const clientChecks: Record<string, Check> = {
  cf_agent_state: (o) => has(o, "state"),
  rpc: fields("id:s method:s args:a"),
  cf_agent_use_chat_request: (o) =>
    str(o, "id") ??
    (isObj(o.init)
      ? str(o.init, "body")
        ? "field 'init.body' must be a string"
        : undefined
      : "field 'init' must be an object"),
  cf_agent_chat_messages: messagesCheck,
  cf_agent_chat_clear: () => undefined,
  cf_agent_chat_request_cancel: (o) => str(o, "id"),
  cf_agent_tool_result: fields("toolCallId:s toolName:s? errorText:s? autoContinue:b?", (o) =>
    o.state === undefined || o.state === "output-available" || o.state === "output-error"
      ? undefined
      : "field 'state' must be 'output-available' or 'output-error'",
  ),
  cf_agent_tool_approval: fields("toolCallId:s approved:b autoContinue:b?"),
  cf_agent_stream_resume_request: (o) => optStr(o, "probeId"),
  cf_agent_stream_resume_ack: (o) => str(o, "id"),
};

function parseWith<F>(raw: unknown, checks: Record<string, Check>, limits?: FrameLimits): ParseResult<F> {
  const max = limits?.maxBytes;
  const size = max === undefined ? undefined : oversize(raw, max);
  // Reported by size alone: nothing of a refused frame's content reaches a log or an error handler.
  if (size !== undefined && max !== undefined)
    return {
      kind: "error",
      // Text longer than the limit is measured by its length alone: a lower bound (frame-limits.ts).
      reason: `frame of ${typeof raw === "string" && raw.length > max ? "at least " : ""}${size} bytes exceeds the limit of ${max} bytes`,
      limit: "size",
    };
  if (typeof raw !== "string") return { kind: "error", reason: "frame is not text" };
  const scan = scanNesting(raw);
  if (scan.tooDeep)
    return {
      kind: "error",
      reason: `frame is nested more than ${MAX_JSON_DEPTH} levels deep`,
      limit: "depth",
      ...(scan.type === undefined ? {} : { frameType: scan.type }),
    };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { kind: "error", reason: "frame is not valid JSON" };
  }
  if (!isObj(value)) return { kind: "error", reason: "frame is not a JSON object" };
  const type = value.type;
  if (typeof type !== "string") return { kind: "error", reason: "frame has no string 'type'" };
  // Own keys only: a `type` such as "toString" or "__proto__" must not reach Object.prototype.
  const check = Object.hasOwn(checks, type) ? checks[type] : undefined;
  if (!check) return { kind: "unknown", type, frame: value };
  const problem = check(value);
  if (problem === UNKNOWN_EVENT) return { kind: "unknown", type, frame: value };
  if (problem) return { kind: "error", reason: `${type}: ${problem}`, frameType: type };
  return { kind: "frame", frame: value as F };
}

/**
 * Parses one text frame from the server. Never throws.
 *
 * @example
 * const r = parseServerFrame(event.data);
 * if (r.kind === "frame" && r.frame.type === "cf_agent_identity") console.log(r.frame.name);
 * else if (r.kind === "error") onError(new Error(r.reason));
 */
export function parseServerFrame(raw: unknown, limits?: FrameLimits): ParseResult<ServerFrame> {
  return parseWith<ServerFrame>(raw, serverChecks, limits);
}

/** Parses one text frame from a client (used by servers, including the mock). Never throws. */
export function parseClientFrame(raw: unknown, limits?: FrameLimits): ParseResult<ClientFrame> {
  return parseWith<ClientFrame>(raw, clientChecks, limits);
}

/** The result of reading a chunk body (`cf_agent_use_chat_response.body` or an agent-tool `chunk`). */
export type ChunkResult = { kind: "chunk"; chunk: UIMessageChunk } | { kind: "empty" } | FrameError;

/**
 * Parses the JSON `UIMessageChunk` inside a chat response body or an agent-tool chunk event. An empty body
 * (control frames such as `done` or `replayComplete`) is `empty`, not an error. Never throws.
 */
export function parseChunkBody(body: string): ChunkResult {
  if (body === "") return { kind: "empty" };
  if (scanNesting(body).tooDeep)
    return {
      kind: "error",
      reason: `chunk body is nested more than ${MAX_JSON_DEPTH} levels deep`,
      limit: "depth",
    };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { kind: "error", reason: "chunk body is not valid JSON" };
  }
  if (!isObj(value) || typeof value.type !== "string")
    return { kind: "error", reason: "chunk body has no string 'type'" };
  const type = value.type;
  const check = Object.hasOwn(chunkChecks, type)
    ? chunkChecks[type]
    : type.startsWith("data-")
      ? dataChunk
      : undefined;
  const problem = check?.(value);
  if (problem) return { kind: "error", reason: `chunk body ${type}: ${problem}` };
  return { kind: "chunk", chunk: value as unknown as UIMessageChunk };
}

/**
 * The fields of a chunk that end up in message parts (or message state) must have the types `UIMessageChunk`
 * promises: the chunk applier copies them into parts as they are, and a UI renders them (found by the fuzz
 * test: a `tool-approval-request` whose `approvalId` was an object became `part.approval.id` and broke the
 * render; a `source-url` title or a `file` url of the wrong type would too). Chunk types this package does not
 * apply are not checked: they pass through for a newer server's sake.
 */
const dataChunk: Check = fields("id:s? transient:b?");
const blockChunk: Check = (o) => optStr(o, "id");
const deltaChunk: Check = fields("id:s? delta:s");
const TOOL_INPUT = "toolCallId:s toolName:s title:s? dynamic:b? providerExecuted:b?";
const toolInput: Check = fields(TOOL_INPUT);
const chunkChecks: Record<string, Check> = {
  "text-start": blockChunk,
  "text-delta": deltaChunk,
  "text-end": blockChunk,
  "reasoning-start": blockChunk,
  "reasoning-delta": deltaChunk,
  "reasoning-end": blockChunk,
  start: (o) => optStr(o, "messageId"),
  finish: (o) => optStr(o, "finishReason"),
  error: (o) => str(o, "errorText"),
  abort: (o) => optStr(o, "reason"),
  file: fields("url:s mediaType:s"),
  "reasoning-file": fields("url:s mediaType:s"),
  "source-url": fields("sourceId:s url:s title:s?"),
  "source-document": fields("sourceId:s mediaType:s title:s filename:s?"),
  "tool-input-start": toolInput,
  "tool-input-delta": fields("toolCallId:s inputTextDelta:s"),
  "tool-input-available": toolInput,
  "tool-input-error": fields(`${TOOL_INPUT} errorText:s`),
  "tool-approval-request": fields("approvalId:s toolCallId:s reason:s? isAutomatic:b?"),
  "tool-approval-response": fields("approvalId:s approved:b reason:s?"),
  "tool-output-available": fields("toolCallId:s preliminary:b? providerExecuted:b?"),
  "tool-output-error": fields("toolCallId:s errorText:s"),
  "tool-output-denied": (o) => str(o, "toolCallId"),
};

/** Type guard for an agent-tool event of one kind. */
export function isAgentToolEventKind<K extends AgentToolEvent["kind"]>(
  event: AgentToolEvent,
  kind: K,
): event is Extract<AgentToolEvent, { kind: K }> {
  return event.kind === kind;
}
