/**
 * The same chat written with the hooks alone (no components): what an app switching from the official
 * hooks would ship. `./kit.ts` is the only import that names a package, so the bundle benchmark can build
 * this very file against `@runboard/react` or against the official `agents/react` + `@cloudflare/ai-chat/react`.
 */
import { type FormEvent, StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { useAgent, useAgentChat, useAgentToolEvents } from "./kit.ts";

function Chat() {
  const agent = useAgent({ agent: "ChatAgent", name: "bench", host: "127.0.0.1:8787" });
  const chat = useAgentChat({ agent });
  const runs = useAgentToolEvents({ agent });
  const [draft, setDraft] = useState("");
  const send = (e: FormEvent) => {
    e.preventDefault();
    void chat.sendMessage({ text: draft });
    setDraft("");
  };
  return (
    <main>
      <p>{chat.status}</p>
      {chat.messages.map((m) => (
        <article key={m.id} data-role={m.role}>
          {m.parts.map((p, i) =>
            p.type === "text" ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts have no ids; a part never moves once shown.
              <p key={`${m.id}:${i}`}>{p.text}</p>
            ) : null,
          )}
        </article>
      ))}
      <ul>
        {Object.values(runs.runsById).map((r) => (
          <li key={r.runId}>
            {r.agentType}: {r.status}
          </li>
        ))}
      </ul>
      <form onSubmit={send}>
        <input value={draft} onChange={(e) => setDraft(e.target.value)} aria-label="Message" />
        <button type="submit">Send</button>
      </form>
    </main>
  );
}

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <Chat />
    </StrictMode>,
  );
