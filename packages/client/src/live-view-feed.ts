/**
 * `LiveViewFeed`: keeps a Live View session fresh, without any framework. It adopts the session it is given,
 * fetches a new one through `refresh` a margin before the URLs expire, at once when the mode changes (or when
 * it has none yet), and again after failures with growing waits (1 s, 2 s, 4 s … 30 s). A result that arrives
 * after the mode changed again, or after `dispose()`, is dropped. An answer of `null` / `undefined` means the
 * agent closed the session: the feed ends (`ended`) and stops fetching until `refresh()` or a new session.
 * `refresh()` fetches at once (new tabs the agent opened show without waiting for the expiry refresh), and
 * `refreshIntervalMs` does that on a clock. Views subscribe to its snapshot.
 */
import type { LiveViewHandOff, LiveViewMode, LiveViewSession } from "@runboard/protocol";
import {
  MIN_REFRESH_DELAY_MS,
  parseLiveViewSession,
  refreshDelay,
  retryDelay,
} from "@runboard/protocol/view";

/**
 * Fetches a fresh session for a mode, e.g. `({ mode }) => agent.call<LiveViewSession>("liveView", [{ mode }])`.
 * It may answer any `LiveViewHandOff` (a session, a single-URL hand-off, a bare URL, `{ needsHumanLogin }`), or
 * `null` / `undefined` when the agent has no session any more.
 */
export type LiveViewRefresh = (opts: { mode: LiveViewMode }) => Promise<LiveViewHandOff | null | undefined>;

/** What a `LiveViewFeed` works from; `setOptions` takes the same, as often as the view renders. */
export interface LiveViewFeedOptions {
  /**
   * The session to show, e.g. the `openBrowser` tool's output, or any hand-off `parseLiveViewSession` reads
   * (`{ url, targetId?, expiresInMs? }`, a bare URL, `{ needsHumanLogin: url }`). A session with new content
   * replaces whatever was fetched; the same content again (a rebuilt object) changes nothing.
   */
  session?: LiveViewHandOff | null | undefined;
  /** Fetches fresh sessions. Without it the feed shows its session until the URLs expire, then it is closed. */
  refresh?: LiveViewRefresh | undefined;
  /** The mode sessions are fetched for. Default `"tab"`; the `session` option is taken to be in this mode. */
  mode?: LiveViewMode | undefined;
  /** How long before expiry to fetch fresh URLs. Default 20% of `expiresInMs`, at most 30 s. */
  refreshMarginMs?: number | undefined;
  /**
   * Also fetch this often (at least every 1 s), so tabs the agent opens show before the next expiry refresh.
   * Default: only before expiry.
   */
  refreshIntervalMs?: number | undefined;
}

/** A session as received: for which mode, and when (the URLs expire `expiresInMs` after it). */
export interface ReceivedLiveViewSession {
  session: LiveViewSession;
  mode: LiveViewMode;
  receivedAt: number;
}

/** The last fetch's failure: what it threw, how many in a row, for which mode, and when the next try is due. */
export interface LiveViewRefreshFailure {
  error: unknown;
  attempts: number;
  mode: LiveViewMode;
  retryAt: number;
}

/** What a `LiveViewFeed` holds; a new object whenever something in it changes. */
export interface LiveViewFeedSnapshot {
  /** The mode the feed fetches for. */
  mode: LiveViewMode;
  /** The latest session, adopted or fetched. */
  received: ReceivedLiveViewSession | undefined;
  /** The mode a fetch is under way (or due at once) for, if any. */
  fetching: LiveViewMode | undefined;
  failure: LiveViewRefreshFailure | undefined;
  /** The latest session's URLs have run out and no fresh session has come. */
  expired: boolean;
  /** The agent closed the session (`refresh` answered `null` / `undefined`); nothing is fetched by itself. */
  ended: boolean;
  /** Nothing more will come by itself: the feed was disposed or ended, or its URLs expired and it has no `refresh`. */
  closed: boolean;
}

/** What `refresh` resolved to is not a Live View session; reported as the failure's `error`. */
class InvalidSessionError extends Error {
  constructor() {
    super(
      "refresh() resolved to something that is not a Live View session or hand-off ({ targets } or { url }).",
    );
    this.name = "InvalidSessionError";
  }
}

