/** `AgentToolRun`: a child run beside the tool call that spawned it, plus drill-in and matching helpers. */
export * from "./agent-tool-run.tsx";
export {
  getRunsForToolCall,
  INTERRUPT_REASON_LABELS,
  interruptReasonLabel,
  isRunFinished,
  RUN_STATUS_LABELS,
  type RunRecovery,
  recoveryFor,
  runIcon,
  runTitle,
  type Truncated,
  truncateText,
} from "./run-view.ts";
export * from "./use-child-chat.ts";
