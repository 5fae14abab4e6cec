import { describe, expect, it } from "vitest";
import type { AgentToolRunState } from "./agent-tool-runs.ts";
import { humanizeToolName, runSummaryText, toolInputGist, toolStatus } from "./tool-status.ts";

describe("toolStatus: a tool part's state in a person's words", () => {
  it("names every wire state", () => {
    expect(toolStatus({ state: "input-streaming" })).toEqual({ kind: "running", label: "Running…" });
    expect(toolStatus({ state: "input-available" })).toEqual({ kind: "running", label: "Running…" });
    expect(toolStatus({ state: "approval-requested" })).toEqual({
      kind: "waiting",
      label: "Waiting for approval",
    });
    expect(toolStatus({ state: "output-available" })).toEqual({ kind: "done", label: "Done" });
    expect(toolStatus({ state: "output-error", errorText: "Invoice service returned 503" })).toEqual({
      kind: "failed",
      label: "Failed: Invoice service returned 503",
    });
    expect(toolStatus({ state: "output-denied" })).toEqual({ kind: "denied", label: "Denied" });
  });

  it("a client tool with its input waits for the person, not the server", () => {
    expect(toolStatus({ state: "input-available" }, { clientTool: true }).label).toBe("Waiting for you");
    expect(toolStatus({ state: "output-available" }, { clientTool: true }).label).toBe("Done");
  });

  it("an approved call runs; a denied one says why; a preliminary output is not done", () => {
    expect(toolStatus({ state: "approval-responded", approval: { id: "a", approved: true } }).label).toBe(
      "Running…",
    );
    expect(
      toolStatus({ state: "approval-responded", approval: { id: "a", approved: false, reason: " x " } }),
    ).toEqual({ kind: "denied", label: "Denied: x" });
    expect(toolStatus({ state: "output-denied", approval: { id: "a", reason: "Wrong amount" } }).label).toBe(
      "Denied: Wrong amount",
    );
    expect(toolStatus({ state: "output-available", preliminary: true }).label).toBe("Running…");
  });

  it("an agent tool's call with its output says how its child runs ended", () => {
    const run = (status: AgentToolRunState["status"], name?: string) => ({
      status,
      agentType: "Verifier",
      ...(name ? { display: { name } } : {}),
    });
    const done = { state: "output-available" };
    expect(toolStatus(done, { runs: [run("completed")] }).label).toBe("Done");
    expect(toolStatus(done, { runs: [run("completed"), run("running")] }).label).toBe("Running…");
    expect(toolStatus(done, { runs: [run("completed"), run("error")] })).toEqual({
      kind: "failed",
      label: "Failed: Verifier failed",
    });
    expect(toolStatus(done, { runs: [run("interrupted", "Crawler")] }).label).toBe("Crawler was interrupted");
    expect(toolStatus(done, { runs: [run("aborted")] })).toEqual({
      kind: "denied",
      label: "Verifier was cancelled",
    });
    // Before the output, the part's own state speaks.
    expect(toolStatus({ state: "input-available" }, { runs: [run("error")] }).label).toBe("Running…");
  });

  it("an error without text, and a state it does not know, still read as words", () => {
    expect(toolStatus({ state: "output-error", errorText: "  " }).label).toBe("Failed");
    expect(toolStatus({ state: "something-new" }).label).toBe("Running…");
    expect(toolStatus({}).label).toBe("Running…");
  });
});

describe("humanizeToolName", () => {
  it("splits camelCase, snake_case and kebab-case into words, keeping acronyms", () => {
    expect(humanizeToolName("processPayment")).toBe("Process payment");
    expect(humanizeToolName("getWeather")).toBe("Get weather");
    expect(humanizeToolName("AgentTool")).toBe("Agent tool");
    expect(humanizeToolName("get_user_ID")).toBe("Get user ID");
    expect(humanizeToolName("fetchHTMLPage")).toBe("Fetch HTML page");
    expect(humanizeToolName("open-browser")).toBe("Open browser");
    expect(humanizeToolName("")).toBe("");
  });
});

describe("toolInputGist", () => {
  it("takes the first plain values in order, skipping nested ones", () => {
    expect(toolInputGist({ amount: 250, recipient: "ACME" })).toBe("250, ACME");
    expect(toolInputGist({ filters: { a: 1 }, query: "durable objects", page: 2, extra: "x" })).toBe(
      "durable objects, 2",
    );
    expect(toolInputGist({ a: 1, b: 2, c: 3 }, 3)).toBe("1, 2, 3");
  });

  it("cuts long strings, folds whitespace, and says nothing for nothing plain", () => {
    expect(toolInputGist({ q: `a\n  b ${"x".repeat(60)}` })).toHaveLength(40);
    expect(toolInputGist({ q: "a\n  b" })).toBe("a b");
    expect(toolInputGist({})).toBe("");
    expect(toolInputGist(undefined)).toBe("");
    expect(toolInputGist([1, 2])).toBe("");
    expect(toolInputGist({ nested: [1] })).toBe("");
    expect(toolInputGist("just text")).toBe("just text");
  });

  it("reads a string holding a JSON object by its values (a child's task is its parent's input as JSON)", () => {
    expect(toolInputGist({ topic: '{\n  "query": "durable objects"\n}' })).toBe("durable objects");
    expect(toolInputGist('{"query":"queues","page":2}')).toBe("queues");
    expect(toolInputGist({ q: "{not json}" })).toBe("{not json}");
  });
});

describe("runSummaryText: the summary agents glues from text parts reads as paragraphs", () => {
  const run = (summary: string | undefined, texts: string[]) =>
    ({
      summary,
      parts: texts.flatMap((text, i) => [
        { type: "text", text },
        ...(i === 0 ? [{ type: "tool-gatherSources", toolCallId: "t", state: "output-available" }] : []),
      ]),
    }) as unknown as Pick<AgentToolRunState, "summary" | "parts">;

  it("splits a summary that is the run's text parts glued together", () => {
    const r = run("Researching now.Summary: found 2 sources", [
      "Researching now.",
      "Summary: found 2 sources",
    ]);
    expect(runSummaryText(r)).toBe("Researching now.\n\nSummary: found 2 sources");
  });

  it("matches the tail of the transcript (the last answer), not only the whole", () => {
    const r = run("Second.Third.", ["First.", "Second.", "Third."]);
    expect(runSummaryText(r)).toBe("Second.\n\nThird.");
  });

  it("leaves any other summary as it is", () => {
    expect(runSummaryText(run("Found 3 broken links.", ["Crawling.", "Done."]))).toBe(
      "Found 3 broken links.",
    );
    expect(runSummaryText(run("Only one.", ["Only one."]))).toBe("Only one.");
    expect(runSummaryText(run(undefined, ["a", "b"]))).toBe("");
    expect(runSummaryText(run("ab", []))).toBe("ab");
  });
});
