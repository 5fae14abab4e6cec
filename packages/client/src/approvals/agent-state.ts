/**
 * The agent's state as a store: the connection's own `state` when it keeps one (an `AgentClient` does), else
 * the last `cf_agent_state` frame seen on it (the official `useAgent` object reports state only through a
 * callback).
 */
import { readFrame } from "../frame-source.ts";
import { type CallableConnection, watchConnection } from "./connection.ts";

/** Follows one connection's agent state. Listens only while someone is subscribed. */
export class AgentStateStore {
  private seen: { value: unknown } | undefined;
  private readonly listeners = new Set<() => void>();
  private off: (() => void) | undefined;

  constructor(private readonly connection: CallableConnection) {}

  /** The state now: the connection's own, else the last state frame seen while subscribed. */
  getSnapshot = (): unknown => {
    const c = this.connection;
    return "state" in c && c.state !== undefined ? c.state : this.seen?.value;
  };

  /** Calls `fn` when the state (or the connection's status) may have changed. Returns the unsubscribe. */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    if (!this.off) this.off = this.listen();
    return () => {
      this.listeners.delete(fn);
      if (this.listeners.size === 0) {
        this.off?.();
        this.off = undefined;
      }
    };
  };

  private emit = () => {
    for (const fn of [...this.listeners]) fn();
  };

  private listen(): () => void {
    const c = this.connection;
    const onMessage = (e: Event) => {
      const parsed = readFrame(e as MessageEvent);
      if (parsed.kind === "frame" && parsed.frame.type === "cf_agent_state") {
        this.seen = { value: parsed.frame.state };
        this.emit();
      }
    };
    const unwatch = watchConnection(c, this.emit);
    c.addEventListener("message", onMessage);
    return () => {
      unwatch();
      c.removeEventListener("message", onMessage);
    };
  }
}
