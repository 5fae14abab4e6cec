/**
 * The Live View of the browser the agent opened (the `openBrowser` tool's output): watch it, take over to sign
 * in, then "Done, continue" answers the agent's pending `continueAfterLogin` approval. Fresh URLs come from the
 * agent's `liveView` callable before the old ones expire.
 */
import type { AgentClient } from "@runboard/client";
import {
  type ApprovalRequest,
  type LiveViewMode,
  type LiveViewSession,
  parseLiveViewSession,
} from "@runboard/protocol";
import { LiveView, type UseAgentChatResult } from "@runboard/react";
import { useCallback, useMemo } from "react";
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
  // The latest browser the agent opened in this conversation.
  const output = useMemo(() => {
    for (const m of [...chat.messages].reverse())
      for (const p of [...m.parts].reverse())
        if (p.type === "tool-openBrowser" && "output" in p && p.output !== undefined) return p.output;
    return undefined;
  }, [chat.messages]);
  const session = useMemo(() => parseLiveViewSession(output), [output]);
  const refresh = useCallback(
    ({ mode }: { mode: LiveViewMode }) => agent.call<LiveViewSession>("liveView", [{ mode }]),
    [agent],
  );
  // Still offered while the decision travels, so the button shows "pending" instead of vanishing mid-press.
  const pending = approvals.find(
    (r) => r.name === "continueAfterLogin" && (r.status === "requested" || r.status === "submitting"),
  );
  if (!session) return null;
  return (
    <LiveView.Root
      session={session}
      refresh={refresh}
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
