/**
 * A per-connection budget for log lines a client can cause (frames the hub ignores): a client sending garbage
 * in a loop would otherwise write a line per frame, flooding the terminal and the test output. The Node server
 * also keeps one for the requests it refuses (a page elsewhere can send those in a loop too).
 */

/** Default budget: lines per connection per window. */
export const DEFAULT_LOG_LINES = 10;
/** Default window length. */
export const DEFAULT_LOG_WINDOW_MS = 10_000;

interface Budget {
  windowStart: number;
  used: number;
  suppressed: number;
}

/** Lets `lines` lines per key through per `windowMs`, then counts the rest and reports them in one line. */
export class LogLimiter<K> {
  private readonly budgets = new Map<K, Budget>();

  constructor(
    private readonly log: (line: string) => void,
    private readonly lines = DEFAULT_LOG_LINES,
    private readonly windowMs = DEFAULT_LOG_WINDOW_MS,
    private readonly now: () => number = Date.now,
    /** What the lines are about, for the summary line. */
    private readonly what = "ignored-frame",
  ) {}

  /** Logs `line` for `key` if its budget allows; `label` names the key in the summary line. */
  write(key: K, label: string, line: string): void {
    const t = this.now();
    let b = this.budgets.get(key);
    if (!b || t - b.windowStart >= this.windowMs) {
      if (b) this.summarise(label, b);
      b = { windowStart: t, used: 0, suppressed: 0 };
      this.budgets.set(key, b);
    }
    if (b.used < this.lines) {
      b.used++;
      this.log(line);
    } else b.suppressed++;
  }

  /** Reports what `key` had suppressed, if anything, and forgets it (its connection closed). */
  forget(key: K, label: string): void {
    const b = this.budgets.get(key);
    if (b) this.summarise(label, b);
    this.budgets.delete(key);
  }

  private summarise(label: string, b: Budget) {
    if (b.suppressed > 0)
      this.log(
        `mock-server: ${label}: suppressed ${b.suppressed} more ${this.what} lines (over ${this.lines} per ${this.windowMs} ms)`,
      );
  }
}
