/**
 * The default piece for each kind of part: plain elements, no styles, every one marked with `data-part` (and
 * the tool ones with `data-tool` / `data-status`) so an app can style them or replace them one by one.
 * Everything the server sent is rendered as text, never as HTML.
 */
import { revealHiddenCharacters } from "@runboard/protocol/view";
import { AgentEvent } from "../agent-event/index.ts";
import { AgentToolRun } from "../agent-tool-run/index.ts";
import { ApprovalCard } from "../approval/index.ts";
import type {
  AgentEventPartProps,
  AgentToolRunPartProps,
  ApprovalPartProps,
  ClientToolPromptProps,
  FilePartProps,
  ReasoningPartProps,
  SourcePartProps,
  TextPartProps,
  ToolPartProps,
  UnknownPartProps,
} from "./types.ts";

function Text({ part, compacted }: TextPartProps) {
  return (
    <p data-part="text" data-compacted={compacted ? "" : undefined}>
      {part.text}
    </p>
  );
}

function Reasoning({ part }: ReasoningPartProps) {
  return <p data-part="reasoning">{part.text}</p>;
}

function File({ part }: FilePartProps) {
  // A link, not an <img>: the URL is the server's, and a data: or remote image is the app's choice to embed.
  const href = safeHref(part.url);
  const name = part.filename ?? part.mediaType;
  if (href === undefined)
    return (
      <span data-part="file" data-media-type={part.mediaType}>
        {name}
      </span>
    );
  return (
    <a data-part="file" data-media-type={part.mediaType} href={href}>
      {name}
    </a>
  );
}

function Source({ part }: SourcePartProps) {
  if (part.type === "source-url") {
    const href = safeHref(part.url);
    const text = part.title ?? part.url;
    if (href === undefined) return <span data-part="source">{text}</span>;
    return (
      <a data-part="source" href={href}>
        {text}
      </a>
    );
  }
  return <span data-part="source">{part.title}</span>;
}

/**
 * Only http(s) links are followed, and `blob:` URLs of this document's own origin (a file the app itself made
 * into a URL). Anything else is shown as text: a `javascript:` URL runs on click, and a `data:` URL of
 * `text/html` or `image/svg+xml` opens a document whose scripts run with a click (issue 26 §4).
 */
function safeHref(url: string): string | undefined {
  if (/^https?:/i.test(url)) return url;
  if (
    /^blob:/i.test(url) &&
    typeof location !== "undefined" &&
    url.slice(5).startsWith(`${location.origin}/`)
  )
    return url;
  return undefined;
}

function ToolFallback({
  toolName,
  state,
  inputText,
  outputText,
  errorText,
  compacted,
  children,
}: ToolPartProps) {
  return (
    <div
      data-part="tool"
      data-tool={toolName}
      data-status={state}
      data-compacted={compacted ? "" : undefined}
    >
      <div data-part="tool-header">
        <span data-part="tool-name">{revealHiddenCharacters(toolName)}</span>{" "}
        <span data-part="tool-state">{state}</span>
      </div>
      {inputText && <pre data-part="tool-input">{inputText}</pre>}
      {children}
      {outputText && <pre data-part="tool-output">{outputText}</pre>}
      {compacted && <p data-part="tool-compacted">Output shortened when the conversation was stored.</p>}
      {state === "output-error" && (
        <p data-part="tool-error" role="alert">
          {errorText}
        </p>
      )}
      {state === "output-denied" && <p data-part="tool-denied">Denied</p>}
    </div>
  );
}

function Approval({ requests }: ApprovalPartProps) {
  return requests.map((request) => (
    <ApprovalCard.Root key={request.id} request={request}>
      <ApprovalCard.Title />
      <ApprovalCard.Summary />
      <ApprovalCard.Arguments />
      <ApprovalCard.Approve>Approve</ApprovalCard.Approve>
      <ApprovalCard.Deny>Deny</ApprovalCard.Deny>
      <ApprovalCard.Status />
    </ApprovalCard.Root>
  ));
}

function ClientToolPrompt({ toolName }: ClientToolPromptProps) {
  return <div data-part="client-tool-prompt" data-tool={toolName} />;
}

function Run({ run, store, renderPart }: AgentToolRunPartProps) {
  return (
    <AgentToolRun.Root {...(store ? { store, runId: run.runId } : { run })} data-part="agent-tool-run">
      <AgentToolRun.Header>
        <AgentToolRun.Title /> <AgentToolRun.Status />
        <AgentToolRun.Trigger>Details</AgentToolRun.Trigger>
      </AgentToolRun.Header>
      <AgentToolRun.Result>
        <AgentToolRun.ResultText />
      </AgentToolRun.Result>
      <AgentToolRun.Content>
        <AgentToolRun.Transcript>{(part, i) => renderPart(part, i)}</AgentToolRun.Transcript>
        <AgentToolRun.Error role="alert" />
      </AgentToolRun.Content>
    </AgentToolRun.Root>
  );
}

function Event({ message }: AgentEventPartProps) {
  return (
    <AgentEvent.Root message={message}>
      <AgentEvent.Label /> <AgentEvent.Text />
    </AgentEvent.Root>
  );
}

function Unknown({ type, problem }: UnknownPartProps) {
  return <div data-part="unknown" data-part-type={type} data-problem={problem} />;
}

/** The defaults `MessageParts` falls back to for each kind. */
export const defaultParts = {
  Text,
  Reasoning,
  File,
  Source,
  ToolFallback,
  Approval,
  ClientToolPrompt,
  AgentToolRun: Run,
  AgentEvent: Event,
  Unknown,
};
