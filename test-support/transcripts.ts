/**
 * Reading the recorded real-server transcripts (`fixtures/real-server/<host>/<scenario>.jsonl`), the one
 * reader every package's tests use.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** One line of a recorded transcript: a frame in or out on a connection, or a connection event. */
export interface TranscriptLine {
  t: number;
  conn: string;
  dir: "in" | "out" | "event";
  raw?: string;
  event?: string;
  url?: string;
}

// From the repository root (vitest's root), so it also works where import.meta.url is not a file URL (jsdom).
const FIXTURES = join(process.cwd(), "test-support/fixtures/real-server");

/** Reads `<host>/<name>.jsonl` (the path under the fixtures folder). */
export function readTranscript(file: string): TranscriptLine[] {
  return readFileSync(join(FIXTURES, file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as TranscriptLine);
}

/** One scenario's transcript on one host. */
export function loadTranscript(host: "ai-chat" | "think", scenario: string): TranscriptLine[] {
  return readTranscript(`${host}/${scenario}.jsonl`);
}
