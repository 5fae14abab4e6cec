/**
 * `LiveView.TakeOver` and `LiveView.Continue`: the human takes the remote browser, then hands it back.
 * `LiveView.Reload`: fetches the session again now.
 */
import { type ActionButtonProps, createActionButton, dataFlag, usePartContext } from "../primitives/index.ts";
import { RootContext } from "./context.ts";

/** Props of `LiveView.TakeOver`. */
export type LiveViewTakeOverProps = ActionButtonProps;

/** Puts the human in control: the frame takes input. Disabled (`data-disabled`) while the human already is. */
export const LiveViewTakeOver = createActionButton<LiveViewTakeOverProps>("LiveView.TakeOver", () => {
  const c = usePartContext(RootContext, "LiveView.TakeOver");
  return {
    action: c.control === "human" ? null : () => c.setControl("human"),
    label: "Take over",
    attributes: { "data-control": c.control },
  };
});

/** Props of `LiveView.Continue`. */
export type LiveViewContinueProps = ActionButtonProps;

const ContinueButton = createActionButton<LiveViewContinueProps>("LiveView.Continue", () => {
  const c = usePartContext(RootContext, "LiveView.Continue");
  return {
    action: c.continueStatus === "idle" ? c.runContinue : null,
    label: "Done, continue",
    attributes: {
      "data-status": c.continueStatus,
      "aria-busy": c.continueStatus === "pending" ? true : undefined,
    },
  };
});

/**
 * "Done, continue": calls the root's `onContinue` once (however often it is pressed) and hands control back to
 * the agent. `data-status` `idle | pending | done`; disabled while pending and after. Renders nothing without
 * `onContinue`.
 */
export function LiveViewContinue(props: LiveViewContinueProps) {
  const c = usePartContext(RootContext, "LiveView.Continue");
  if (!c.canContinue) return null;
  return <ContinueButton {...props} />;
}
LiveViewContinue.displayName = "LiveView.Continue";

/** Props of `LiveView.Reload`. */
export type LiveViewReloadProps = ActionButtonProps;

/**
 * "Reload": fetches a fresh session now, so tabs the agent opened show at once, and asks again after the
 * session ended. Disabled (`data-disabled`) while a fetch is under way (`data-refreshing`); renders nothing
 * without the root's `refresh`.
 */
export const LiveViewReload = createActionButton<LiveViewReloadProps>("LiveView.Reload", () => {
  const c = usePartContext(RootContext, "LiveView.Reload");
  return {
    action: c.fetching ? null : c.reload,
    label: "Reload",
    absent: !c.canRefresh,
    attributes: { "data-refreshing": dataFlag(c.fetching) },
  };
});
