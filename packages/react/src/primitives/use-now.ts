/**
 * A clock for elapsed times and stall checks. All parts share one interval per period, so a tray of
 * fifty runs ticks once, not fifty times; parts that show no running time pass `active: false`.
 */
import { useSyncExternalStore } from "react";

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

/** `Date.now()`, refreshed every `periodMs` while `active`. */
export function useNow(periodMs = 1000, active = true): number {
  const t = ticker(periodMs);
  const subscribe = (fn: () => void) => {
    if (!active) return () => {};
    t.listeners.add(fn);
    if (!t.timer)
      t.timer = setInterval(() => {
        t.now = Date.now();
        for (const l of t.listeners) l();
      }, periodMs);
    return () => {
      t.listeners.delete(fn);
      if (t.listeners.size === 0 && t.timer) {
        clearInterval(t.timer);
        t.timer = undefined;
      }
    };
  };
  const get = () => (active ? t.now : 0);
  const now = useSyncExternalStore(subscribe, get, get);
  return active ? Math.max(now, t.now) : Date.now();
}

/** `1:05`, `12:00`, `1:02:03`: compact elapsed time for headers and trays. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
