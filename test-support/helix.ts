/** Test doubles for the helix adapter's tests: an EventSource the test drives, and a SubSessionRef fixture. */

/** An `EventSource` stand-in: records every instance; `emit` delivers `message` / `error` events; `close` is seen. */
export class FakeEventSource {
  static made: FakeEventSource[] = [];
  closed = false;
  private fns: Record<string, ((e: { data?: unknown }) => void)[]> = {};
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  addEventListener(t: string, fn: (e: { data?: unknown }) => void) {
    this.fns[t] = [...(this.fns[t] ?? []), fn];
  }
  close() {
    this.closed = true;
  }
  emit(t: string, data?: unknown) {
    for (const fn of this.fns[t] ?? []) fn({ data });
  }
}

/** A persistent child's `SubSessionRef` as helix tracks it, named `name`. */
export const subSessionRef = (name: string, status = "running") => ({
  subSessionId: `p-agent-${name}`,
  agentType: "researcher",
  parentToolCallId: "c1",
  status,
  startedAt: 1,
  mode: "persistent",
  name,
});
