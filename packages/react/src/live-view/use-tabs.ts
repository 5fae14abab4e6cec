/**
 * The tabs a Live View shows, derived from the latest session: the targets in an order that never moves a
 * frame, the URL each frame shows (the active one keeps its URL until it expires), whether the policy
 * allows it, and how each frame is loading.
 */
import type { ReceivedLiveViewSession } from "@runboard/client";
import {
  checkLiveViewUrl,
  type FrameLoad,
  type FrameSource,
  reconcileSources,
  sessionSources,
  stableOrder,
  targetLabel,
  targetState,
  visibleTargets,
} from "@runboard/protocol/view";
import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from "react";
import type { LiveViewTabInfo } from "./context.ts";
import type { EmbedPolicy } from "./embed-policy.ts";

const NO_SOURCES: ReadonlyMap<string, FrameSource> = new Map();
const NO_LOADS: ReadonlyMap<string, { src: string; load: Exclude<FrameLoad, "loading"> }> = new Map();

/** The tabs, the selected one, and how frames report loading. */
export interface LiveViewTabs {
  tabs: readonly LiveViewTabInfo[];
  active: LiveViewTabInfo | undefined;
  reportLoad: (targetId: string, src: string, load: Exclude<FrameLoad, "loading">) => void;
}

/** The tabs for `received`; `value` is the selected target id (an id not shown selects the first tab). */
export function useLiveViewTabs(
  received: ReceivedLiveViewSession | undefined,
  value: string | undefined,
  policy: EmbedPolicy,
): LiveViewTabs {
  // ── targets, in an order that never moves a frame ──
  const targets = useMemo(() => (received ? visibleTargets(received.session.targets) : []), [received]);
  const [order, setOrder] = useState<readonly string[]>(() => targets.map((t) => t.targetId));
  const nextOrder = stableOrder(
    order,
    targets.map((t) => t.targetId),
  );
  if (nextOrder !== order) setOrder(nextOrder);
  const byId = useMemo(() => new Map(targets.map((t) => [t.targetId, t])), [targets]);
  const activeId = value !== undefined && byId.has(value) ? value : nextOrder.find((id) => byId.has(id));

  // ── which URL each frame shows ──
  const latestSources = useMemo(
    () => (received ? sessionSources(received.session, received.mode, received.receivedAt) : NO_SOURCES),
    [received],
  );
  const [shownState, setShown] = useState<ReadonlyMap<string, FrameSource>>(latestSources);
  // Moves at the active URL's expiry: the frame swaps to a fresher URL then, or shows it expired.
  const [clock, setClock] = useState(() => Date.now());
  // Decided while rendering, so a swap and its expiry land in the same commit (no flash of "expired").
  const shown = useMemo(
    () => reconcileSources(shownState, latestSources, activeId, clock),
    [shownState, latestSources, activeId, clock],
  );
  useLayoutEffect(() => {
    if (shown !== shownState) setShown(shown);
  }, [shown, shownState]);
  const activeSource = activeId === undefined ? undefined : shown.get(activeId);
  useEffect(() => {
    if (!activeSource) return;
    const wait = activeSource.expiresAt - Date.now();
    if (wait <= 0) {
      setClock(Date.now());
      return;
    }
    const timer = setTimeout(() => setClock(Date.now()), wait);
    return () => clearTimeout(timer);
  }, [activeSource]);

  // ── how each frame is loading ──
  const [loads, setLoads] = useState(NO_LOADS);
  const reportLoad = useCallback((targetId: string, src: string, load: Exclude<FrameLoad, "loading">) => {
    setLoads((prev) => {
      const cur = prev.get(targetId);
      if (cur && cur.src === src && cur.load === load) return prev;
      const next = new Map(prev);
      next.set(targetId, { src, load });
      return next;
    });
  }, []);

  // ── the tabs ──
  const tabs = useMemo<LiveViewTabInfo[]>(() => {
    const out: LiveViewTabInfo[] = [];
    for (const id of nextOrder) {
      const target = byId.get(id);
      if (!target) continue;
      const index = out.length;
      const source = shown.get(id);
      const verdict = source ? checkLiveViewUrl(source.url, policy) : undefined;
      const src = verdict?.allowed ? verdict.url : undefined;
      const fresh = latestSources.get(id);
      const freshVerdict = fresh ? checkLiveViewUrl(fresh.url, policy) : undefined;
      const openUrl = freshVerdict?.allowed ? freshVerdict.url : src;
      const loaded = loads.get(id);
      const load: FrameLoad = loaded && src !== undefined && loaded.src === src ? loaded.load : "loading";
      const expired = source !== undefined && clock >= source.expiresAt;
      out.push({
        targetId: id,
        target,
        label: targetLabel(target, index),
        index,
        selected: id === activeId,
        state: source ? targetState({ allowed: verdict?.allowed === true, load, expired }) : "loading",
        mode: source?.mode,
        verdict,
        openUrl,
        src,
      });
    }
    return out;
  }, [nextOrder, byId, shown, latestSources, policy, loads, clock, activeId]);
  return { tabs, active: tabs.find((t) => t.selected), reportLoad };
}
