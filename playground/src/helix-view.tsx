/**
 * The "helix" view (`?view=helix`): the mock's scripted helix-agents stream (SSE at `/helix/stream`) through
 * `useHelixRuns`, drawn with the same AgentToolRun cards as the chat's runs: the root agent's transcript, each
 * sub-agent call's run inside it, nested levels inside their caller. Persistent children (spawned through the
 * companion tools) are listed in a RunTray with Send message and Terminate, which post to the mock.
 */

import type { Part, ToolPartLike } from "@runboard/protocol";
import type { HelixRun, HelixRunsState } from "@runboard/protocol/helix";
import { toolValueText } from "@runboard/protocol/view";
import { AgentToolRun, HelixChild, RunTray, useHelixChildren, useHelixRuns } from "@runboard/react";
import { type ReactNode, useEffect, useState } from "react";
import { AGENT_HOST } from "./config.ts";
import { ThemeSwitch } from "./shell.tsx";
import { StatusIcon } from "./status-icon.tsx";
import { ToolCall } from "./tool-call.tsx";

const BASE = `http://${AGENT_HOST}`;
const cut = new URLSearchParams(window.location.search).get("cut");
const STREAM = `${BASE}/helix/stream${cut ? `?cut=${encodeURIComponent(cut)}` : ""}`;

const post = async (path: string, body: Record<string, unknown>) => {
  // JSON, as the mock requires of requests that act: the browser asks first (a preflight), and the mock says
  // yes to loopback pages only (mock-server/README.md#who-may-reach-the-server).
  const res = await fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
};

type Helix = ReturnType<typeof useHelixRuns>;

/** One agent's transcript part: text, a tool call, or a sub-agent call with its run below it. */
function HelixPart({ part, helix }: { part: Part; helix: Helix }): ReactNode {
  if (part.type === "text") return <p>{part.text}</p>;
  const p = part as Part & { toolCallId?: string; toolName?: string; state?: string; output?: unknown };
  if (typeof p.toolCallId !== "string") return null;
  const runs = helix.getRunsForToolCall(p.toolCallId);
  if (runs.length === 0)
    return (
      <ToolCall
        part={p as Part & ToolPartLike}
        toolName={p.toolName ?? ""}
        state={p.state ?? ""}
        outputText={toolValueText(p.output)}
        compacted={false}
        runs={[]}
      />
    );
  return runs.map((r) => <HelixRunCard key={r.runId} run={r} helix={helix} />);
}

function HelixRunCard({ run, helix }: { run: HelixRun; helix: Helix }) {
  // Controlled, so the tree stays open when a run completes (the uncontrolled root closes a completed run).
  const [open, setOpen] = useState(true);
  return (
    <AgentToolRun.Root store={helix.store} runId={run.runId} open={open} className="run-card">
      <AgentToolRun.Header className="run-header">
        <AgentToolRun.Icon className="run-icon">
          <StatusIcon status={run.status} />
        </AgentToolRun.Icon>
        <AgentToolRun.Title className="run-title" /> <span className="muted">called by {run.caller}</span>{" "}
        <AgentToolRun.Status className="badge" />
        <AgentToolRun.Trigger className="link" onClick={() => setOpen((o) => !o)}>
          Details
        </AgentToolRun.Trigger>
      </AgentToolRun.Header>
      <AgentToolRun.Content className="run-body">
        <AgentToolRun.Input />
        <AgentToolRun.Transcript>{(part) => <HelixPart part={part} helix={helix} />}</AgentToolRun.Transcript>
        <AgentToolRun.Result className="run-result" maxLines={4} maxLength={240} />
        <AgentToolRun.Error role="alert" />
        <AgentToolRun.Interrupted />
      </AgentToolRun.Content>
    </AgentToolRun.Root>
  );
}

/** The run tree as text, one line per part and run (what the page draws, for reading and for tests). */
export function helixTreeText(s: HelixRunsState): string {
  const lines = [`${s.root.agentType ?? "(no agent yet)"} [${s.root.status}]`];
  const walk = (parts: readonly Part[], depth: number) => {
    for (const part of parts as unknown as Record<string, unknown>[]) {
      const pad = "  ".repeat(depth);
      if (part.type === "text") lines.push(`${pad}"${part.text}"`);
      else if (typeof part.toolCallId === "string") {
        const runs = s.runsByToolCallId[part.toolCallId] ?? [];
        if (runs.length === 0) lines.push(`${pad}${part.toolName} (${part.state})`);
        for (const r of runs) {
          const end = r.error ? `: ${r.error}` : r.summary ? ` → ${r.summary.replace(/\s+/g, " ")}` : "";
          lines.push(`${pad}└ ${r.agentType} [${r.status}]${end}`);
          walk(r.parts, depth + 1);
        }
      }
    }
  };
  walk(s.root.parts, 1);
  return lines.join("\n");
}

export function HelixView() {
  const [errors, setErrors] = useState<string[]>([]);
  const helix = useHelixRuns({ url: STREAM, onError: (e) => setErrors((l) => [...l, e.message]) });
  const kids = useHelixChildren({
    onSendMessage: (c, message) =>
      post(`/helix/children/${encodeURIComponent(c.name ?? c.subSessionId)}/message`, { message }),
    onTerminate: (c) => post(`/helix/children/${encodeURIComponent(c.name ?? c.subSessionId)}/terminate`, {}),
    onError: (e) => setErrors((l) => [...l, e instanceof Error ? e.message : String(e)]),
  });
  const rootParts = helix.root.parts;
  // The companion tools' results (spawn, status, …) are what the children list is built from.
  useEffect(() => kids.store.applyToolParts(rootParts as never), [kids.store, rootParts]);
  return (
    <div className="layout">
      <header className="status-bar">
        <h1>Runboard playground: helix-agents stream</h1>
        <p>
          <code>{STREAM}</code> · root agent <strong>{helix.root.agentType ?? "…"}</strong> ·{" "}
          <strong aria-live="polite">{helix.root.status}</strong> · <a href="?">back to the chat</a>
        </p>
        <ThemeSwitch />
      </header>
      <main>
        <section aria-label="Run tree" className="helix-tree">
          {rootParts.map((part, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the root's parts are only ever appended.
            <HelixPart key={i} part={part} helix={helix} />
          ))}
        </section>
        {errors.length > 0 && (
          <ul aria-label="Stream errors">
            {errors.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: errors are only appended.
              <li key={i}>{e}</li>
            ))}
          </ul>
        )}
        <details>
          <summary>The tree as text</summary>
          <pre data-testid="helix-tree-text">{helixTreeText(helix)}</pre>
        </details>
      </main>
      <aside className="side">
        <RunTray.Root runs={kids.runs} defaultOpen aria-label="Persistent children" className="tray">
          <RunTray.Trigger className="tray-trigger">
            Persistent children <RunTray.Badge className="badge" />
          </RunTray.Trigger>
          <RunTray.List className="tray-list">
            <RunTray.Item className="tray-item">
              <RunTray.Title className="run-title" /> <RunTray.Status className="badge" />
              <RunTray.Summary />
              <RunTray.Error role="alert" />
              <HelixChild.SendMessage store={kids.store} className="actions" />
              <HelixChild.Terminate store={kids.store} />
            </RunTray.Item>
          </RunTray.List>
          <RunTray.Empty>No persistent children yet.</RunTray.Empty>
        </RunTray.Root>
      </aside>
    </div>
  );
}
