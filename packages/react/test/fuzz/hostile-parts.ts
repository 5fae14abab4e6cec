/**
 * Message parts the parser lets through but no component expects: a tool part's `input` and `output` are any
 * JSON value (null, a string, an array, a number, megabytes), its `state` any string, its name anything after
 * `tool-`, and every string may be markup. Delivered as transcripts, message updates and server-started
 * streams, so they reach the components the way a hostile server would send them.
 */
import type { FuzzContext, GeneratedFrame, Rng } from "./frames.ts";

/** Strings that would become elements if anything rendered server text as HTML. */
export const MARKUP = [
  '<img src=x onerror="globalThis.__pwned=1">',
  "<script>globalThis.__pwned=1</script>",
  '<iframe src="javascript:globalThis.__pwned=1"></iframe>',
  "<svg onload=globalThis.__pwned=1></svg>",
  '"><object data="x"></object>',
];

/** Elements (and attributes) a payload above would create: none may ever be in the document. */
// An app's own decorative icons (the playground's status glyphs and arrows) are SVG marked aria-hidden and
// focusable="false"; injected markup carries neither, so those alone are allowed.
export const INJECTED =
  'script, img, iframe, svg:not([aria-hidden="true"][focusable="false"]), object, embed, [onerror], [onload]';

const STATES = [
  "input-streaming",
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-error",
  "output-denied",
  "a-state-from-the-future",
  "",
];

const NAMES = ["pay", "getLocation", "openBrowser", "", "__proto__", "x".repeat(300), ...MARKUP];

type Obj = Record<string, unknown>;

/** A value for `input` or `output`, any shape JSON allows. */
function value(r: Rng): unknown {
  return r.weighted<() => unknown>([
    [3, () => null],
    [3, () => r.pick(MARKUP)],
    [2, () => [r.pick(MARKUP), 1, null, { nested: [r.pick(MARKUP)] }]],
    [2, () => r.pick([0, -1, 1e308, 3.5])],
    [1, () => r.pick([true, false])],
    [1, () => ""],
    [1, () => ({})],
    [1, () => []],
    [1, () => "y".repeat(r.int(5_000, 50_000))],
    [1, () => JSON.parse('{"__proto__":{"polluted":true},"constructor":"x"}')],
    [1, () => ({ targets: "not an array", expiresInMs: -1 })],
    [2, () => undefined],
  ])();
}

let fresh = 0;

/** A tool part with hostile fields, still of a shape `messageShape` accepts. */
function toolPart(r: Rng, ctx: FuzzContext): Obj {
  const state = r.pick(STATES);
  const dynamic = r.chance(0.2);
  const name = r.pick(NAMES);
  const input = value(r);
  const output = value(r);
  return {
    type: dynamic ? "dynamic-tool" : `tool-${name}`,
    ...(dynamic ? { toolName: name } : {}),
    toolCallId: r.chance(0.3) && ctx.toolCallIds.length ? r.pick(ctx.toolCallIds) : `hostile-${++fresh}`,
    state,
    ...(input === undefined ? {} : { input }),
    ...(output === undefined ? {} : { output }),
    ...(r.chance(0.4) ? { errorText: r.pick(MARKUP) } : {}),
    ...(r.chance(0.2) ? { title: r.pick(MARKUP) } : {}),
    ...(state.startsWith("approval") || r.chance(0.1)
      ? { approval: { id: `approval-${++fresh}`, ...(r.chance(0.5) ? { reason: r.pick(MARKUP) } : {}) } }
      : {}),
  };
}

function message(r: Rng, ctx: FuzzContext): Obj {
  const parts: Obj[] = [];
  for (let i = r.int(1, 4); i > 0; i--)
    parts.push(r.chance(0.7) ? toolPart(r, ctx) : { type: "text", text: r.pick(MARKUP) });
  // One tool call twice in a message is a shape error; keep the frame acceptable.
  const seen = new Set<unknown>();
  return {
    id: r.chance(0.3) && ctx.messageIds.length ? r.pick(ctx.messageIds) : `hostile-msg-${++fresh}`,
    role: r.pick(["assistant", "assistant", "user", "system"]),
    parts: parts.filter(
      (p) => p.toolCallId === undefined || (!seen.has(p.toolCallId) && seen.add(p.toolCallId)),
    ),
  };
}

/** A few frames carrying hostile parts: a transcript, a message update, or a stream the server starts. */
export function hostileFrames(r: Rng, ctx: FuzzContext): GeneratedFrame[] {
  const kind = r.weighted<string>([
    [2, "transcript"],
    [3, "update"],
    [2, "stream"],
  ]);
  const frame = (o: Obj): GeneratedFrame => ({ kind: "scenario", data: JSON.stringify(o) });
  if (kind === "transcript") {
    const messages = Array.from({ length: r.int(1, 6) }, () => message(r, ctx));
    const ids = new Set<unknown>();
    return [
      frame({
        type: "cf_agent_chat_messages",
        messages: messages.filter((m) => !ids.has(m.id) && ids.add(m.id)),
      }),
    ];
  }
  if (kind === "update") return [frame({ type: "cf_agent_message_updated", message: message(r, ctx) })];
  const id = `hostile-stream-${++fresh}`;
  const toolCallId = `hostile-${++fresh}`;
  const chunk = (c: Obj, done = false) =>
    frame({ type: "cf_agent_use_chat_response", id, body: JSON.stringify(c), done });
  const input = value(r);
  const output = value(r);
  return [
    chunk({ type: "start", messageId: `hostile-msg-${++fresh}` }),
    chunk({
      type: "tool-input-available",
      toolCallId,
      toolName: r.pick(NAMES),
      ...(input === undefined ? {} : { input }),
    }),
    r.chance(0.5)
      ? chunk({ type: "tool-output-available", toolCallId, ...(output === undefined ? {} : { output }) })
      : chunk({ type: "tool-output-error", toolCallId, errorText: r.pick(MARKUP) }),
    frame({ type: "cf_agent_use_chat_response", id, body: "", done: true }),
  ];
}
