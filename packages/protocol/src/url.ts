/**
 * Agent URLs, built by the official routing rules (docs/protocol.md#urls, docs/protocol.md#sub-agents, docs/protocol.md#http-endpoints) so a connection made here
 * reaches the same Durable Object instance as one made by `agents/react`.
 */

/** One step of a sub-agent chain: the child class and its instance name. */
export interface SubAgentStep {
  agent: string;
  name: string;
}

/** Where an agent lives. The same options the official `useAgent` / `AgentClient` take. */
export interface AgentAddress {
  /** Agent class name (`"ChatAgent"`) or its kebab-case binding (`"chat-agent"`). */
  agent: string;
  /** Instance name; `"default"` when omitted or empty. Used as is, not URL-encoded (as the official client does). */
  name?: string;
  /** Host with optional port; any `http(s)://` / `ws(s)://` prefix and a trailing `/` are removed. */
  host: string;
  /** Appended after the agent path; must not start with `/`. */
  path?: string;
  /** Replaces `/agents/<agent>/<name>` with `/<basePath>`; the server routes it itself. */
  basePath?: string;
  /** Extra query parameters; `null` and `undefined` values are dropped. */
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Sub-agent chain, root first: `/sub/<kebab child>/<encoded name>` per step. */
  sub?: readonly SubAgentStep[];
  /** Forces the scheme; otherwise loopback and private hosts get ws/http and everything else wss/https. */
  protocol?: "ws" | "wss" | "http" | "https";
  /** Connection id sent as the first query parameter `_pk`; the server uses it as the connection id. */
  pk?: string;
}

/**
 * Converts a class name to the kebab-case routing segment, exactly as the server maps bindings:
 * `AIChatAgent` → `a-i-chat-agent`, `SCREAMING_CASE` → `screaming-case`, `chat-agent` → `chat-agent`.
 */
export function kebabAgentName(name: string): string {
  // An all-caps name (with letters) is lower-cased whole rather than split letter by letter.
  if (name === name.toUpperCase() && name !== name.toLowerCase())
    return name.toLowerCase().replace(/_/g, "-");
  let out = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  if (out.startsWith("-")) out = out.slice(1);
  out = out.replace(/_/g, "-");
  if (out.endsWith("-")) out = out.slice(0, -1);
  return out;
}

const PRIVATE_HOST =
  /^(localhost:|127\.0\.0\.1:|192\.168\.|10\.|172\.(1[6-9]|2\d|3[01])\.|\[::ffff:7f00:1\]:)/;

function cleanHost(host: string): string {
  return host.replace(/^(https?|wss?):\/\//, "").replace(/\/$/, "");
}

/** True for the hosts the official client treats as local (plain ws/http). A bare `localhost` is not. */
export function isPrivateHost(host: string): boolean {
  return PRIVATE_HOST.test(cleanHost(host));
}

/** The path of the agent, without scheme, host or query: `/agents/<kebab>/<name>[/sub/...][/path]`. */
export function agentPath(address: Omit<AgentAddress, "host">): string {
  if (address.path?.startsWith("/")) throw new TypeError("path must not start with a slash");
  const tail: string[] = [];
  for (const step of address.sub ?? []) {
    // A child's name can come from the wire (drill-in): total over lone surrogates, as the query is.
    tail.push("sub", kebabAgentName(step.agent), encodeURIComponent(wellFormed(step.name)));
  }
  if (address.path) tail.push(address.path);
  const base = address.basePath
    ? `/${address.basePath}`
    : `/agents/${kebabAgentName(address.agent)}/${address.name || "default"}`;
  return tail.length ? `${base}/${tail.join("/")}` : base;
}

/** `s` as a USVString: a lone surrogate becomes U+FFFD (what URL APIs do) instead of making encodeURIComponent throw. */
function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** Form-encodes like `URLSearchParams` (which the official client uses), without needing the DOM lib. */
function formEncode(s: string): string {
  return encodeURIComponent(wellFormed(s))
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

function queryString(address: AgentAddress, withPk: boolean): string {
  const pairs: string[] = [];
  if (withPk && address.pk !== undefined) pairs.push(`_pk=${formEncode(address.pk)}`);
  for (const [k, v] of Object.entries(address.query ?? {})) {
    if (v !== null && v !== undefined) pairs.push(`${formEncode(k)}=${formEncode(String(v))}`);
  }
  return pairs.length ? `?${pairs.join("&")}` : "";
}

function scheme(address: AgentAddress, secure: string, plain: string): string {
  if (address.protocol) {
    const p = address.protocol;
    // The caller forces security; map it onto the transport asked for.
    const isSecure = p === "wss" || p === "https";
    return isSecure ? secure : plain;
  }
  return isPrivateHost(address.host) ? plain : secure;
}

/**
 * The WebSocket URL of an agent.
 *
 * @example
 * agentUrl({ host: "localhost:8787", agent: "ChatAgent", name: "room", pk: "abc" })
 * // → "ws://localhost:8787/agents/chat-agent/room?_pk=abc"
 */
export function agentUrl(address: AgentAddress): string {
  return `${scheme(address, "wss", "ws")}://${cleanHost(address.host)}${agentPath(address)}${queryString(address, true)}`;
}

/**
 * The HTTP URL of an agent, optionally with a path appended to its pathname. No `_pk`; other query
 * parameters (auth tokens) are kept.
 *
 * @example
 * agentHttpUrl({ host: "my.app", agent: "ChatAgent", name: "r" }, "get-messages")
 * // → "https://my.app/agents/chat-agent/r/get-messages"
 */
export function agentHttpUrl(address: AgentAddress, path?: string): string {
  const base = `${scheme(address, "https", "http")}://${cleanHost(address.host)}${agentPath(address)}`;
  const full = path ? `${base}/${path.replace(/^\//, "")}` : base;
  return `${full}${queryString(address, false)}`;
}

/** The transcript endpoint AIChatAgent and Think answer: `GET …/get-messages`. */
export function getMessagesUrl(address: AgentAddress): string {
  return agentHttpUrl(address, "get-messages");
}
