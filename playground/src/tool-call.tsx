/**
 * A tool call as a person reads it: one line that says what the agent did ("Checked the weather in Lisbon",
 * "Pay 250 to ACME") and where it stands ("Done", "Waiting for approval", "Failed: …"), with the call's
 * input and output, pretty-printed as text, behind a disclosure. What needs the person (the approval card,
 * the client tool's prompt) and the child runs stay in sight below the line, never inside the disclosure.
 */
import {
  detachedDispatchOf,
  humanizeToolName,
  parseLiveViewSession,
  revealHiddenCharacters,
  type ToolStatus,
  toolInputGist,
  toolStatus,
  truncateText,
  valueText,
} from "@runboard/protocol/view";
import { RunTray, type ToolPartProps } from "@runboard/react";
import type { ReactNode } from "react";
import { StatusIcon } from "./status-icon.tsx";

/** The demo's client tools: the browser answers them, so their wait is the person's. */
export const CLIENT_TOOLS = ["getLocation"];

type Input = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");
const asInput = (v: unknown): Input => (typeof v === "object" && v !== null ? (v as Input) : {});

/**
 * This app's words for its own tools, by name: what the call does, in the tense its state calls for. Any
 * other tool reads as its name in words and its first plain inputs ("Fetch invoice — INV-7").
 */
const SAY: Record<string, (input: Input, status: ToolStatus) => string> = {
  getWeather: (i, s) => {
    const where = str(i.city) ? ` in ${str(i.city)}` : "";
    return s.kind === "done" ? `Checked the weather${where}` : `Checking the weather${where}`;
  },
  processPayment: (i) =>
    str(i.amount) && str(i.recipient) ? `Pay ${str(i.amount)} to ${str(i.recipient)}` : "Make a payment",
  getLocation: (_i, s) => (s.kind === "done" ? "Shared your location" : "Location request"),
};

/** The one-line summary of a call: the app's words for it, else the tool name in words and its inputs. */
export function toolSummary(toolName: string, input: unknown, status: ToolStatus): string {
  // Own keys only: a tool named `constructor` or `toString` (the fuzz sends them) is not one of this app's.
  const own = Object.hasOwn(SAY, toolName) ? SAY[toolName] : undefined;
  if (own) return own(asInput(input), status);
  const gist = toolInputGist(input);
  const name = humanizeToolName(toolName) || "Tool call";
  return gist ? `${name} — ${gist}` : name;
}

/** What the output adds to the line once done, for the app's own tools ("21 °C, sunny"). */
function outputGist(toolName: string, output: unknown): string {
  const o = asInput(output);
  if (toolName === "getWeather" && str(o.condition))
    return [str(o.temperatureC) && `${str(o.temperatureC)} °C`, str(o.condition)].filter(Boolean).join(", ");
  if (toolName === "processPayment" && str(o.txId)) return `transaction ${str(o.txId)}`;
  return "";
}

/** A value inside the disclosure: indented JSON or the string itself, as text, cut when very long. */
/** A tool's value as text, invisible and reordering characters marked as the approval card marks them. */
const shown = (value: unknown) => revealHiddenCharacters(truncateText(valueText(value), 4_000, 80).text);

export function ToolCall({
  part,
  toolName,
  state,
  outputText,
  compacted,
  runs,
  children,
  clientTool = false,
  awaitingApproval = false,
}: Pick<ToolPartProps, "part" | "toolName" | "state" | "outputText" | "compacted" | "runs" | "children"> & {
  /** The call's tool is answered in the browser (see `CLIENT_TOOLS`). */
  clientTool?: boolean;
  /** An approval card for this call still waits for a decision (it overrides what the part's state says). */
  awaitingApproval?: boolean;
}) {
  const status: ToolStatus = awaitingApproval
    ? { kind: "waiting", label: "Waiting for approval" }
    : toolStatus(part, { clientTool, runs });
  // A Live View session is shown in the browser panel; its URLs are credentials, not reading matter.
  const liveView = state === "output-available" && parseLiveViewSession(part.output) !== undefined;
  // A detached dispatch answers { runId, agentType, status }: the run itself lives in the background tray.
  const dispatch = state === "output-available" ? detachedDispatchOf(part.output) : null;
  let line = toolSummary(toolName, part.input, status);
  let label = status.label;
  let kind = status.kind;
  if (dispatch) {
    const who = dispatch.agentType ?? "a helper";
    line =
      dispatch.status === "error"
        ? `Could not start ${who} in the background`
        : `Started ${who} in the background`;
    if (dispatch.status === "error") {
      kind = "failed";
      label = dispatch.error ? `Failed: ${dispatch.error}` : "Failed";
    }
  }
  const extra =
    state === "output-available" && !dispatch && !liveView ? outputGist(toolName, part.output) : "";
  const hasInput = valueText(part.input) !== "" && valueText(part.input) !== "{}";
  const output: ReactNode = liveView ? (
    <p className="muted">A Live View session: the agent's browser is shown below.</p>
  ) : outputText ? (
    <pre className="tool-value">{shown(part.output)}</pre>
  ) : null;
  return (
    <div className="tool-call" data-tool={toolName} data-status={state} data-tool-status={kind}>
      <details className="tool-details">
        <summary className="tool-line">
          <StatusIcon status={kind} />
          <span className="tool-summary">{revealHiddenCharacters(line)}</span>
          {extra && <span className="tool-extra"> · {extra}</span>}
          <span className="tool-state" data-tool-status={kind}>
            {label}
          </span>
        </summary>
        <div className="tool-io">
          <p className="tool-name muted">
            Tool <code>{revealHiddenCharacters(toolName)}</code>
          </p>
          <h4>Input</h4>
          {hasInput ? <pre className="tool-value">{shown(part.input)}</pre> : <p className="muted">None</p>}
          {output && (
            <>
              <h4>Output</h4>
              {output}
            </>
          )}
          {compacted && <p className="muted">Output shortened when the conversation was stored.</p>}
        </div>
      </details>
      {dispatch?.status === "running" && (
        <RunTray.Link output={part.output} className="link tool-link">
          Show in background runs
        </RunTray.Link>
      )}
      {liveView && <p className="tool-note muted">The agent's browser is open below.</p>}
      {children && <div className="tool-slots">{children}</div>}
    </div>
  );
}
