// bench/RESULTS.md and the run summary. Every benchmark owns one or more `## <key>…` sections and replaces
// only those; `npm run bench` (bench/all.mjs) owns the header and the `## Summary` section at the top.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";

const FILE = new URL("../RESULTS.md", import.meta.url);

/** "AMD EPYC, 2 cores, 24 GiB, Node v20.20.2". */
export function machine() {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/** "2026-11-22 21:03 UTC". */
export const stamp = () => `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * Replaces the section whose heading starts with `## ${key}` (up to the next `## ` heading) with `lines`
 * (the first line is the heading), or adds it: at the end, or after the header when `top`. NO_WRITE=1 skips.
 */
export function writeSection(key, lines, { top = false } = {}) {
  if (process.env.NO_WRITE) return;
  const text = existsSync(FILE) ? readFileSync(FILE, "utf8") : "# Benchmark results\n";
  const section = `\n${lines.join("\n").trim()}\n`;
  const at = text.startsWith(`## ${key}`) ? 0 : text.indexOf(`\n## ${key}`);
  let out;
  if (at >= 0) {
    const next = text.indexOf("\n## ", at + 1);
    out = `${text.slice(0, at).trimEnd()}\n${section}${next < 0 ? "" : text.slice(next)}`;
  } else if (top) {
    const first = text.indexOf("\n## ");
    out =
      first < 0
        ? `${text.trimEnd()}\n${section}`
        : `${text.slice(0, first).trimEnd()}\n${section}${text.slice(first)}`;
  } else out = `${text.trimEnd()}\n${section}`;
  writeFileSync(FILE, out);
}

/**
 * Replaces the `### ` subsection whose heading is `lines[0]` (up to the next `##`/`###` heading) inside the
 * `## ${key}` section, for a bench run that measured only that part. NO_WRITE=1 skips.
 */
export function writeSubsection(key, lines) {
  if (process.env.NO_WRITE) return;
  const text = readFileSync(FILE, "utf8");
  const section = text.indexOf(`\n## ${key}`);
  const at = section < 0 ? -1 : text.indexOf(`\n${lines[0]}`, section);
  if (at < 0) throw new Error(`bench: no subsection '${lines[0]}' under '## ${key}' in RESULTS.md`);
  const rest = text.slice(at + 1);
  const next = rest.search(/\n##+ /);
  const tail = next < 0 ? "" : rest.slice(next);
  writeFileSync(FILE, `${text.slice(0, at)}\n${lines.join("\n").trim()}\n${tail}`);
}

/** Replaces everything above the first `## ` heading. */
export function writeHeader(lines) {
  if (process.env.NO_WRITE) return;
  const text = existsSync(FILE) ? readFileSync(FILE, "utf8") : "";
  const first = text.indexOf("\n## ");
  writeFileSync(FILE, `${lines.join("\n").trim()}\n${first < 0 ? "" : text.slice(first)}`);
}

/**
 * Hands figures to the runner's summary (a JSON-lines file named by BENCH_SUMMARY; ignored when a bench runs
 * alone). A figure: `{ bench, name, value, unit?, max? }`; `max` is the target (met when value ≤ max).
 */
export function recordFigures(bench, figures) {
  const file = process.env.BENCH_SUMMARY;
  if (!file) return;
  appendFileSync(file, figures.map((f) => `${JSON.stringify({ bench, ...f })}\n`).join(""));
}

/** "met" / "NOT met" / "" for a figure. */
export const verdict = (f) =>
  f.max === undefined || !Number.isFinite(f.value) ? "" : f.value <= f.max ? "met" : "NOT met";
