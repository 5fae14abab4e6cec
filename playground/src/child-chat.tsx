/** Drill-in: a helper's own chat, opened under the parent agent and closed when the panel closes. */
import type { AgentToolRunState as Run } from "@runboard/protocol";
import { useChildChat } from "@runboard/react";
import { useEffect, useRef } from "react";
import { AGENT_CLASS, AGENT_HOST, AGENT_NAME } from "./config.ts";

const parent = { agent: AGENT_CLASS, name: AGENT_NAME, host: AGENT_HOST };

export function ChildChatPanel({ run, onClose }: { run: Run; onClose: () => void }) {
  const child = useChildChat(parent, run);
  const title = run.display?.name ?? run.agentType;
  const panel = useRef<HTMLElement>(null);
  // Opened from the tray, possibly far from where the person is looking (above the conversation on a phone).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per run opened.
  useEffect(() => {
    panel.current?.scrollIntoView?.({ block: "nearest" });
  }, [run.runId]);
  return (
    <section ref={panel} className="panel child-chat" aria-label={`${title}'s chat`}>
      <h2>
        {title}'s chat{" "}
        <button type="button" className="ghost" onClick={onClose}>
          Close
        </button>
      </h2>
      <p className="muted">
        <code>
          {run.subAgent.agent} / {run.subAgent.name}
        </code>
      </p>
      {child?.snapshot.messages.map((m) => (
        <article key={m.id} data-role={m.role} aria-label={m.role === "user" ? "Task" : title}>
          {m.parts.map((p, i) =>
            p.type === "text" ? (
              // Text parts have no ids; a message's parts are only ever appended.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above.
              <p key={i}>{p.text}</p>
            ) : null,
          )}
        </article>
      ))}
    </section>
  );
}
