/**
 * `MessageParts`: a `UIMessage`'s parts in order, each through the app's component for its kind (or a
 * default). A server-injected message is one agent event instead. A part nothing handles, or one that is
 * malformed, goes to `Unknown`: never dropped, never thrown, and a malformed one is reported once.
 */
import {
  type ApprovalRequest,
  classifySyntheticMessage,
  getToolName,
  isToolUIPart,
  type ToolPartLike,
} from "@runboard/protocol";
import {
  compactedMarks,
  getRunsForToolCall,
  revealHiddenCharacters,
  toolValueText,
} from "@runboard/protocol/view";
import type { UIMessage } from "ai";
import { Fragment, type ReactNode, useEffect, useRef } from "react";
import { defaultParts } from "./defaults.tsx";
import type { MessagePart, MessagePartsComponents, MessagePartsRuns } from "./types.ts";

/** Props of `MessageParts`. */
export interface MessagePartsProps {
  /** The message to render (`useChatMessage(id)`, or an entry of `useAgentChat().messages`). */
  message: UIMessage;
  /** The component per kind; each one given replaces that kind's default only. */
  components?: MessagePartsComponents;
  /** Child runs by tool call (`useAgentToolEvents()`'s result), shown under the tool call that spawned them. */
  runs?: MessagePartsRuns;
  /** Approval requests (`useChatApprovals()`), shown under the tool part that asks. */
  approvals?: readonly ApprovalRequest[];
  /** Tools the client answers: one of them in `input-available` shows the client-tool prompt. */
  clientTools?: Iterable<string>;
  /** Told once per malformed part (a part without a type, a text part without text, …). */
  onError?: (error: Error) => void;
}

const NO_APPROVALS: readonly ApprovalRequest[] = [];

/** The requests of each tool call, per approvals list (the same list is grouped once, however often it renders). */
const approvalsByCall = new WeakMap<readonly ApprovalRequest[], Map<string, ApprovalRequest[]>>();

/**
 * `approvals` grouped by tool call id, in their order: each tool part takes its own in O(1), where filtering the
 * list per part cost parts × requests per render (a message with thousands of tool calls).
 */
function groupApprovals(
  approvals: readonly ApprovalRequest[],
): ReadonlyMap<string, readonly ApprovalRequest[]> {
  let byCall = approvalsByCall.get(approvals);
  if (!byCall) {
    byCall = new Map();
    for (const r of approvals) {
      const id = r.toolCallId;
      // A request of no tool call (a workflow's) belongs to no tool part.
      if (id === undefined) continue;
      const list = byCall.get(id);
      if (list) list.push(r);
      else byCall.set(id, [r]);
    }
    approvalsByCall.set(approvals, byCall);
  }
  return byCall;
}

/** Why a part cannot be shown as its kind, or undefined when it is well formed. */
function problemOf(part: unknown): string | undefined {
  if (typeof part !== "object" || part === null) return "the part is not an object";
  const p = part as Record<string, unknown>;
  if (typeof p.type !== "string") return "the part has no type";
  if ((p.type === "text" || p.type === "reasoning") && typeof p.text !== "string")
    return `a ${p.type} part without text`;
  if ((p.type === "file" || p.type === "source-url") && typeof p.url !== "string")
    return `a ${p.type} part without a url`;
  if (p.type.startsWith("tool-") || p.type === "dynamic-tool") {
    if (typeof p.toolCallId !== "string") return "a tool part without a toolCallId";
    if (typeof p.state !== "string") return "a tool part without a state";
  }
  return undefined;
}

/**
 * Renders a message's parts in order through `components` (assistant-ui's `MessagePrimitive.Parts` shape):
 * `Text`, `Reasoning`, `File`, `Source`, `Data`, `tools.by_name[name]` else `tools.Fallback` for tool parts
 * in every state, with the approval card (`approval-requested`, or any state with a request for the call), the client-tool prompt and the child runs
 * (`AgentToolRun`) handed to the tool component as its children; a server-injected message renders as
 * `AgentEvent`; anything else as `Unknown`. Renders no wrapper element and no styles. Tool input and output
 * arrive as text (`toolValueText`), never as HTML.
 *
 * @example
 * ```tsx
 * <MessageParts
 *   message={message}
 *   runs={runs}
 *   approvals={approvals}
 *   components={{ Text: ({ part }) => <Markdown text={part.text} />, tools: { by_name: { getWeather: Weather } } }}
 * />
 * ```
 */
export function MessageParts(props: MessagePartsProps): ReactNode {
  const { message, onError } = props;
  const reported = useRef<Set<string>>(undefined as unknown as Set<string>);
  reported.current ??= new Set();
  const problems: Problem[] = [];
  const content = renderParts(props, problems);
  // Keyed by the problems found, so a row streaming without any schedules no effect on each commit.
  const problemKeys = problems.map(([key]) => key).join("\n");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the problems are told once each, by their keys.
  useEffect(() => {
    for (const [key, text] of problems) {
      if (reported.current.has(key)) continue;
      reported.current.add(key);
      onError?.(new Error(`MessageParts: message ${message.id}: ${text}`));
    }
  }, [problemKeys]);
  return content;
}

/** A problem of one part: the key it is reported once by, and its text. */
type Problem = [key: string, text: string];

