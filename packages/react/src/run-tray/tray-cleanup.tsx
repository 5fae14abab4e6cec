/**
 * "Clear finished": one button that takes every finished run off the tray's list (the way Dismiss takes one),
 * first through the app's `onClearFinished` when it has one (e.g. a callable deleting them on the agent,
 * docs/protocol.md#clearing-runs). While that call is on its way the button is disabled; when it fails the
 * runs stay, the button works again, and `onClearError` (else `onError`) hears why.
 */
import { type ActionButtonProps, createActionButton, dataFlag, usePartContext } from "../primitives/index.ts";
import { TrayContext } from "./tray-root.tsx";

/** Props of `RunTray.ClearFinished`. */
export type RunTrayClearFinishedProps = ActionButtonProps;

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
