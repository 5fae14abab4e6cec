/**
 * The Live View of the browser the agent opened (the `openBrowser` tool's output): watch it, take over to sign
 * in, then "Done, continue" answers the agent's pending `continueAfterLogin` approval. Fresh URLs come from the
 * agent's `liveView` callable before the old ones expire, after every agent turn (so tabs it opened show), and
 * on Reload; a tool's `{ needsHumanLogin: url }` hand-off is shown too, and a closed session reads "Session ended.".
 */
import type { AgentClient } from "@runboard/client";
import type { ApprovalRequest, LiveViewHandOff, LiveViewMode } from "@runboard/protocol";
import { parseLiveViewSession } from "@runboard/protocol/view";
import { LiveView, type UseAgentChatResult } from "@runboard/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { AGENT_HOST } from "./config.ts";

/**
 * Origins whose pages may be embedded: the agent's own host (the mock serves its pretend pages there) and
 * `VITE_LIVE_VIEW_ORIGINS` (comma-separated, e.g. your Browser Run live view origin) for a real agent.
 */
const ORIGINS = [
  `http://${AGENT_HOST}`,
  `https://${AGENT_HOST}`,
  ...(import.meta.env.VITE_LIVE_VIEW_ORIGINS ?? "")
    .split(",")
    .map((s: string) => s.trim())
    .filter(Boolean),
];

export function LiveViewPanel({
  agent,
  chat,
  approvals,
}: {
  agent: AgentClient<Record<string, unknown>>;
  chat: UseAgentChatResult;
  approvals: ApprovalRequest[];
}) {
  // The latest browser the agent opened in this conversation, or a tool's `{ needsHumanLogin: url }` hand-off.
  const output = useMemo(() => {
    for (const m of [...chat.messages].reverse())
      for (const p of [...m.parts].reverse()) {
        if (!p.type.startsWith("tool-") || !("output" in p) || p.output === undefined) continue;
        const o = p.output as { needsHumanLogin?: unknown } | null;
        if (p.type === "tool-openBrowser" || (typeof o === "object" && o?.needsHumanLogin !== undefined))
          return p.output;
      }
    return undefined;
  }, [chat.messages]);
  const session = useMemo(() => parseLiveViewSession(output), [output]);
  const refresh = useCallback(
    ({ mode }: { mode: LiveViewMode }) => agent.call<LiveViewHandOff | null>("liveView", [{ mode }]),
    [agent],
  );
  const turns = useFinishedTurns(chat.status);
  // Still offered while the decision travels, so the button shows "pending" instead of vanishing mid-press.
  const pending = approvals.find(
    (r) => r.name === "continueAfterLogin" && (r.status === "requested" || r.status === "submitting"),
  );
  if (!session) return null;
  return (
    <LiveView.Root
      session={session}
      refresh={refresh}
      refreshKey={turns}
      allowedOrigins={ORIGINS}
      allowLoopbackHttp={import.meta.env.DEV}
      onContinue={pending ? () => pending.decide({ approved: true }) : undefined}
      aria-label="The agent's browser"
      className="panel lv"
    >
      <h2>The agent's browser</h2>
      <div className="lv-toolbar">
        <LiveView.ModeSwitch className="lv-modes" />
        <LiveView.TakeOver />
        <LiveView.Continue className="primary" />
        <LiveView.OpenInNewTab className="lv-open" />
        <LiveView.Reload />
      </div>
      <LiveView.TabList className="lv-tabs" />
      <LiveView.Panels>
        {() => (
          <LiveView.Panel className="lv-panel">
            <LiveView.Frame className="lv-frame" />
            <LiveView.Refused className="lv-refused" />
          </LiveView.Panel>
        )}
      </LiveView.Panels>
      <LiveView.Error className="lv-error" />
      <LiveView.Status className="muted lv-status" />
    </LiveView.Root>
  );
}

/** How many agent turns have finished on this page: it goes up each time the chat stops being busy. */
function useFinishedTurns(status: UseAgentChatResult["status"]): number {
  const [turns, setTurns] = useState(0);
  const busy = status === "submitted" || status === "streaming";
  const wasBusy = useRef(busy);
  useEffect(() => {
    if (wasBusy.current && !busy) setTurns((n) => n + 1);
    wasBusy.current = busy;
  }, [busy]);
  return turns;
}
