/**
 * Linking to a run in the tray from elsewhere on the page: a detached dispatch's tool output
 * (`{ runId, status }`, docs/protocol.md#concurrency-limit) becomes `RunTray.Link`, which asks the trays on the
 * page to show that run. The tray holding it opens, scrolls the item into view and focuses it. Items have a
 * stable `id` from their run id, so a plain `href="#…"` finds them too.
 */
import type { AgentToolRunState } from "@runboard/protocol";
import { type DetachedDispatch, detachedDispatchOf, runTitle } from "@runboard/protocol/view";
import { type MouseEvent, useEffect, useState } from "react";
import { composeEventHandlers, dataFlag, type PrimitiveProps, renderPart } from "../primitives/index.ts";

const FOCUS_EVENT = "runboard:focus-run";

/**
 * The `id` of the tray item showing `runId` (stable: the same on every render and page). Total and one-to-one
 * over any string the wire can carry (issue 26 §3): letters, digits and `-.!~*'()` stay, every other UTF-8 byte
 * becomes `_XX`, and a lone surrogate (valid JSON, but `encodeURIComponent` throws on it) is written as the
 * three bytes WTF-8 gives it, which no well-formed text produces. `_` itself is escaped, so no two run ids share
 * an element id.
 */
export function runTrayItemId(runId: string): string {
  return `rb-run-${runId.replace(ESCAPED, escapeForId)}`;
}

/** A whole code point outside the kept set, or a surrogate that has no partner. */
const ESCAPED = /[\uD800-\uDBFF][\uDC00-\uDFFF]|[^A-Za-z0-9\-.!~*'()]/g;

function escapeForId(ch: string): string {
  const unit = ch.charCodeAt(0);
  if (ch.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
    return `_ED_${(0xa0 | ((unit >> 6) & 0x1f)).toString(16).toUpperCase()}_${(0x80 | (unit & 0x3f)).toString(16).toUpperCase()}`;
  }
  // encodeURIComponent keeps `_`; escape it so `_25` (an id) and `%` (another) stay apart.
  return ch === "_" ? "_5F" : encodeURIComponent(ch).replace(/%/g, "_");
}

/** Asks the trays on the page to show `runId`; true when one holds it (and opens, scrolls, focuses it). */
export function focusRunInTray(runId: string): boolean {
  if (typeof document === "undefined") return false;
  const event = new CustomEvent<{ runId: string }>(FOCUS_EVENT, { detail: { runId }, cancelable: true });
  // A tray holding the run cancels the event: that is how the link knows it was found.
  return !document.dispatchEvent(event);
}

/**
 * Used by `RunTray.Root`: answers focus requests for its runs by opening (when closed) and, once the item is
 * rendered, scrolling it into view and focusing it.
 */
export function useTrayFocusRequests(
  runs: readonly AgentToolRunState[],
  open: boolean,
  setOpen: (o: boolean) => void,
) {
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => {
    const onRequest = (e: Event) => {
      const { runId } = (e as CustomEvent<{ runId: string }>).detail;
      if (!runs.some((r) => r.runId === runId)) return;
      e.preventDefault();
      if (!open) setOpen(true);
      setPending(runId);
    };
    document.addEventListener(FOCUS_EVENT, onRequest);
    return () => document.removeEventListener(FOCUS_EVENT, onRequest);
  }, [runs, open, setOpen]);
  useEffect(() => {
    if (pending === null || !open) return;
    const el = document.getElementById(runTrayItemId(pending));
    if (!el) return;
    setPending(null);
    el.scrollIntoView?.({ block: "nearest" });
    el.focus();
  });
}

/** Props of `RunTray.Link`. */
export interface RunTrayLinkProps extends PrimitiveProps<"button"> {
  /** A detached dispatch's tool output (`{ runId, status }`); read with `detachedDispatchOf`. */
  output?: unknown;
  /** The run to show, when you have its id already. Wins over `output`. */
  runId?: string;
  /** Names the run in the default text ("Show Researcher in background runs"). */
  run?: Pick<AgentToolRunState, "agentType" | "display">;
}

/**
 * A button that shows the run in the tray: opens the tray holding it, scrolls to the item and focuses it.
 * Nothing when the output is not a dispatch answer. `data-status` (`running`, or `error` for a refused
 * dispatch), `data-run-id`; `data-missing` after a click no tray answered (the run is not listed).
 */
export function Link({ output, runId: runIdProp, run, onClick, children, ...props }: RunTrayLinkProps) {
  const dispatch: DetachedDispatch | null =
    runIdProp !== undefined ? { runId: runIdProp, status: "running" } : detachedDispatchOf(output);
  const [missing, setMissing] = useState(false);
  if (!dispatch) return null;
  const name = run ? runTitle(run) : (dispatch.agentType ?? "the run");
  return renderPart("button", {
    "data-rb-part": "RunTray.Link",
    type: "button",
    "data-status": dispatch.status,
    "data-run-id": dispatch.runId,
    "data-missing": dataFlag(missing),
    children: children ?? `Show ${name} in background runs`,
    ...props,
    onClick: composeEventHandlers(onClick, (_e: MouseEvent<HTMLButtonElement>) =>
      setMissing(!focusRunInTray(dispatch.runId)),
    ),
  });
}
Link.displayName = "RunTray.Link";
