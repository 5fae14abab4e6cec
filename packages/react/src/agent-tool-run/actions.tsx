/**
 * The recovery and drill-in actions of `AgentToolRun`: Retry and Reconnect, offered as the run's recovery
 * calls for (`recoveryFor`, decided by the run actions of `@runboard/client`), and Open agent chat.
 */
import { type ActionButtonProps, createActionButton, usePartContext } from "../primitives/index.ts";
import { RunContext } from "./root.tsx";

/** Props of `AgentToolRun.Retry`, `AgentToolRun.Reconnect` and `AgentToolRun.DrillIn`. */
export type AgentToolRunActionProps = ActionButtonProps;

/** Retry, when the run failed or was interrupted with its child stopped and the root has `onRetry`; else null. */
export function useAgentToolRunRetry(): (() => void) | null {
  const { run, actions, handlers } = usePartContext(RunContext, "useAgentToolRunRetry");
  if (!actions.canRetry(run, handlers)) return null;
  return () => actions.retry(run, handlers);
}

/** Reconnect, when the run was interrupted with its child still running and the root has `onReconnect`; else null. */
export function useAgentToolRunReconnect(): (() => void) | null {
  const { run, actions, handlers } = usePartContext(RunContext, "useAgentToolRunReconnect");
  if (!actions.canReconnect(run, handlers)) return null;
  return () => actions.reconnect(run, handlers);
}

/** Open the child's chat, when the root has `onDrillIn`; else null. */
export function useAgentToolRunDrillIn(): (() => void) | null {
  const { run, onDrillIn } = usePartContext(RunContext, "useAgentToolRunDrillIn");
  if (!onDrillIn) return null;
  return () => onDrillIn(run);
}

/** Runs the work again (`useAgentToolRunRetry`); disabled when that returns null. */
export const Retry = createActionButton<AgentToolRunActionProps>("AgentToolRun.Retry", () => ({
  action: useAgentToolRunRetry(),
  label: "Retry",
}));

/** Follows a child that is still running (`useAgentToolRunReconnect`); disabled when that returns null. */
export const Reconnect = createActionButton<AgentToolRunActionProps>("AgentToolRun.Reconnect", () => ({
  action: useAgentToolRunReconnect(),
  label: "Reconnect",
}));

/** Opens the child's own chat (`useAgentToolRunDrillIn`); disabled when that returns null. */
export const DrillIn = createActionButton<AgentToolRunActionProps>("AgentToolRun.DrillIn", () => ({
  action: useAgentToolRunDrillIn(),
  label: "Open agent chat",
}));
