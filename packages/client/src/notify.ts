/**
 * Store notifications, coalesced: at most once per animation frame in browsers (a React commit per frame is
 * all a screen can show), or per `throttleMs`; `0` publishes every change at once. Elsewhere (Node, no
 * `requestAnimationFrame`) the default is every change.
 */
export function coalesce(throttleMs: number | undefined, publish: () => void): () => void {
  if (throttleMs === 0 || (throttleMs === undefined && typeof requestAnimationFrame !== "function"))
    return publish;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    publish();
  };
  return () => {
    if (scheduled) return;
    scheduled = true;
    if (throttleMs === undefined) requestAnimationFrame(flush);
    else setTimeout(flush, throttleMs);
  };
}
