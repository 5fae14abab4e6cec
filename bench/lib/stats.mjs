// Timing helpers shared by the benchmarks: interleaved medians, ratios, number formatting.
import { performance } from "node:perf_hooks";

/** The median of `xs` (upper middle for even lengths); NaN for an empty list. */
export function median(xs) {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Median wall time (ms) of each contender over `runs` rounds after `warmups` rounds. Every round runs every
 * contender once, alternating the order each round, so a slow patch on the shared machine hits all of them.
 * A contender may be async. Returns `{ medians, cpu, times }`: `cpu` the median CPU time of the process
 * (user + system, ms) over the same runs, which leaves out time spent waiting for timers and animation
 * frames; `times` every measured wall time, by contender.
 */
export async function measure(contenders, { runs = 5, warmups = 1 } = {}) {
  const names = Object.keys(contenders);
  const times = Object.fromEntries(names.map((k) => [k, []]));
  const cpus = Object.fromEntries(names.map((k) => [k, []]));
  for (let round = -warmups; round < runs; round++) {
    const order = round % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = contenders[name]();
      if (r && typeof r.then === "function") await r;
      const dt = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (round >= 0) {
        times[name].push(dt);
        cpus[name].push((c.user + c.system) / 1000);
      }
    }
  }
  const medians = (by) => Object.fromEntries(names.map((k) => [k, median(by[k])]));
  return { medians: medians(times), cpu: medians(cpus), times };
}

/** `x` with two decimals. */
export const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : String(x));

/** A ratio as "0.42×". */
export const times = (x) => `${f2(x)}×`;

/** Resolves after `ms` (0: the next macrotask). */
export const sleep = (ms = 0) => new Promise((r) => setTimeout(r, ms));
