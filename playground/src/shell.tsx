/**
 * The page's header: which agent this is, whether the connection is up (a status pill read out politely when it
 * changes), the link to the helix view and the light / dark / system switch.
 */
import type { AgentClient } from "@runboard/client";
import { useEffect, useRef, useState } from "react";
import { applyTheme, readTheme, type ThemeChoice } from "./theme.ts";

/** What the pill says: the socket's status, with "reconnecting" for a connection that was up before. */
export type ConnectionPhase = "connecting" | "open" | "reconnecting" | "closed";

const LABEL: Record<ConnectionPhase, string> = {
  connecting: "Connecting…",
  open: "Connected",
  reconnecting: "Reconnecting…",
  closed: "Disconnected",
};

/** The socket's status as a person reads it: a second "connecting" after an open one is a reconnect. */
export function useConnectionPhase(status: AgentClient["status"]): ConnectionPhase {
  const wasOpen = useRef(false);
  if (status === "open") wasOpen.current = true;
  if (status === "connecting" && wasOpen.current) return "reconnecting";
  return status;
}

export interface AppHeaderProps {
  agentClass: string;
  agentName: string;
  host: string;
  status: AgentClient["status"];
  /** True while the agent answers: shown as a quiet "answering…" beside the pill. */
  busy: boolean;
}

export function AppHeader({ agentClass, agentName, host, status, busy }: AppHeaderProps) {
  const phase = useConnectionPhase(status);
  return (
    <header className="app-header">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <h1>
          Runboard <span className="brand-sub">playground</span>
        </h1>
      </div>
      <div className="agent-id" title={`ws://${host}`}>
        <span className="agent-name">
          {agentClass} <span className="agent-sep">/</span> {agentName}
        </span>
        <span className="agent-host">{host}</span>
      </div>
      {/* The pill is the live region: a drop and a reconnect are announced, not only coloured. */}
      <span
        role="status"
        aria-live="polite"
        aria-label={`Connection: ${LABEL[phase]}`}
        className="conn-pill"
        data-status={status}
        data-phase={phase}
      >
        <span className="conn-dot" aria-hidden="true" />
        {LABEL[phase]}
      </span>
      {busy && status === "open" && <span className="answering">answering…</span>}
      <nav className="header-links" aria-label="Views">
        <a href="?view=helix">Helix view</a>
      </nav>
      <ThemeSwitch />
    </header>
  );
}

const CHOICES: { value: ThemeChoice; label: string; glyph: string }[] = [
  { value: "light", label: "Light", glyph: "☀" },
  { value: "dark", label: "Dark", glyph: "☾" },
  { value: "system", label: "System", glyph: "◐" },
];

/** Light / dark / system as three toggle buttons (one pressed); the choice is stored and set on <html>. */
export function ThemeSwitch() {
  const [choice, setChoice] = useState<ThemeChoice>(readTheme);
  useEffect(() => {
    applyTheme(choice);
  }, [choice]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form fieldset.
    <div role="group" aria-label="Colour scheme" className="theme-switch">
      {CHOICES.map((c) => (
        <button
          key={c.value}
          type="button"
          aria-pressed={choice === c.value}
          aria-label={c.label}
          title={c.label}
          onClick={() => setChoice(c.value)}
        >
          <span className="theme-glyph" aria-hidden="true">
            {c.glyph}
          </span>
          <span className="theme-label">{c.label}</span>
        </button>
      ))}
    </div>
  );
}
