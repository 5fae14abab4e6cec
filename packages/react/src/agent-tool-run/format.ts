/** Small formats the run parts render with: a duration for `<time dateTime>` and React keys for parts. */

/** `PT1M5S`: an elapsed time for `<time dateTime>`. */
export function isoDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${sec || (!h && !m) ? `${sec}S` : ""}`;
}

/** A stable React key for a transcript part: tool parts by call id, others by type and position. */
export function partKey(part: { type: string; toolCallId?: unknown; id?: unknown }, index: number): string {
  if (typeof part.toolCallId === "string") return `tool:${part.toolCallId}`;
  if (typeof part.id === "string") return `${part.type}:${part.id}`;
  return `${part.type}#${index}`;
}
