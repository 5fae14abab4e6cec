/**
 * A clock for elapsed times, countdowns and stall checks. All parts share one interval per period, so a tray
 * of fifty runs ticks once, not fifty times; parts that show no running time pass `active: false`. The
 * interval starts when the first part subscribes (after mount) and stops with the last one, so a server
 * render or a render React throws away starts nothing.
 */
import { useCallback, useSyncExternalStore } from "react";

interface Ticker {
  now: number;
  listeners: Set<() => void>;
  timer?: ReturnType<typeof setInterval>;
}
const tickers = new Map<number, Ticker>();

function ticker(periodMs: number): Ticker {
  let t = tickers.get(periodMs);
  if (!t) {
    t = { now: Date.now(), listeners: new Set() };
    tickers.set(periodMs, t);
  }
  return t;
}

const noSubscription = () => () => {};
// The server has no clock worth showing: what it renders must match what the browser hydrates.
const unknownOnServer = () => null;
const INACTIVE = 0;

/**
 * `Date.now()`, refreshed every `periodMs` while `active`; `null` while the time is unknown: on the server and
 * while hydrating (the page must match the server's HTML first; the real time follows right after).
 */
export function useNow(periodMs = 1000, active = true): number | null {
  const subscribe = useCallback(
    (fn: () => void) => {
      if (!active) return () => {};
      const t = ticker(periodMs);
      t.listeners.add(fn);
      if (!t.timer) {
        // A clock that stood still (no part was showing time) is behind: catch up before ticking.
        t.now = Date.now();
        t.timer = setInterval(() => {
          t.now = Date.now();
          for (const l of t.listeners) l();
        }, periodMs);
      }
      return () => {
        t.listeners.delete(fn);
        if (t.listeners.size === 0 && t.timer) {
          clearInterval(t.timer);
          t.timer = undefined;
        }
      };
    },
    [periodMs, active],
  );
  const get = useCallback(() => {
    if (!active) return INACTIVE;
    const t = ticker(periodMs);
    // While no interval runs the shared value goes stale; refresh it at most once a period, so two reads in
    // one render agree (React checks that) and a part mounted long after the last tick starts on time.
    if (!t.timer && Date.now() - t.now >= periodMs) t.now = Date.now();
    return t.now;
  }, [periodMs, active]);
  const now = useSyncExternalStore(active ? subscribe : noSubscription, get, unknownOnServer);
  if (now === null) return null;
  return active ? now : Date.now();
}

/** `1:05`, `12:00`, `1:02:03`: compact elapsed time for headers and trays. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
