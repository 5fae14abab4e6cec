/**
 * The error `Event` of a connection, as `useAgent`'s `onError` gets it: the official hook passes the socket's
 * `error` event, so handlers written for it take an `Event`; the kit's own reports (a malformed frame, an RPC
 * reply nobody waits for, a listener's exception, a terminal close) arrive as the same kind of event.
 */

/**
 * An error as an `Event` of type `error` (shaped as partysocket's `ErrorEvent`, which the official hook passes):
 * a handler typed `(event: Event) => void` takes it, and `error` / `message` say what went wrong.
 */
export interface AgentErrorEvent extends Event {
  /** What went wrong: the kit's report, or the socket's error (`WebSocket error` when the socket gave none). */
  readonly error: Error;
  /** `error.message`. */
  readonly message: string;
}

/**
 * `from` as an `AgentErrorEvent`: an error is wrapped in a new `error` event; a socket's error event that
 * carries its error (partysocket's `ErrorEvent`, in Node) is returned as it is, and one that does not (a
 * browser's plain `Event`) is wrapped with a `WebSocket error`.
 */
export function toAgentErrorEvent(from: Error | Event): AgentErrorEvent {
  if (from instanceof Error) return errorEvent(from);
  const e = from as Event & { error?: unknown; message?: unknown };
  if (e.error instanceof Error && typeof e.message === "string") return e as AgentErrorEvent;
  return errorEvent(new Error(typeof e.message === "string" && e.message ? e.message : "WebSocket error"));
}

function errorEvent(error: Error): AgentErrorEvent {
  const event = new Event("error");
  Object.defineProperties(event, {
    error: { value: error, enumerable: true },
    message: { value: error.message, enumerable: true },
  });
  return event as AgentErrorEvent;
}
