/**
 * The `useAgent` generator (issue 30 §3): seeded steps (calls answered, failing and left waiting, setState,
 * server state, closes with codes, option changes mid-call, remounts, StrictMode) against the official
 * `agents/react` hook and ours over one fake WebSocket; after every step the object's fields, the callbacks,
 * the call results, the frames sent and the sockets opened must match, or be a named entry of
 * `AGENT_DIFFERENCES` (generator/deliberate.ts). Same knobs as the chat generator: `RUNBOARD_DIFF_RUNS`,
 * `RUNBOARD_DIFF_SEED`.
 */
import { describe, expect, it } from "vitest";
import { type AgentObservation, agentConfig, agentSteps, playAgent } from "./generator/agent.ts";
import { AGENT_DIFFERENCES } from "./generator/deliberate.ts";

const FILE = "packages/react/test/differential/use-agent-generator.dom.test.ts";
const DEFAULT_RUNS = 12;

function seeds(): number[] {
  const only = process.env.RUNBOARD_DIFF_SEED;
  if (only !== undefined && only !== "") return [Number(only)];
  const n = Number(process.env.RUNBOARD_DIFF_RUNS ?? DEFAULT_RUNS);
  return Array.from({ length: n }, (_, i) => i + 1);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The first unexplained difference of a run, or what explained the run's divergence. */
function judge(a: AgentObservation[], b: AgentObservation[], matched: Map<string, number>) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    let pair = { official: a[i] as AgentObservation, ours: b[i] as AgentObservation };
    if (!pair.official || !pair.ours) return { step: i, diffs: ["one side has fewer steps"] };
    const ctx = { step: i, label: pair.official.label, labels: a.slice(0, i + 1).map((o) => o.label) };
    for (const e of AGENT_DIFFERENCES) {
      const next = e.normalise?.(pair, ctx);
      if (next && !same(next, pair)) {
        matched.set(e.name, (matched.get(e.name) ?? 0) + 1);
        pair = next;
      }
    }
    const diffs: string[] = [];
    for (const k of new Set([...Object.keys(pair.official.fields), ...Object.keys(pair.ours.fields)]))
      if (!same(pair.official.fields[k], pair.ours.fields[k]))
        diffs.push(
          `${k}: official ${JSON.stringify(pair.official.fields[k])} / ours ${JSON.stringify(pair.ours.fields[k])}`,
        );
    if (!same(pair.official.calls, pair.ours.calls))
      diffs.push(
        `calls:\n    official ${JSON.stringify(pair.official.calls)}\n    ours     ${JSON.stringify(pair.ours.calls)}`,
      );
    if (!same(pair.official.wire, pair.ours.wire))
      diffs.push(
        `wire:\n    official ${JSON.stringify(pair.official.wire)}\n    ours     ${JSON.stringify(pair.ours.wire)}`,
      );
    if (diffs.length === 0) continue;
    const by = AGENT_DIFFERENCES.find((e) => e.diverges?.(pair, ctx));
    if (by) {
      matched.set(by.name, (matched.get(by.name) ?? 0) + 1);
      return { diverged: by.name, step: i };
    }
    return { step: i, diffs };
  }
  return undefined;
}

describe("the useAgent generator", () => {
  it("seeded runs: the official useAgent and ours show the same, or a named difference", {
    timeout: 3_600_000,
  }, async () => {
    const failures: string[] = [];
    const matched = new Map<string, number>();
    const started = performance.now();
    for (const seed of seeds()) {
      const t0 = performance.now();
      const cfg = agentConfig(seed);
      const steps = agentSteps(seed);
      const official = await playAgent("official", cfg, steps);
      const ours = await playAgent("ours", cfg, steps);
      const v = judge(official, ours, matched);
      const ms = Math.round(performance.now() - t0);
      console.info(
        `[diff:useAgent] seed ${seed}: ${steps.length} steps, ${ms} ms, ${
          !v
            ? "same"
            : "diverged" in v
              ? `diverged at step ${v.step} (${v.diverged})`
              : `FAILED at step ${v.step}`
        }`,
      );
      if (v && !("diverged" in v))
        failures.push(
          [
            `seed ${seed}: an unlisted difference at step ${v.step} ${official[v.step]?.label}`,
            `  replay: RUNBOARD_DIFF_SEED=${seed} npx vitest run --project jsdom ${FILE}`,
            `  config ${JSON.stringify(cfg)}`,
            ...steps.slice(0, v.step).map((s, i) => `    ${i + 1}. ${JSON.stringify(s)}`),
            ...(v.diffs ?? []).map((d) => `  ${d}`),
          ].join("\n"),
        );
      if (failures.length >= Number(process.env.RUNBOARD_DIFF_MAX_FAILURES ?? 2)) break;
    }
    console.info(
      `[diff:useAgent] ${Math.round(performance.now() - started)} ms; named differences met: ${
        [...matched].map(([k, n]) => `${k} ×${n}`).join(", ") || "none"
      }`,
    );
    if (failures.length > 0)
      throw new Error(`${failures.length} failing seed(s)\n\n${failures.join("\n\n")}`);
    expect(failures).toEqual([]);
  });
});
