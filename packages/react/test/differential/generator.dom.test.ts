/**
 * The differential generator (issue 30 §3): seeded runs of random but valid server frames and app actions,
 * played against the official `useAgentChat` and ours; after every step what an app sees must be the same,
 * or the difference must be a named entry of generator/deliberate.ts. `RUNBOARD_DIFF_RUNS=<n>` runs n seeds
 * (default below), `RUNBOARD_DIFF_SEED=<n>` replays one, `RUNBOARD_DIFF_STEPS='<json>'` plays the given
 * steps with that seed's configuration (what a failure report prints after shrinking).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_DIFFERENCES, DIFFERENCES } from "./generator/deliberate.ts";
import { report, runSeed, shrink } from "./generator/run.ts";
import type { Step } from "./generator/steps.ts";

const FILE = "packages/react/test/differential/generator.dom.test.ts";
/** Seeds `npm test` runs: about a minute on a 2-core machine. */
const DEFAULT_RUNS = 20;

function seeds(): number[] {
  const only = process.env.RUNBOARD_DIFF_SEED;
  if (only !== undefined && only !== "") return [Number(only)];
  const n = Number(process.env.RUNBOARD_DIFF_RUNS ?? DEFAULT_RUNS);
  return Array.from({ length: n }, (_, i) => i + 1);
}

describe("the differential generator", () => {
  it("every deliberate entry stands for a bullet of the README's list", () => {
    const readme = readFileSync(join(process.cwd(), "packages/react/README.md"), "utf8");
    const section =
      readme.split("## Where the kit deliberately differs from the official client")[1]?.split("\n## ")[0] ??
      "";
    for (const e of [...DIFFERENCES, ...AGENT_DIFFERENCES].filter((x) => x.group === "deliberate"))
      expect(section, e.name).toContain(`**${e.readme}`);
    const names = [...DIFFERENCES, ...AGENT_DIFFERENCES].map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("seeded runs: the official hook and ours show the same, or a named difference", {
    timeout: 3_600_000,
  }, async () => {
    const given = process.env.RUNBOARD_DIFF_STEPS
      ? (JSON.parse(process.env.RUNBOARD_DIFF_STEPS) as Step[])
      : undefined;
    const totals = new Map<string, number>();
    const failures: string[] = [];
    const started = performance.now();
    const list = seeds();
    for (const seed of list) {
      const t0 = performance.now();
      const r = await runSeed(seed, given);
      for (const [k, v] of r.verdict.matched) totals.set(k, (totals.get(k) ?? 0) + v);
      const ms = Math.round(performance.now() - t0);
      const how = r.verdict.failure
        ? "FAILED"
        : r.verdict.divergedBy
          ? `diverged at step ${r.verdict.divergedBy.step} (${r.verdict.divergedBy.name})`
          : "same";
      const f = r.verdict.failure;
      console.info(
        `[diff] seed ${seed}: ${r.verdict.steps} steps, ${ms} ms, ${how}${
          f ? ` at step ${f.step} "${f.label}" (${f.diffs.map((x) => x.field).join(", ")})` : ""
        }`,
      );
      if (!r.verdict.failure) continue;
      let shown = r;
      let steps = r.steps;
      if (!given && process.env.RUNBOARD_DIFF_SHRINK !== "0") {
        const s = await shrink(seed, r.steps, r.verdict);
        steps = s.steps;
        shown = await runSeed(seed, steps);
        if (!shown.verdict.failure) shown = r;
        console.info(`[diff] seed ${seed}: shrunk to ${steps.length} steps in ${s.runs} replays`);
      }
      failures.push(
        report(seed, shown.cfg, steps, shown.verdict, shown.official.driver, shown.ours.driver, FILE),
      );
      if (failures.length >= Number(process.env.RUNBOARD_DIFF_MAX_FAILURES ?? 2)) break;
    }
    const ms = Math.round(performance.now() - started);
    console.info(
      `[diff] ${list.length} seed(s) in ${ms} ms; named differences met: ${
        [...totals].map(([k, v]) => `${k} ×${v}`).join(", ") || "none"
      }; never met: ${
        DIFFERENCES.filter((e) => !totals.has(e.name))
          .map((e) => e.name)
          .join(", ") || "none"
      }`,
    );
    if (failures.length > 0)
      throw new Error(`${failures.length} failing seed(s)\n\n${failures.join("\n\n")}`);
  });
});