/** The parts of `props.message` as elements; the malformed ones found are added to `problems`. */
function renderParts(props: MessagePartsProps, problems: Problem[]): ReactNode {
  const { message, components: c = {}, runs, approvals = NO_APPROVALS, clientTools } = props;
  if (classifySyntheticMessage(message)) {
    const Event = c.AgentEvent ?? defaultParts.AgentEvent;
    return <Event message={message} />;
  }
  const Unknown = c.Unknown ?? defaultParts.Unknown;
  // What the server cut when storing this message (docs/protocol.md#compaction); a malformed list is reported.
  const marks = compactedMarks(message);
  if (marks.problem) problems.push([`${message.id}:compacted`, marks.problem]);
  const clientToolNames = clientTools ? new Set(clientTools) : undefined;
  const requestsByCall = groupApprovals(approvals);

  /** `inChild`: the part is from a child run's transcript, whose tool call ids are the child's, not this chat's. */
  const renderOne = (raw: unknown, index: number, owner: UIMessage, inChild = false): ReactNode => {
    const problem = problemOf(raw);
    const type =
      typeof (raw as { type?: unknown })?.type === "string" ? (raw as { type: string }).type : undefined;
    if (problem) {
      problems.push([`${owner.id}:${index}:${problem}`, `part ${index}: ${problem}`]);
      return <Unknown part={raw} message={owner} index={index} type={type} problem={problem} />;
    }
    const part = raw as MessagePart;
    const base = { message: owner, index };
    switch (part.type) {
      case "text": {
        const Text = c.Text ?? defaultParts.Text;
        return <Text part={part} {...base} compacted={!inChild && marks.textParts.has(index)} />;
      }
      case "reasoning": {
        const Reasoning = c.Reasoning ?? defaultParts.Reasoning;
        return <Reasoning part={part} {...base} />;
      }
      case "file": {
        const File = c.File ?? defaultParts.File;
        return <File part={part} {...base} />;
      }
      case "source-url":
      case "source-document": {
        const Source = c.Source ?? defaultParts.Source;
        return <Source part={part} {...base} />;
      }
      case "step-start":
        // A step boundary carries nothing to show.
        return null;
    }
    if (isToolUIPart(part)) return renderTool(part, base, inChild);
    if (part.type.startsWith("data-") && c.Data) return <c.Data part={part} {...base} />;
    return <Unknown part={part} message={owner} index={index} type={type} problem={undefined} />;
  };

  const renderTool = (
    part: MessagePart & ToolPartLike,
    base: { message: UIMessage; index: number },
    inChild: boolean,
  ) => {
    const toolName = getToolName(part);
    const state = String(part.state);
    // `runs` are keyed by this chat's tool call ids. A child's tool call may carry the same id as the call that
    // dispatched it (ids are per agent): looking it up here would nest the run inside itself without end.
    const childRuns = runs && !inChild ? getRunsForToolCall(runs, part) : [];
    const Tool = c.tools?.by_name?.[toolName] ?? c.tools?.Fallback ?? defaultParts.ToolFallback;
    const Approval = c.Approval ?? defaultParts.Approval;
    const Prompt = c.ClientToolPrompt ?? defaultParts.ClientToolPrompt;
    const Run = c.AgentToolRun ?? defaultParts.AgentToolRun;
    // Marked as the approval card beside it marks the same input (issue 26 §4): what a person reads is what runs.
    const inputText = revealHiddenCharacters(toolValueText(part.input));
    // A child run shows its own result; the tool's raw output would repeat it.
    const outputText =
      state === "output-available" && childRuns.length === 0 ? toolValueText(part.output) : "";
    const errorText = state === "output-error" ? toolValueText(part.errorText) : "";
    // Think's durable pauses ask while the part is still `input-available`: a request shows in any state.
    const requests = requestsByCall.get(part.toolCallId) ?? NO_APPROVALS;
    const waits = state === "input-available" && clientToolNames?.has(toolName) === true;
    return (
      <Tool
        part={part}
        {...base}
        toolName={toolName}
        state={state}
        inputText={inputText}
        outputText={outputText}
        errorText={errorText}
        runs={childRuns}
        compacted={!inChild && marks.toolCallIds.has(part.toolCallId)}
      >
        {(state === "approval-requested" || requests.length > 0) && (
          <Approval part={part} {...base} toolName={toolName} requests={requests} />
        )}
        {waits && <Prompt part={part} {...base} toolName={toolName} inputText={inputText} />}
        {childRuns.map((run) => (
          <Run
            key={run.runId}
            part={part}
            {...base}
            run={run}
            store={runs?.store}
            // The child's parts belong to its own transcript, not to this message: keyed by the run.
            renderPart={(p, i) =>
              renderOne(p, i, { ...base.message, id: `${base.message.id}/${run.runId}` }, true)
            }
          />
        ))}
      </Tool>
    );
  };

  const parts: readonly unknown[] = Array.isArray(message.parts) ? message.parts : [];
  if (!Array.isArray(message.parts)) problems.push([`${message.id}:parts`, "the message has no parts list"]);
  return parts.map((p, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: parts have no ids; a part's position never changes once shown.
    <Fragment key={i}>{renderOne(p, i, message)}</Fragment>
  ));
}
