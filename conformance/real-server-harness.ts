/**
 * What every real-server test file repeats: skip with `RUNBOARD_SKIP_REAL_SERVER=1`, start the agents runtime
 * in workerd once per file (after checking conformance/ is installed), stop it after, and wait on a condition.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";

/** True when the environment asks to skip the real server. */
export const SKIP_REAL = process.env.RUNBOARD_SKIP_REAL_SERVER === "1";
/** The two chat hosts the Worker serves. */
export type Host = "ai-chat" | "think";
/** The Worker's agent class for each host. */
export const AGENT: Record<Host, string> = { "ai-chat": "ChatAgent", think: "ThinkAgent" };

/** Starts the real server before the file's tests and stops it after; read `.port` inside a test. */
export function useRealServer(): { readonly port: number | undefined } {
  let real: { port: number; stop(): Promise<void> } | undefined;
  beforeAll(async () => {
    if (SKIP_REAL) return;
    if (!existsSync(new URL("./node_modules/wrangler", import.meta.url)))
      throw new Error(
        "conformance/ is not installed: run `npm ci --prefix conformance` (or RUNBOARD_SKIP_REAL_SERVER=1)",
      );
    const { startRealServer } = await import("./start.mjs");
    real = await startRealServer();
  }, 120_000);
  afterAll(async () => {
    await real?.stop();
  });
  return {
    get port() {
      return real?.port;
    },
  };
}

/** Resolves once `pred` holds; throws naming `what` after `ms`. */
export async function until(what: string, pred: () => boolean, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
