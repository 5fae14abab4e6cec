// Builds the workspace projects a benchmark imports from `dist`. Other engineers edit the same checkout, so a
// failed build warns and keeps the previous `dist` (and says so) instead of aborting the run.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export const repo = fileURLToPath(new URL("../..", import.meta.url));

/** `tsc -b` of `projects` (paths from the repo root). Skipped when BENCH_BUILT is set (the runner built). */
export function build(...projects) {
  if (process.env.BENCH_BUILT) return true;
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-b", ...projects], { cwd: repo, stdio: "inherit" });
    return true;
  } catch {
    const missing = projects.filter((p) => !existsSync(new URL(`../../${p}/dist/index.js`, import.meta.url)));
    if (missing.length) throw new Error(`build failed and there is no dist for ${missing.join(", ")}`);
    console.warn(`bench: tsc -b ${projects.join(" ")} failed; using the existing dist (may be stale)`);
    return false;
  }
}
