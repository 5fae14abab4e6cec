/** Expiries of approval requests, as tool inputs, descriptors, metadata and workflow items carry them. */

/** Field names an expiry travels under, in tool inputs, descriptors, metadata and workflow items. */
export const EXPIRY_KEYS = [
  "expiresAt",
  "expires_at",
  "expiry",
  "expires",
  "deadline",
  "validUntil",
  "valid_until",
] as const;

// Below this a number is seconds since the epoch (1e11 s is the year 5138; 1e11 ms is 1973).
const SECONDS_LIMIT = 1e11;
/** The largest time a `Date` can hold, in epoch ms. */
const MAX_DATE_MS = 8.64e15;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** An expiry as epoch ms: epoch ms, epoch seconds, a numeric string, an ISO date string or a Date. */
export function parseExpiry(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    const ms = value < SECONDS_LIMIT ? value * 1000 : value;
    // Beyond what a Date holds, `toISOString()` throws while the card renders (found by the playground fuzz).
    return ms <= MAX_DATE_MS ? ms : undefined;
  }
  if (typeof value === "string" && value.trim() !== "") {
    if (/^\d+(\.\d+)?$/.test(value.trim())) return parseExpiry(Number(value));
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** The first parseable expiry among the sources' expiry fields (a source that is not an object is skipped). */
export function findExpiry(...sources: unknown[]): number | undefined {
  for (const source of sources) {
    if (!isObj(source)) continue;
    for (const key of EXPIRY_KEYS) {
      const t = parseExpiry(source[key]);
      if (t !== undefined) return t;
    }
  }
  return undefined;
}
