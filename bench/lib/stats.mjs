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
 * frames; `times` every measured wall time, by contender. A contender that has set-up of its own (mounting a
 * component, sending a request) may time just the part being compared with `window()` and return that.
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
      let r = contenders[name]();
      if (r && typeof r.then === "function") r = await r;
      const dt = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (round >= 0) {
        const own = r && typeof r.wall === "number";
        times[name].push(own ? r.wall : dt);
        cpus[name].push(own ? r.cpu : (c.user + c.system) / 1000);
      }
    }
  }
  const medians = (by) => Object.fromEntries(names.map((k) => [k, median(by[k])]));
  return { medians: medians(times), cpu: medians(cpus), times };
}

/** Times `fn` (may be async): `{ wall, cpu }` in ms, for a contender to return to `measure`. */
export async function window(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

/** `x` with two decimals. */
export const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : String(x));

/** A ratio as "0.42×". */
export const times = (x) => `${f2(x)}×`;

/** Resolves after `ms` (0: the next macrotask). */
export const sleep = (ms = 0) => new Promise((r) => setTimeout(r, ms));
