/**
 * "Clear finished": one button that takes every finished run off the tray's list (the way Dismiss takes one),
 * first through the app's `onClearFinished` when it has one (e.g. a callable deleting them on the agent,
 * docs/protocol.md#clearing-runs). While that call is on its way the button is disabled; when it fails the
 * runs stay, the button works again, and `onClearError` (else `onError`) hears why.
 */
import { type AgentToolRun, canDismiss } from "@runboard/protocol";
import { useCallback, useRef, useState } from "react";
import { type ActionButtonProps, createActionButton, dataFlag, usePartContext } from "../primitives/index.ts";
import { TrayContext } from "./tray-root.tsx";

/** Props of `RunTray.ClearFinished`. */
export type RunTrayClearFinishedProps = ActionButtonProps;

/** What `RunTray.Root` needs to offer Clear finished. */
export interface ClearFinishedOptions {
  visible: readonly AgentToolRun[];
  dismissAll: (runs: readonly AgentToolRun[]) => void;
  onClearFinished?: ((runs: readonly AgentToolRun[]) => unknown) | undefined;
  onClearError?: ((error: unknown) => void) | undefined;
  onError?: ((error: unknown, run: AgentToolRun) => void) | undefined;
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

/** Clear finished for the tray's runs, or null when no listed run is finished or a clear is on its way. */
export function useRunTrayClearFinished(): (() => void) | null {
  return usePartContext(TrayContext, "useRunTrayClearFinished").clearFinished;
}

/**
 * Takes every finished run off the list, labelled "Clear finished" ("Clearing…" while `onClearFinished` is on
 * its way); disabled when nothing listed is finished. `data-clearing` while on its way.
 */
export const ClearFinished = createActionButton<RunTrayClearFinishedProps>("RunTray.ClearFinished", () => {
  const { clearFinished, clearing } = usePartContext(TrayContext, "RunTray.ClearFinished");
  return {
    action: clearFinished,
    label: clearing ? "Clearing…" : "Clear finished",
    attributes: { "data-clearing": dataFlag(clearing) },
  };
});
