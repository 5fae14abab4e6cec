/**
 * The helper functions and types `@cloudflare/ai-chat/react`, `@cloudflare/think/react` and `agents/react`
 * export beside their hooks, under the same names, so an app switches by changing the import. The functions
 * are plain functions from the lower layers.
 */
import type { ClientTool } from "@runboard/client";
import {
  getToolApproval as approvalOf,
  getToolCallId as callIdOf,
  getToolInput as inputOf,
  getToolOutput as outputOf,
  type Part,
  getToolPartState as partStateOf,
  type ToolApproval,
  type ToolPartLike,
  type ToolPartState,
} from "@runboard/protocol";
import type { JSONSchema7 } from "ai";

export {
  type ChatTurnEndEvent,
  detectToolsRequiringConfirmation,
  extractClientToolSchemas,
  getAgentMessages,
  type OnToolCallCallback,
  type PrepareSendMessagesRequestOptions,
  type PrepareSendMessagesRequestResult,
} from "@runboard/client";
export type {
  AgentToolRunPart,
  AgentToolRunState,
  ChatTurnOutcome,
  ClientToolSchema,
} from "@runboard/protocol";

/**
 * A client tool (the official `AITool`): `execute` runs in the page, and its schema is announced to the
 * server. `Input` and `Output` type `execute`, as upstream's.
 */
export type AITool<Input = unknown, Output = unknown> = Omit<ClientTool, "execute"> & {
  /** Runs the tool in the page when the model calls it; its result (or what it throws) answers the call. */
  execute?: (input: Input) => Output | Promise<Output>;
};

/**
 * A JSON Schema (the AI SDK's `JSONSchema7`), as the official module re-exports it.
 * @deprecated As upstream: import `JSONSchema7` from `ai`.
 */
export type JSONSchemaType = JSONSchema7;

/** The connection transports the official `useAgent` names; only `cf-websocket` is spoken here. */
export type AgentTransport = "cf-websocket" | "capnweb";

/** Any message part, as the official helpers take it (what is not a tool part reads as one without fields). */
type AnyPart = Part | ToolPartLike;

/** The UI state of a tool part (`loading`, `streaming`, `waiting-approval`, …), as the official helper names it. */
export const getToolPartState = (part: AnyPart): ToolPartState => partStateOf(part as ToolPartLike);
/** The tool call id of a tool part. */
export const getToolCallId = (part: AnyPart): string => callIdOf(part as ToolPartLike);
/** The input of a tool part (partial while streaming). */
export const getToolInput = (part: AnyPart): unknown => inputOf(part as ToolPartLike);
/** The output of a tool part, once available. */
export const getToolOutput = (part: AnyPart): unknown => outputOf(part as ToolPartLike);
/** The approval record of a tool part, if any. */
export const getToolApproval = (part: AnyPart): ToolApproval | undefined => approvalOf(part as ToolPartLike);
