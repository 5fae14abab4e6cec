/**
 * Incremental decoders for the two ways a helix stream reaches a browser (docs/helix.md#streams): Server-Sent
 * Events (one chunk per event, its `data:` lines joined by newlines) and NDJSON (one chunk per line). Text is fed
 * in pieces as it arrives, cut anywhere; each call returns the chunk texts completed so far. Pure: no IO.
 */

/** A stream format `fromResponse` can read. */
export type HelixStreamFormat = "sse" | "ndjson";

/** Feeds text pieces in, gets complete chunk texts out; `end()` returns what the last piece left open. */
export interface HelixStreamDecoder {
  push(text: string): string[];
  end(): string[];
}

/** The format a response's `content-type` names: SSE for `text/event-stream`, else NDJSON. */
export function helixStreamFormat(contentType: string | null | undefined): HelixStreamFormat {
  return /^\s*text\/event-stream\b/i.test(contentType ?? "") ? "sse" : "ndjson";
}

/** A decoder for `format`. SSE comments, `event:` / `id:` / `retry:` lines and a `[DONE]` data line are skipped. */
export function createHelixStreamDecoder(format: HelixStreamFormat): HelixStreamDecoder {
  let rest = "";
  let data: string[] = [];
  const line = (raw: string, out: string[]) => {
    const l = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (format === "ndjson") {
      if (l.trim() !== "") out.push(l);
      return;
    }
    if (l === "") {
      // A blank line ends the event.
      const text = data.join("\n");
      data = [];
      if (text.trim() !== "" && text.trim() !== "[DONE]") out.push(text);
      return;
    }
    if (l.startsWith("data:")) data.push(l.slice(l.startsWith("data: ") ? 6 : 5));
  };
  return {
    push(text) {
      const out: string[] = [];
      const lines = (rest + text).split("\n");
      rest = lines.pop() ?? "";
      for (const l of lines) line(l, out);
      return out;
    },
    end() {
      const out: string[] = [];
      if (rest !== "") line(rest, out);
      rest = "";
      // An event the stream ended inside of still counts: its data lines all arrived.
      if (format === "sse") line("", out);
      return out;
    },
  };
}
