/**
 * Store notifications, coalesced: at most once per animation frame in browsers (a React commit per frame is
 * all a screen can show), or per `throttleMs`; `0` publishes every change at once. Elsewhere (Node, no
 * `requestAnimationFrame`) the default is every change. `flush()` publishes a pending change now: at the end
 * of a stream nothing else is coming, so waiting for the next frame would only add latency.
 */
export interface Notifier {
  /** Schedules a publish of the latest state. */
  (): void;
  /** Publishes a scheduled change now. */
  flush(): void;
}

/** A `Notifier` that calls `publish` at most once per animation frame, or per `throttleMs` (see above). */
export function coalesce(throttleMs: number | undefined, publish: () => void): Notifier {
  if (throttleMs === 0 || (throttleMs === undefined && typeof requestAnimationFrame !== "function"))
    return Object.assign(() => publish(), { flush() {} });
  let scheduled = false;
  let generation = 0;
  const notify = () => {
    if (scheduled) return;
    scheduled = true;
    const mine = ++generation;
    const run = () => {
      // A flush in between already published this change.
      if (!scheduled || mine !== generation) return;
      scheduled = false;
      publish();
    };
    if (throttleMs === undefined) requestAnimationFrame(run);
    else setTimeout(run, throttleMs);
  };
  return Object.assign(notify, {
    flush() {
      if (!scheduled) return;
      scheduled = false;
      generation++;
      publish();
    },
  });
}