/**
 * What identifies a session's content. Apps often rebuild the session object on every render; adopting it
 * again each time would keep pushing the refresh back, so only new content counts as a new session.
 */
function contentKey(s: LiveViewSession | undefined): string | undefined {
  if (!s) return undefined;
  return JSON.stringify([s.sessionId, s.expiresInMs, s.targets.map((t) => [t.targetId, t.url])]);
}

type Timer = ReturnType<typeof setTimeout>;

/**
 * A Live View session kept fresh: `subscribe` / `getSnapshot` for views, `setOptions` when the inputs change,
 * `start()` to begin fetching (making one does no IO, so a server render can make one), `dispose()` to stop.
 *
 * @example
 * const feed = new LiveViewFeed({ session, refresh: ({ mode }) => agent.call<LiveViewSession>("liveView", [{ mode }]) });
 * feed.subscribe(() => render(feed.getSnapshot()));
 * feed.start();
 */
export class LiveViewFeed {
  private mode: LiveViewMode;
  private fetcher: LiveViewRefresh | undefined;
  private marginMs: number | undefined;
  private intervalMs: number | undefined;
  private ended = false;
  private adoptedKey: string | undefined;
  private received: ReceivedLiveViewSession | undefined;
  private inFlight: LiveViewMode | undefined;
  private failure: LiveViewRefreshFailure | undefined;
  private started = false;
  private disposed = false;
  // Each fetch gets a number; only the newest may land, so a slow answer for the old mode never overwrites.
  private generation = 0;
  private fetchTimer: Timer | undefined;
  private expiryTimer: Timer | undefined;
  private readonly listeners = new Set<() => void>();
  private snapshot: LiveViewFeedSnapshot;

  constructor(options: LiveViewFeedOptions = {}) {
    this.mode = options.mode ?? "tab";
    this.fetcher = options.refresh;
    this.marginMs = options.refreshMarginMs;
    this.intervalMs = options.refreshIntervalMs;
    // Typed, but often a tool output passed straight through: read it defensively.
    const session = parseLiveViewSession(options.session);
    this.adoptedKey = contentKey(session);
    this.received = session ? { session, mode: this.mode, receivedAt: Date.now() } : undefined;
    this.snapshot = this.compute();
  }

  /** The current snapshot (the same object until something changes). */
  getSnapshot = (): LiveViewFeedSnapshot => this.snapshot;

  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Starts fetching and the expiry clock. Calling it again is harmless. */
  start(): void {
    if (this.disposed) return;
    this.started = true;
    this.schedule();
  }

  /** Takes new inputs; cheap when nothing changed, so a view may call it on every render. */
  setOptions(options: LiveViewFeedOptions): void {
    if (this.disposed) return;
    const mode = options.mode ?? "tab";
    const margin = options.refreshMarginMs;
    const interval = options.refreshIntervalMs;
    const inputsChanged =
      mode !== this.mode ||
      margin !== this.marginMs ||
      interval !== this.intervalMs ||
      (options.refresh === undefined) !== (this.fetcher === undefined);
    this.mode = mode;
    this.marginMs = margin;
    this.intervalMs = interval;
    this.fetcher = options.refresh;
    let adopted = false;
    const session = parseLiveViewSession(options.session);
    const key = contentKey(session);
    if (key !== this.adoptedKey) {
      this.adoptedKey = key;
      // A new session (a new tool output) replaces whatever was fetched; its removal keeps what is shown.
      if (session) {
        this.received = { session, mode, receivedAt: Date.now() };
        this.ended = false;
        adopted = true;
      }
    }
    if (inputsChanged || adopted) this.commit();
  }

  /**
   * Fetches a fresh session now, superseding one under way; after the session ended it asks again. Does nothing
   * before `start()`, after `dispose()`, or without a `refresh` option.
   */
  refresh(): void {
    if (!this.started || this.disposed || !this.fetcher) return;
    this.ended = false;
    this.fetch(this.mode);
  }

