/**
 * The state behind `RunTray.ClearFinished`, kept by `RunTray.Root`: which listed runs are finished, and one call
 * of the app's `onClearFinished` at a time (docs/protocol.md#clearing-runs).
 */
import type { AgentToolRunState } from "@runboard/protocol";
import { canDismiss } from "@runboard/protocol/view";
import { useCallback, useRef, useState } from "react";

/** What `RunTray.Root` needs to offer Clear finished. */
export interface ClearFinishedOptions {
  visible: readonly AgentToolRunState[];
  dismissAll: (runs: readonly AgentToolRunState[]) => void;
  onClearFinished?: ((runs: readonly AgentToolRunState[]) => unknown) | undefined;
  onClearError?: ((error: unknown) => void) | undefined;
  onError?: ((error: unknown, run: AgentToolRunState) => void) | undefined;
}

/** The tray's Clear finished action (null when nothing listed is finished, or while it is on its way). */
export function useClearFinishedController(o: ClearFinishedOptions): {
  clearFinished: (() => void) | null;
  clearing: boolean;
} {
  const [clearing, setClearing] = useState(false);
  const busy = useRef(false);
  const latest = useRef(o);
  latest.current = o;
  const finished = o.visible.filter(canDismiss);
  const run = useCallback(() => {
    if (busy.current) return;
    const { visible, dismissAll, onClearFinished, onClearError, onError } = latest.current;
    const targets = visible.filter(canDismiss);
    if (targets.length === 0) return;
    if (!onClearFinished) return dismissAll(targets);
    busy.current = true;
    setClearing(true);
    let sent: Promise<unknown>;
    try {
      sent = Promise.resolve(onClearFinished(targets));
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent
      .then(
        () => dismissAll(targets),
        (error: unknown) => {
          if (onClearError) onClearError(error);
          else if (targets[0]) onError?.(error, targets[0]);
        },
      )
      .finally(() => {
        busy.current = false;
        setClearing(false);
      });
  }, []);
  return { clearFinished: finished.length === 0 || clearing ? null : run, clearing };
}
