/**
 * What every real-server test file repeats: skip with `RUNBOARD_SKIP_REAL_SERVER=1`, start the agents runtime
 * in workerd once per file (after checking conformance/ is installed), stop it after, and wait on a condition.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import type { AgentClient, ChatSession } from "../packages/client/src/index.ts";

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
export async function until(
  what: string,
  pred: () => boolean | Promise<boolean>,
  ms = 120_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A person types after the page has loaded: the chat's first message waits until its mount probe (sent once the
 * transcript has loaded) is answered. Sent in the same tick as the chat was made, the request can go out before
 * that probe; the real server then offers the chat its own live stream, the socket misses that stream's chunks
 * until its ACK lands, and on a loaded machine (load 12, clean-clone CI) the turn ended inside that window and
 * the approval request never arrived. A known client limitation, kept out of these scenarios; see the closing
 * note of issue 16. Resolves once the probe is answered (a fault test counts its frames from then on).
 */
export function mountBeforeFirstSend(
  client: Pick<AgentClient, "send" | "addEventListener">,
  session: { sendMessage: ChatSession["sendMessage"] },
): Promise<void> {
  const answered = new Promise<void>((resolve) => {
    let probe: string | undefined;
    const send = client.send.bind(client);
    client.send = (data: string) => {
      if (probe === undefined && data.includes('"cf_agent_stream_resume_request"'))
        probe = (JSON.parse(data) as { probeId?: string }).probeId;
      send(data);
    };
    client.addEventListener("message", (e) => {
      const data = String((e as MessageEvent).data);
      if (probe !== undefined && data.includes(`"probeId":"${probe}"`)) resolve();
    });
  });
  const first = session.sendMessage.bind(session);
  session.sendMessage = (async (...args: Parameters<ChatSession["sendMessage"]>) => {
    await answered;
    return first(...args);
  }) as ChatSession["sendMessage"];
  return answered;
}

let rooms = 0;
/**
 * A fresh instance name per call, `<prefix>-<label>-<time>-<n>`: every test talks to its own Durable Object,
 * so a run never sees an earlier run's transcript or runs.
 */
export function roomNames(prefix: string): (label: string) => string {
  return (label) => `${prefix}-${label}-${Date.now().toString(36)}-${++rooms}`;
}