  /** Stops for good: no more fetches or timers, and a fetch under way is ignored when it settles. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.started = false;
    this.generation += 1;
    this.inFlight = undefined;
    this.clearTimers();
    this.commit();
    this.listeners.clear();
  }

  private fetch(forMode: LiveViewMode): void {
    const fn = this.fetcher;
    if (!fn || this.disposed) return;
    const id = ++this.generation;
    this.inFlight = forMode;
    this.commit();
    let pending: Promise<LiveViewHandOff | null | undefined>;
    try {
      pending = Promise.resolve(fn({ mode: forMode }));
    } catch (e) {
      pending = Promise.reject(e);
    }
    pending
      .then((value) => {
        if (value === null || value === undefined) {
          if (id !== this.generation) return;
          // The agent closed the browser: its URLs are dead, and asking again would get the same answer.
          this.inFlight = undefined;
          this.received = undefined;
          this.failure = undefined;
          this.ended = true;
          this.commit();
          return;
        }
        const next = parseLiveViewSession(value);
        if (!next) throw new InvalidSessionError();
        if (id !== this.generation) return;
        this.inFlight = undefined;
        // The mode changed back before it came: the session already held is for the right mode.
        if (this.mode === forMode) {
          this.received = { session: next, mode: forMode, receivedAt: Date.now() };
          this.failure = undefined;
        }
        this.commit();
      })
      .catch((error: unknown) => {
        if (id !== this.generation) return;
        const prev = this.failure;
        const attempts = prev && prev.mode === forMode ? prev.attempts + 1 : 1;
        this.failure = { error, attempts, mode: forMode, retryAt: Date.now() + retryDelay(attempts) };
        this.inFlight = undefined;
        this.commit();
      });
  }

  /** Whether a fetch for the current mode is due at once: none held for it, and no failure waiting to retry. */
  private dueNow(): boolean {
    return (
      !this.disposed &&
      !this.ended &&
      this.fetcher !== undefined &&
      this.inFlight === undefined &&
      this.failure?.mode !== this.mode &&
      this.received?.mode !== this.mode
    );
  }

  private compute(): LiveViewFeedSnapshot {
    const r = this.received;
    const expired = r !== undefined && Date.now() >= r.receivedAt + r.session.expiresInMs;
    return {
      mode: this.mode,
      received: r,
      // Until the timer fires, a fetch that is due at once already counts as under way.
      fetching: this.inFlight ?? (this.dueNow() ? this.mode : undefined),
      failure: this.failure,
      expired,
      ended: this.ended,
      closed: this.disposed || this.ended || (expired && this.fetcher === undefined),
    };
  }

  /** Publishes the new snapshot when anything in it changed, and sets the timers for the new state. */
  private commit(): void {
    const next = this.compute();
    const prev = this.snapshot;
    const changed = (Object.keys(next) as (keyof LiveViewFeedSnapshot)[]).some((k) => next[k] !== prev[k]);
    if (changed) this.snapshot = next;
    this.schedule();
    if (changed) for (const listener of [...this.listeners]) listener();
  }

  private schedule(): void {
    this.clearTimers();
    if (!this.started || this.disposed || this.ended) return;
    const now = Date.now();
    const r = this.received;
    if (r && !this.snapshot.expired) {
      const expiresAt = r.receivedAt + r.session.expiresInMs;
      this.expiryTimer = setTimeout(() => this.commit(), Math.max(0, expiresAt - now));
    }
    if (!this.fetcher || this.inFlight === this.mode) return;
    let due: number;
    const { failure, mode } = this;
    if (failure && failure.mode === mode) due = failure.retryAt;
    else if (r && r.mode === mode && !failure) {
      const beforeExpiry = refreshDelay(r.session.expiresInMs, this.marginMs);
      const every = this.intervalMs;
      due =
        r.receivedAt +
        (every === undefined ? beforeExpiry : Math.min(beforeExpiry, Math.max(MIN_REFRESH_DELAY_MS, every)));
    }
    // No session yet, one for the other mode, or a failure for the other mode: fetch for this mode now.
    else due = now;
    this.fetchTimer = setTimeout(() => this.fetch(this.mode), Math.max(0, due - now));
  }

  private clearTimers(): void {
    if (this.fetchTimer !== undefined) clearTimeout(this.fetchTimer);
    if (this.expiryTimer !== undefined) clearTimeout(this.expiryTimer);
    this.fetchTimer = undefined;
    this.expiryTimer = undefined;
  }
}
