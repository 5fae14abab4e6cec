/**
 * Faults injected through the mock server's controller, each derived from a seed. A drop fires once: the
 * controller's drop rule would otherwise cut every later socket of the agent at the same count, so it is
 * cleared as soon as the tab sees its socket close (before partysocket reconnects).
 */
import { AGENT } from "./harness.ts";
import type { Run } from "./runner.ts";

/** Cuts the tab's socket after `at` more frames; then, if `again` is set, the next socket after `again`. */
export function dropOnce(run: Run, at: number, again?: number) {
  const { controller } = run.srv;
  const where = { agent: AGENT[run.kind.host], name: run.name };
  controller.dropSocketAfter(at, where);
  let closes = 0;
  const client = run.tab.client;
  const onClose = () => {
    closes++;
    controller.clearFaults();
    if (closes === 1 && again !== undefined) controller.dropSocketAfter(again, where);
    else client.removeEventListener("close", onClose);
  };
  client.addEventListener("close", onClose);
}

/** Calls `fn` right after the server sent the agent's `at`-th frame from now (RPC replies aside). */
export function atFrame(run: Run, at: number, fn: () => void) {
  let n = 0;
  run.srv.controller
    .waitForFrame((f) => f.name === run.name && f.frame.type !== "rpc" && ++n === at, 60_000)
    .then(fn, () => undefined);
}

/** Frames of one agent instance of this run. */
export const ofRun = (run: Run) => (f: { name: string }) => f.name === run.name;

/** Closes every socket of the agent abruptly (1006), as a network failure does. */
export function cutSockets(run: Run) {
  for (const c of run.srv.controller.instance(AGENT[run.kind.host], run.name)?.conns ?? []) c.terminate();
}
