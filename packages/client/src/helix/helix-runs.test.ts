import { HELIX_DOCS_TRACE } from "@runboard/protocol/helix";
import { describe, expect, it, vi } from "vitest";
import { FakeEventSource } from "../../../../test-support/helix.ts";
import { HelixRuns } from "./index.ts";

const enc = new TextEncoder();
/** A response whose body arrives in the given pieces (cut anywhere, even inside a UTF-8 character). */
function responseOf(pieces: string[], type: string, open = false) {
  let pull: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      pull = c;
      for (const p of pieces) c.enqueue(enc.encode(p));
      if (!open) c.close();
    },
  });
  return { response: new Response(body, { headers: { "content-type": type } }), controller: () => pull };
}
const sse = (chunks: readonly unknown[]) => chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("");
const cut = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
const shape = (s: ReturnType<HelixRuns["getSnapshot"]>) =>
  Object.values(s.runsById).map((r) => `${r.agentType}:${r.status}:${r.depth}:${JSON.stringify(r.output)}`);

describe("HelixRuns", () => {
  it("reads the documented trace from an SSE response cut into 7-byte pieces", async () => {
    const runs = new HelixRuns({ throttleMs: 0 });
    const seen = vi.fn();
    runs.subscribe(seen);
    await runs.fromResponse(
      responseOf(cut(sse(HELIX_DOCS_TRACE), 7), "text/event-stream; charset=utf-8").response,
    );
    const s = runs.getSnapshot();
    expect(shape(s)).toEqual([
      'processor:completed:1:{"processed":"..."}',
      'sentiment:completed:2:{"sentiment":"positive"}',
    ]);
    expect(s.root).toMatchObject({ agentType: "orchestrator", status: "completed" });
    expect(seen).toHaveBeenCalled();
  });

  it("reads NDJSON, and a stream that ends mid-run leaves its runs interrupted", async () => {
    const errors: Error[] = [];
    const runs = new HelixRuns({ throttleMs: 0, onError: (e) => errors.push(e) });
    const body = `${HELIX_DOCS_TRACE.slice(0, 5)
      .map((c) => JSON.stringify(c))
      .join("\n")}\n{"type":"text_delta"}\n`;
    await runs.fromResponse(responseOf(cut(body, 11), "application/x-ndjson").response);
    expect(shape(runs.getSnapshot())).toEqual([
      "processor:interrupted:1:undefined",
      "sentiment:interrupted:2:undefined",
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      "helix chunk 'text_delta': text_delta chunk without an 'agentType'",
    ]);
  });

  it("reports each unknown chunk type once and keeps the chunks; a failed response is reported", async () => {
    const errors: string[] = [];
    const runs = new HelixRuns({ throttleMs: 0, onError: (e) => errors.push(e.message) });
    runs.apply({ type: "step", agentType: "a", n: 1 });
    runs.apply('{"type":"step","agentType":"a","n":2}');
    expect(runs.getSnapshot().root.parts).toHaveLength(2);
    await runs.fromResponse(new Response("nope", { status: 500 }));
    expect(errors).toEqual([
      "helix chunk type 'step' is unknown: kept as a data-helix-step part",
      "helix stream read failed: helix stream: HTTP 500",
    ]);
  });

  it("fromEventSource applies messages and ends at the first error, without reconnecting", () => {
    const runs = new HelixRuns({ throttleMs: 0, EventSource: FakeEventSource });
    runs.fromEventSource("http://127.0.0.1:1/helix");
    const src = FakeEventSource.made.at(-1) as FakeEventSource;
    for (const c of HELIX_DOCS_TRACE.slice(0, 3)) src.emit("message", JSON.stringify(c));
    src.emit("error");
    expect(src.closed).toBe(true);
    expect(shape(runs.getSnapshot())).toEqual(["processor:interrupted:1:undefined"]);
    src.emit("message", JSON.stringify(HELIX_DOCS_TRACE[3]));
    expect(Object.keys(runs.getSnapshot().runsById)).toHaveLength(1);
  });

  it("dispose stops a stream that is still open, at once", async () => {
    const runs = new HelixRuns({ throttleMs: 0 });
    const { response } = responseOf([sse(HELIX_DOCS_TRACE.slice(0, 2))], "text/event-stream", true);
    const reading = runs.fromResponse(response);
    await vi.waitFor(() => expect(Object.keys(runs.getSnapshot().runsById)).toHaveLength(1));
    runs.dispose();
    await reading;
    // Disposed, not ended: the run is left as it was, not sealed.
    expect(shape(runs.getSnapshot())).toEqual(["processor:running:1:undefined"]);
  });

  it("consume with an aborted signal stops reading and leaves the runs open for the next stream", async () => {
    const runs = new HelixRuns({ throttleMs: 0 });
    const abort = new AbortController();
    let release: () => void = () => {};
    async function* source() {
      yield HELIX_DOCS_TRACE[1];
      await new Promise<void>((r) => {
        release = r;
      });
      yield HELIX_DOCS_TRACE[2];
    }
    const reading = runs.consume(source(), abort);
    await vi.waitFor(() => expect(Object.keys(runs.getSnapshot().runsById)).toHaveLength(1));
    abort.abort();
    release();
    await reading;
    expect(shape(runs.getSnapshot())).toEqual(["processor:running:1:undefined"]);
    expect(runs.getSnapshot().runsById[Object.keys(runs.getSnapshot().runsById)[0] as string]?.parts).toEqual(
      [],
    );
  });
});
