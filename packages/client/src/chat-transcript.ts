/**
 * The transcript side of the chat store: the first load (`getInitialMessages` or `GET …/get-messages`), a
 * load that waits for the agent's address, full transcripts from the server applied over what is streaming
 * here, and reading the transcript again after this tab may have missed part of it.
 */
import { redactUrl } from "@runboard/protocol";
import type { UIMessage } from "ai";
import { AGENT_THREAD_KEY, SOCKET_ADDRESS_PENDING } from "./agent-client-types.ts";
import type { ChatCore } from "./chat-core.ts";
import type { ChatAgentLike, TranscriptResult } from "./chat-types.ts";

/** The agent's address is not known yet (an async `query` still resolving), on our object or the official one. */
export function isAddressPending(agent: ChatAgentLike): boolean {
  return (agent as unknown as Record<symbol, unknown>)[SOCKET_ADDRESS_PENDING] === true;
}

/**
 * The agent's HTTP URL without the connection id (`_pk`), as the official hook hands it to
 * `getInitialMessages`; undefined while the address is pending or when the agent has no URL.
 */
export function agentBaseUrl(agent: ChatAgentLike): string | undefined {
  if (isAddressPending(agent)) return undefined;
  const raw = agent.getHttpUrl?.();
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    url.searchParams.delete("_pk");
    return url.toString();
  } catch {
    return undefined;
  }
}

/** The route options of the official object (partysocket's `partySocketOptions`) that name a thread. */
type RouteOptions = { host?: unknown; basePath?: unknown; prefix?: unknown; party?: unknown; path?: unknown };

/** One step of an agent path: the class and instance name, as `[agent, name]`. */
function stepsOf(path: unknown): unknown[][] {
  return Array.isArray(path)
    ? path.map((s: { agent?: unknown; name?: unknown } | null) => [s?.agent, s?.name])
    : [];
}

/**
 * Which thread of which agent a chat is about, as the official hook keys its chat and its first transcript: the
 * agent path (class and instance name of the agent and of each sub-agent) and, on the official object, its
 * route options (host, basePath, prefix, party, path); never the URL's query, credentials or connection id. So
 * a thread switch that keeps the URL path (custom routing: the thread in the query or picked by the server
 * from the user's auth) is a new chat when the agent's `name` changes, and a new object for the same thread
 * (a rotated token) keeps the chat (docs/protocol.md#urls-and-routing). Undefined while the address is not
 * known yet: the pending mark, or an object that names no agent and whose `getHttpUrl()` is still `""`.
 */
export function chatThreadKey(agent: ChatAgentLike): string | undefined {
  if (isAddressPending(agent)) return undefined;
  const own = (agent as unknown as Record<symbol, unknown>)[AGENT_THREAD_KEY];
  // An `AgentClient` (`useAgent`'s result) says it from its options: its `name` follows the identity frame.
  if (typeof own === "string") return own;
  const a = agent as ChatAgentLike & { path?: unknown; partySocketOptions?: unknown };
  const route = a.partySocketOptions;
  if (route !== null && typeof route === "object") {
    // The official object: `path` is the whole chain, root first (as the official hook reads it).
    const r = route as RouteOptions;
    const steps = Array.isArray(a.path) ? stepsOf(a.path) : [[a.agent ?? "", a.name ?? ""]];
    const at = [r.host ?? null, r.basePath ?? null, r.prefix ?? null, r.party ?? null, r.path ?? null];
    return JSON.stringify([steps, at]);
  }
  if (a.agent !== undefined || a.name !== undefined || Array.isArray(a.path)) {
    // Another object that names its agent (`path`, if any, read as the sub-agents).
    return JSON.stringify([[[a.agent ?? "", a.name ?? ""], ...stepsOf(a.path)], null]);
  }
  // Names nothing: its URL's path is all there is (not yet known while it is `""`).
  const url = agentBaseUrl(agent);
  if (url === undefined) return undefined;
  const u = new URL(url);
  return JSON.stringify([u.origin + u.pathname]);
}

function checkTranscript<M>(messages: unknown): M[] {
  if (!Array.isArray(messages)) throw new Error("the transcript is not a list of messages");
  return messages as M[];
}

