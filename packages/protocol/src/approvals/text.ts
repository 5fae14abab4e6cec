/** What a card says about a request, as plain text: its announcement, and its arguments for a `<pre>`. */
import type { ApprovalRequest, ApprovalState } from "./request.ts";

/** The default announcement for a state ("" while requested, so nothing is read before anything happens). */
export function approvalStatusText(state: ApprovalState, request: Pick<ApprovalRequest, "outcome">): string {
  const o = request.outcome;
  const reason = o?.reason ? `: ${o.reason}` : "";
  switch (state) {
    case "requested":
      return "";
    case "submitting":
      return o?.approved === false ? "Denying…" : "Approving…";
    case "approved":
      return "Approved.";
    case "denied":
      return `Denied${reason}.`;
    case "answered-elsewhere":
      return o
        ? `Answered elsewhere: ${o.approved ? "approved" : `denied${reason}`}.`
        : "Answered elsewhere.";
    case "interrupted":
      return `The agent restarted or the connection dropped before ${o?.approved === false ? "the denial" : "the approval"} was applied. Decide again.`;
    case "expired":
      return "This request has expired.";
    case "offline":
      return "Offline. Approve and Deny come back when the connection does.";
  }
}

/**
 * Arguments as text for a `<pre>`: indented JSON; strings as they are. Never throws (cycles, BigInt), and never
 * produces markup: the caller renders it as text.
 */
export function formatArguments(args: unknown): string {
  if (args === undefined) return "";
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2) ?? String(args);
  } catch {
    return String(args);
  }
}
