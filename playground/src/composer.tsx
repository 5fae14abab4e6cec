/**
 * The composer below the conversation: a growing text box (Enter sends, Shift+Enter breaks the line), Send and
 * Stop, and Regenerate and Clear as quieter actions. The suggestions offer the demo words while the chat is empty.
 */
import { type FormEvent, type KeyboardEvent, useLayoutEffect, useRef, useState } from "react";

export interface ComposerProps {
  /** Sending is possible (the connection is open). */
  canSend: boolean;
  streaming: boolean;
  canRegenerate: boolean;
  canClear: boolean;
  clearing: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  onRegenerate: () => void;
  onClear: () => void;
  /** Shown under the box (a failed clear). */
  error?: string | null;
}

/** The tallest the box grows before it scrolls, in lines. */
const MAX_LINES = 8;

export function Composer(p: ComposerProps) {
  const [draft, setDraft] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  // Grow with the text (up to MAX_LINES), so a long message is visible while it is written.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the height follows the draft.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = "auto";
    const line = Number.parseFloat(getComputedStyle(el).lineHeight) || 20;
    el.style.height = `${Math.min(el.scrollHeight, line * MAX_LINES + 16)}px`;
  }, [draft]);
  const send = (e?: FormEvent) => {
    e?.preventDefault();
    const text = draft.trim();
    if (!text || !p.canSend) return;
    p.onSend(text);
    setDraft("");
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends as in every chat app; not while an input method is composing a character.
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) send(e);
  };
  return (
    <form onSubmit={send} className="composer" aria-label="Compose">
      <div className="composer-box">
        <label htmlFor="draft" className="visually-hidden">
          Message
        </label>
        <textarea
          id="draft"
          ref={box}
          rows={1}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Message the agent…"
          title="Enter sends, Shift+Enter starts a new line"
          autoComplete="off"
        />
        <div className="composer-bar">
          <div className="composer-secondary">
            <button type="button" className="ghost" onClick={p.onRegenerate} disabled={!p.canRegenerate}>
              Regenerate
            </button>
            <button type="button" className="ghost" onClick={p.onClear} disabled={!p.canClear}>
              {p.clearing ? "Clearing…" : "Clear"}
            </button>
          </div>
          <div className="composer-primary">
            <button type="button" className="stop" onClick={p.onStop} disabled={!p.streaming}>
              Stop
            </button>
            <button type="submit" className="primary send" disabled={!p.canSend}>
              Send
            </button>
          </div>
        </div>
      </div>
      {p.error && <p role="alert">{p.error}</p>}
    </form>
  );
}

/** The demo words as buttons: one press sends the word. */
export function Suggestions({
  words,
  disabled,
  onPick,
}: {
  words: readonly string[];
  disabled: boolean;
  onPick: (word: string) => void;
}) {
  return (
    <section className="empty-state" aria-labelledby="empty-title">
      <h2 id="empty-title">Try the demo agent</h2>
      <p className="muted">
        Each suggestion runs a scripted scenario: approvals, sub-agent runs, background work, a live browser.
      </p>
      <ul className="suggestions" aria-label="Suggestions">
        {words.map((w) => (
          <li key={w}>
            <button type="button" className="suggestion" disabled={disabled} onClick={() => onPick(w)}>
              {w}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