/** Whether `e` or an error it was caused by has a message that quotes credentials. */
function quotesCredentials(e: unknown): boolean {
  for (let depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    const message = e instanceof Error ? e.message : String(e);
    if (redactUrl(message) !== message) return true;
    e = e instanceof Error ? e.cause : undefined;
  }
  return false;
}

/**
 * `what` failed because of `e`, with URL credentials redacted: `fetch`, `new URL` and an app's
 * `getInitialMessages` may quote the agent's URL, with its user info and `?token=`. The original error is
 * kept as the cause only when nothing in it quotes credentials, since loggers print causes too.
 */
function transcriptError(what: string, e: unknown): Error {
  const reason = redactUrl(e instanceof Error ? e.message : String(e));
  return new Error(`${what} failed: ${reason}`, quotesCredentials(e) ? undefined : { cause: e });
}

/** Why loading failed, without the credentials its URL may carry. */
function loadError(e: unknown): Error {
  return transcriptError("Loading the transcript", e);
}

/** Loads, applies and re-reads the transcript of one chat store. */
export class TranscriptSync<M extends UIMessage = UIMessage> {
  /** A server transcript (a snapshot frame) arrived: a late initial load must not be merged over it. */
  private snapshotSeen = false;
  /** `attach()` skipped the load because the address was not known yet (pending, or a URL still `""`). */
  private loadWaitsForAddress = false;
  /** The transcript loaded before `attach()` (the hook's Suspense path). */
  private seeded: TranscriptResult<M> | undefined;
  private resyncing = false;
  private resyncAgain = false;

  constructor(private readonly c: ChatCore<M>) {}

  /** See `ChatSession.seedTranscript`. */
  seed(result: TranscriptResult<M>): void {
    const { c } = this;
    if (this.seeded || c.attached) return;
    this.seeded = result;
    if (result.messages) {
      c.list.replaceAll(result.messages);
      c.store.setState(c.compute(), true);
    }
  }

  /** Whether `attach()` would load a transcript now: not attached or seeded yet, not opted out, address known. */
  get wantsInitial(): boolean {
    const { getInitialMessages, agent } = this.c.options;
    if (this.c.attached || this.seeded || getInitialMessages === null || isAddressPending(agent))
      return false;
    return getInitialMessages !== undefined || agentBaseUrl(agent) !== undefined;
  }

  /** Loads the transcript the way `attach()` would, without applying it (the hook caches it for Suspense). */
  loadInitial(): Promise<TranscriptResult<M>> {
    return this.load().then(
      (messages) => (messages ? { messages } : {}),
      (e: unknown) => ({ error: loadError(e) }),
    );
  }

  /** The first transcript on `attach()`: the seeded one, or a load now (or once the address is known). */
  loadOnAttach(): Promise<void> {
    const seeded = this.seeded;
    return seeded ? Promise.resolve(this.reportLoad(seeded)) : this.hydrate();
  }

  private reportLoad(result: TranscriptResult<M>) {
    if (result.error) this.c.fail(result.error);
  }

  private async hydrate() {
    const { c } = this;
    if (this.addressPending()) {
      // Nothing is fetched without the address's token, nor from a URL the socket does not have yet (the
      // official object answers `""` until then); `loadWhenAddressReady` runs it once it is known.
      this.loadWaitsForAddress = true;
      return;
    }
    const result = await this.loadInitial();
    if (c.disposed) return;
    this.reportLoad(result);
    if (!result.messages) return;
    if (c.list.length === 0 && c.streamMessage.size === 0) c.list.replaceAll(result.messages);
    else if (!this.snapshotSeen) {
      // Sent (or streamed) before the transcript came: keep that, with the older messages in front of it.
      const here = new Set(c.list.messages.map((m) => m.id));
      const missing = result.messages.filter((m) => !here.has(m.id));
      if (missing.length > 0) c.list.replaceAll([...missing, ...(c.list.messages as M[])]);
    }
    c.changed();
  }

  /** See `ChatSession.loadWhenAddressReady`. */
  loadWhenAddressReady(): void {
    if (!this.loadWaitsForAddress || this.c.disposed || this.addressPending()) return;
    this.loadWaitsForAddress = false;
    void this.hydrate().then(() => this.c.sides.tools.runClientTools());
  }

