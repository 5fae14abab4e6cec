/**
 * The recovery and drill-in buttons of `AgentToolRun`: Retry and Reconnect, offered as the run's recovery
 * calls for (`recoveryFor`, decided by the run actions of `@runboard/client`), and Open agent chat. They act
 * through the run hooks `RunTray` uses too (`run-hooks.ts`).
 */
import { type ActionButtonProps, createActionButton } from "../primitives/index.ts";
import { useRunDrillIn, useRunReconnect, useRunRetry } from "./run-hooks.ts";

/** Props of `AgentToolRun.Retry`, `AgentToolRun.Reconnect` and `AgentToolRun.DrillIn`. */
export type AgentToolRunActionProps = ActionButtonProps;

/** Runs the work again (`useRunRetry`); disabled when that returns null. */
export const Retry = createActionButton<AgentToolRunActionProps>("AgentToolRun.Retry", () => ({
  action: useRunRetry(),
  label: "Retry",
}));

/** Follows a child that is still running (`useRunReconnect`); disabled when that returns null. */
export const Reconnect = createActionButton<AgentToolRunActionProps>("AgentToolRun.Reconnect", () => ({
  action: useRunReconnect(),
  label: "Reconnect",
}));

/** Opens the child's own chat (`useRunDrillIn`); disabled when that returns null. */
export const DrillIn = createActionButton<AgentToolRunActionProps>("AgentToolRun.DrillIn", () => ({
  action: useRunDrillIn(),
  label: "Open agent chat",
}));
