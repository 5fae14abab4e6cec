/** The props each replaceable piece of `MessageParts` receives, and the components map itself. */
import type { AgentToolRuns } from "@runboard/client";
import type {
  AgentToolRunState,
  AgentToolRunsState,
  ApprovalRequest,
  ToolPartLike,
} from "@runboard/protocol";
import type { UIMessage } from "ai";
import type { ComponentType, ReactNode } from "react";

/** One entry of `message.parts`. */
export type MessagePart = UIMessage["parts"][number];

/** What every part component gets: the part, its message, and its position in `message.parts`. */
export interface MessagePartProps<P = MessagePart> {
  part: P;
  message: UIMessage;
  index: number;
}

/** A text part (`type: "text"`). */
export type TextPartProps = MessagePartProps<Extract<MessagePart, { type: "text" }>> & {
  /** The server truncated this text when storing it (`metadata.compactedTextParts`, docs/protocol.md#compaction). */
  compacted?: boolean;
};
/** A reasoning part (`type: "reasoning"`). */
export type ReasoningPartProps = MessagePartProps<Extract<MessagePart, { type: "reasoning" }>>;
/** A file part (`type: "file"`). */
export type FilePartProps = MessagePartProps<Extract<MessagePart, { type: "file" }>>;
/** A source part (`type: "source-url"` or `"source-document"`). */
export type SourcePartProps = MessagePartProps<
  Extract<MessagePart, { type: "source-url" } | { type: "source-document" }>
>;

/** A tool part (`tool-<name>` or `dynamic-tool`), with what `MessagePart` worked out for it. */
export interface ToolPartProps extends MessagePartProps<MessagePart & ToolPartLike> {
  /** The tool's name (`toolName`, else the part type without `tool-`). */
  toolName: string;
  /** `input-streaming → input-available → output-available | output-error | output-denied`, or an approval state. */
  state: string;
  /**
   * The input as display text (`toolValueText`, invisible and reordering characters marked as
   * `revealHiddenCharacters` marks them on approval cards): render it as text, never as HTML. `part.input` is raw.
   */
  inputText: string;
  /** The output as display text, once available (`""` before, and when the call spawned child runs). */
  outputText: string;
  /** The error text of an `output-error` part (`""` otherwise). */
  errorText: string;
  /** Child runs this tool call spawned (agent tools), in display order. */
  runs: readonly AgentToolRunState[];
  /** The server shortened this output when storing it (`metadata.compactedToolOutputs`, docs/protocol.md#compaction). */
  compacted: boolean;
  /** The approval card, the client-tool prompt and the child runs, in that order: render them inside. */
  children?: ReactNode;
}

/**
 * A tool part in `approval-requested`, or in any state with a request for its call (Think's durable pauses ask
 * while the part is `input-available`), with the requests (`useChatApprovals`, `useExecutionApprovals`).
 */
export interface ApprovalPartProps extends MessagePartProps<MessagePart & ToolPartLike> {
  toolName: string;
  /** The requests whose `toolCallId` is this part's (usually one; empty when the app passed none). */
  requests: readonly ApprovalRequest[];
}

/** A client tool (named in `clientTools`) waiting in `input-available` for the user or the app to answer. */
export interface ClientToolPromptProps extends MessagePartProps<MessagePart & ToolPartLike> {
  toolName: string;
  /** The input as display text, invisible characters marked (as `ToolPartProps.inputText`). */
  inputText: string;
}

/** One child run of an agent-tool part. */
export interface AgentToolRunPartProps extends MessagePartProps<MessagePart & ToolPartLike> {
  run: AgentToolRunState;
  /** The runs store (`useAgentToolEvents().store`), when the app passed one. */
  store: AgentToolRuns | undefined;
  /** Renders a part of the child's transcript the way this message's parts are rendered. */
  renderPart: (part: AgentToolRunState["parts"][number], index: number) => ReactNode;
}

/** A message the server injected (a background completion, milestone narration, a notice): shown whole. */
export interface AgentEventPartProps {
  message: UIMessage;
}

/** A part of a type nothing else handles, or a malformed one (`problem` says what is wrong with it). */
export interface UnknownPartProps {
  part: unknown;
  message: UIMessage;
  index: number;
  /** The part's `type` when it has a string one. */
  type: string | undefined;
  /** Why the part could not be shown as its kind; undefined for a well-formed part of an unknown type. */
  problem: string | undefined;
}

/**
 * The components `MessageParts` renders through, one per kind; each one you pass replaces the default for
 * that kind only. `tools.by_name` wins over `tools.Fallback` for the tools it names.
 */
export interface MessagePartsComponents {
  Text?: ComponentType<TextPartProps>;
  Reasoning?: ComponentType<ReasoningPartProps>;
  File?: ComponentType<FilePartProps>;
  Source?: ComponentType<SourcePartProps>;
  /** `data-*` parts; default: the `Unknown` component. */
  Data?: ComponentType<MessagePartProps>;
  tools?: {
    /** A component per tool name, e.g. `{ getWeather: WeatherCard }`. */
    by_name?: Readonly<Record<string, ComponentType<ToolPartProps>>>;
    /** Every other tool. */
    Fallback?: ComponentType<ToolPartProps>;
  };
  /** A tool part waiting for a human's decision; default: an `ApprovalCard` per request. */
  Approval?: ComponentType<ApprovalPartProps>;
  /** A client tool waiting for the user; default: an empty slot (`data-part="client-tool-prompt"`). */
  ClientToolPrompt?: ComponentType<ClientToolPromptProps>;
  /** A child run of an agent-tool part; default: an `AgentToolRun` disclosure with the child's transcript. */
  AgentToolRun?: ComponentType<AgentToolRunPartProps>;
  /** A server-injected message; default: `AgentEvent.Root` with its label and text. */
  AgentEvent?: ComponentType<AgentEventPartProps>;
  /** Unknown part types and malformed parts; default: an empty element carrying `data-part-type`. */
  Unknown?: ComponentType<UnknownPartProps>;
}

/** The runs of `useAgentToolEvents()` (its result fits), to show child runs beside their tool call. */
export type MessagePartsRuns = Pick<AgentToolRunsState, "runsByToolCallId"> & { store?: AgentToolRuns };