  /**
   * The load must wait: the address is pending, or the default load has no URL yet (`getHttpUrl()` is `""`).
   * An app's `getInitialMessages` is called without a `url` then, as the official hook calls it.
   */
  private addressPending(): boolean {
    const { agent, getInitialMessages } = this.c.options;
    if (getInitialMessages === null) return false;
    if (isAddressPending(agent)) return true;
    return getInitialMessages === undefined && agent.getHttpUrl !== undefined && !agentBaseUrl(agent);
  }

  /** The server's transcript: the app's `getInitialMessages`, else `GET …/get-messages`; none when opted out. */
  private async load(): Promise<M[] | undefined> {
    const { getInitialMessages, agent, credentials, headers } = this.c.options;
    if (getInitialMessages === null || isAddressPending(agent)) return undefined;
    const url = agentBaseUrl(agent);
    if (getInitialMessages) {
      const messages = await getInitialMessages({
        // Strings always, as the official hook passes them (a connection object naming neither gives "").
        agent: agent.agent ?? "",
        name: agent.name ?? "",
        ...(url === undefined ? {} : { url }),
      });
      return checkTranscript(messages);
    }
    if (!url) return undefined;
    const target = new URL(url);
    target.pathname += "/get-messages";
    // The official hook's exact call, a string and both keys even when undefined: an app that wraps or spies
    // on `fetch` sees the same arguments.
    const res = await fetch(target.toString(), { credentials, headers });
    if (!res.ok) throw new Error(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`);
    const text = await res.text();
    return text.trim() ? checkTranscript(JSON.parse(text)) : [];
  }

  /**
   * Reads the transcript again once nothing is live here, when this tab may have missed part of it: after a
   * reconnect (AIChatAgent pushes no transcript on connect), or when an authoritative idle ended streams or a
   * continuation this tab was still waiting for. Their last chunks went to a socket that is gone, so the
   * messages they wrote were cut short here, or never arrived (found by the fault suites: a drop near the end
   * of a turn or of a tool continuation left the answer half written). The server persisted them whole.
   */
  maybeResync(): void {
    const { c } = this;
    if (!c.resyncDue || c.disposed) return;
    if (c.rm.probeId !== undefined || c.rm.activeStreams.size > 0 || c.rm.isToolContinuation) return;
    c.resyncDue = false;
    void this.resync();
  }

  /**
   * Applies the server's transcript as a snapshot. A transcript that changes meanwhile (a new turn) makes the
   * answer stale, so it is asked again, a few times at most. Client tools of a message that only arrived
   * this way run as after a stream's end.
   */
  private async resync() {
    if (this.resyncing) {
      this.resyncAgain = true;
      return;
    }
    this.resyncing = true;
    try {
      do {
        this.resyncAgain = false;
        await this.resyncOnce();
      } while (this.resyncAgain && !this.c.disposed);
    } catch (e) {
      this.c.fail(transcriptError("Reloading the transcript", e));
    } finally {
      this.resyncing = false;
    }
  }

  private async resyncOnce() {
    const { c } = this;
    for (let attempt = 0; attempt < 3 && !c.disposed; attempt++) {
      const before = c.list.messages;
      const messages = await this.load();
      if (!messages || c.disposed) return;
      if (c.list.messages !== before) continue;
      this.snapshot(messages);
      this.resendLost(messages);
      c.changed();
      await c.sides.tools.runClientTools();
      return;
    }
  }

  /**
   * Sends again the answers a dropped socket lost, which the transcript just read shows still awaited. No
   * continuation is awaited for them: another tab's decision may reach the server first, which then ignores
   * this one, and a continuation waited for would never come. One that does come shows as a server stream.
   */
  private resendLost(messages: readonly M[]) {
    for (const [toolCallId, answer] of this.c.inFlight.lost(messages)) {
      this.c.sides.tools.patchToolPart(toolCallId, answer.patch);
      this.c.send(answer.frame);
    }
  }

  /**
   * A full transcript from the server replaces ours, except that a message still streaming here is kept when
   * the snapshot lacks it or holds an older copy, unless a later assistant message follows it there: then the
   * server has already split the turn (Think persists continuations separately) and its version is right.
   */
  snapshot(messages: M[]): void {
    const { c } = this;
    this.snapshotSeen = true;
    const next = messages.slice();
    const local = c.list.messages;
    for (const [streamId, id] of c.streamMessage) {
      const mineAt = local.findIndex((m) => m.id === id);
      const mine = local[mineAt];
      if (!mine) continue;
      const at = next.findIndex((m) => m.id === id);
      if (at < 0) {
        const renamed = this.serverCopyOf(mineAt, next);
        if (renamed) {
          // The server stored this reply under its own id (a reply without a `start` id, or renamed): one
          // message, the server's, which the rest of the stream now writes to.
          c.list.rebindStream(streamId, renamed.id);
          c.streamMessage.set(streamId, renamed.id);
        } else next.push(mine as M);
      } else {
        const laterAssistant = next.slice(at + 1).some((m) => m.role === "assistant");
        if (!laterAssistant && olderCopy(next[at] as M, mine)) next[at] = mine as M;
      }
    }
    c.list.replaceAll(next);
  }

  /**
   * The server's copy of the local assistant message at `mineAt`, when a snapshot holds it under another id:
   * an assistant message this tab does not know, that holds one of its tool calls, or that stands where it
   * stands: after the message before it here, or, when it is the first here (an agent that opens the
   * conversation, a trimmed transcript), first there with text that one of the two begins with (a snapshot
   * holding older history this tab dropped does not start with this reply).
   */
  private serverCopyOf(mineAt: number, next: readonly M[]): M | undefined {
    const local = this.c.list.messages;
    const mine = local[mineAt];
    if (mine?.role !== "assistant") return undefined;
    const unknown = (m: M | undefined): m is M =>
      m?.role === "assistant" && !local.some((l) => l.id === m.id);
    // Tool call ids name one call: a message of the snapshot holding one of ours is its copy, wherever it is.
    const calls = new Set<string>();
    for (const p of mine.parts as Array<{ toolCallId?: unknown }>)
      if (typeof p.toolCallId === "string") calls.add(p.toolCallId);
    if (calls.size > 0) {
      const copy = next.find(
        (m) =>
          unknown(m) &&
          (m.parts as Array<{ toolCallId?: unknown }>).some((p) => calls.has(p.toolCallId as string)),
      );
      if (copy) return copy;
    }
    const anchor = local[mineAt - 1];
    if (!anchor) return unknown(next[0]) && sameStart(mine, next[0]) ? next[0] : undefined;
    const a = next.findIndex((m) => m.id === anchor.id);
    const candidate = a < 0 ? undefined : next[a + 1];
    return unknown(candidate) ? candidate : undefined;
  }
}

/** The text of a message's text parts, joined. */
function textOf(m: UIMessage): string {
  let s = "";
  for (const p of m.parts) if (p.type === "text") s += p.text;
  return s;
}

/**
 * The snapshot's copy of a message streaming here is behind ours: fewer parts, or the same parts with ours
 * further along in one being written (a longer text, or a tool call's input that ours holds in part while the
 * copy, stored before its first delta, holds none).
 */
function olderCopy(server: UIMessage, mine: UIMessage): boolean {
  if (server.parts.length !== mine.parts.length) return server.parts.length < mine.parts.length;
  let behind = false;
  for (let i = 0; i < mine.parts.length; i++) {
    const a = server.parts[i] as Record<string, unknown>;
    const b = mine.parts[i] as Record<string, unknown>;
    if (a.type !== b.type) return false;
    if (a.state === "input-streaming" && b.state === "input-streaming" && a.toolCallId === b.toolCallId) {
      if (!("input" in a) && "input" in b) behind = true;
    } else if ((a.type === "text" || a.type === "reasoning") && a.text !== b.text) {
      if (typeof a.text !== "string" || typeof b.text !== "string" || !b.text.startsWith(a.text))
        return false;
      behind = true;
    } else if (JSON.stringify(a) !== JSON.stringify(b)) return false;
  }
  return behind;
}

/** One message's text begins with the other's: the same reply, one copy further along than the other. */
function sameStart(a: UIMessage, b: UIMessage): boolean {
  const x = textOf(a);
  const y = textOf(b);
  return x.startsWith(y) || y.startsWith(x);
}
