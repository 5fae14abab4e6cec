/**
 * What a person can do to a run in the tray beyond the shared run hooks (`run-hooks.ts`: cancel, retry,
 * reconnect, open its chat): dismiss it once finished, as a hook and a button; the Open button; the stall
 * notice.
 */
import type { AgentToolRunState } from "@runboard/protocol";
import { canDismiss, runTitle, stalledLabel } from "@runboard/protocol/view";
import { useContext } from "react";
import { useRunDrillIn } from "../agent-tool-run/run-hooks.ts";
import { RunScopeContext, useRunScope } from "../agent-tool-run/run-scope.ts";
import {
  type ActionButtonProps,
  createActionButton,
  type PrimitiveProps,
  renderPart,
  usePartContext,
} from "../primitives/index.ts";
import { TrayContext } from "./tray-root.tsx";

/** Props of `RunTray.DrillIn` and `RunTray.Dismiss`. */
export type RunTrayActionProps = ActionButtonProps;
/** Props of `RunTray.Stalled`. */
export type RunTrayStalledProps = PrimitiveProps<"span">;

/** Dismiss for `run` (default: the current item's run), or null while it is running. */
export function useRunTrayDismiss(run?: AgentToolRunState): (() => void) | null {
  const { dismiss } = usePartContext(TrayContext, "useRunTrayDismiss");
  const scope = useContext(RunScopeContext);
  const target = run ?? scope?.run;
  if (!target || !canDismiss(target)) return null;
  return () => dismiss(target);
}

/** Opens the run's own chat (`onDrillIn`), named "Open <name>"; nothing when the root has no `onDrillIn`. */
export const DrillIn = createActionButton<RunTrayActionProps>("RunTray.DrillIn", () => {
  const { run } = useRunScope("RunTray.DrillIn", "RunTray.List");
  const action = useRunDrillIn();
  return { action, absent: !action, label: "Open", attributes: { "aria-label": `Open ${runTitle(run)}` } };
});

/**
 * Hides a finished run from the list, named "Dismiss <name>"; nothing while the run is running. Focus moves
 * to the trigger, since the button it was on is gone.
 */
export const Dismiss = createActionButton<RunTrayActionProps>("RunTray.Dismiss", () => {
  const { run } = useRunScope("RunTray.Dismiss", "RunTray.List");
  const { triggerRef } = usePartContext(TrayContext, "RunTray.Dismiss");
  const dismiss = useRunTrayDismiss();
  return {
    action:
      dismiss &&
      (() => {
        dismiss();
        triggerRef.current?.focus();
      }),
    absent: !dismiss,
    label: "Dismiss",
    attributes: { "aria-label": `Dismiss ${runTitle(run)}` },
  };
});

/** Shown only while the run is stalled (running, no frame for `stallAfterMs`). Default "No update for 30 seconds". */
export function Stalled(props: RunTrayStalledProps) {
  const { stalled } = useRunScope("RunTray.Stalled", "RunTray.List");
  const { stallAfterMs } = usePartContext(TrayContext, "RunTray.Stalled");
  if (!stalled) return null;
  return renderPart("span", {
    "data-rb-part": "RunTray.Stalled",
    "data-stalled": "",
    children: stalledLabel(stallAfterMs),
    ...props,
  });
}
Stalled.displayName = "RunTray.Stalled";
