/** `MessageParts` as a person sees it: every kind in order, each replaceable, bad parts shown and reported. */
import type { AgentToolRunState, ApprovalRequest } from "@runboard/protocol";
import { cleanup, render, screen } from "@testing-library/react";
import type { UIMessage } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MessageParts } from "./message-parts.tsx";
import type { AgentToolRunPartProps, TextPartProps, ToolPartProps, UnknownPartProps } from "./types.ts";

afterEach(cleanup);

const msg = (parts: unknown[], extra: Partial<UIMessage> = {}): UIMessage =>
  ({ id: "a1", role: "assistant", parts, ...extra }) as UIMessage;

const run: AgentToolRunState = {
  runId: "r1",
  agentType: "Researcher",
  parentToolCallId: "c-research",
  order: 0,
  status: "completed",
  parts: [{ type: "text", text: "child says hi" }],
  summary: "found it",
  milestones: [],
  subAgent: { agent: "Researcher", name: "r1" },
};

const approval: ApprovalRequest = {
  id: "chat:ap1",
  source: "chat",
  key: "ap1",
  toolCallId: "c-pay",
  name: "pay",
  arguments: { amount: 5 },
  argumentsComplete: true,
  status: "requested",
  online: true,
  decide: () => true,
};

const everyKind = msg([
  { type: "step-start" },
  { type: "reasoning", text: "thinking it over" },
  { type: "text", text: "first words" },
  { type: "file", url: "https://x.test/a.png", mediaType: "image/png", filename: "a.png" },
  { type: "source-url", sourceId: "s", url: "https://docs.test/", title: "The docs" },
  { type: "tool-search", toolCallId: "c1", state: "input-streaming", input: { q: "ca" } },
  { type: "tool-search", toolCallId: "c2", state: "input-available", input: { q: "cats" } },
  { type: "tool-search", toolCallId: "c3", state: "output-available", input: {}, output: "<b>3 cats</b>" },
  { type: "tool-search", toolCallId: "c4", state: "output-error", input: {}, errorText: "search is down" },
  { type: "tool-search", toolCallId: "c5", state: "output-denied", input: {} },
  {
    type: "tool-pay",
    toolCallId: "c-pay",
    state: "approval-requested",
    input: { amount: 5 },
    approval: { id: "ap1" },
  },
  { type: "tool-getLocation", toolCallId: "c-loc", state: "input-available", input: {} },
  { type: "tool-research", toolCallId: "c-research", state: "output-available", input: {}, output: "raw" },
  { type: "text", text: "last words" },
]);

const Weather = ({ toolName, state }: ToolPartProps) => (
  <span data-testid="weather">
    {toolName} {state}
  </span>
);
const Fallback = ({ toolName }: ToolPartProps) => <span data-testid="other-tool">{toolName}</span>;

const Shout = ({ part }: TextPartProps) => <em>{part.text.toUpperCase()}</em>;
const UnknownType = ({ type }: UnknownPartProps) => <i data-testid="unknown">{type}</i>;

let cards = 0;
/** A child run card that stops an endless nesting with an error instead of hanging the test. */
function CountedRun({ run: r, renderPart }: AgentToolRunPartProps) {
  if (++cards > 5) throw new Error(`run ${r.runId} rendered inside itself`);
  return (
    <section aria-label="child run">
      {r.parts.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a transcript's parts keep their places.
        <div key={i}>{renderPart(p, i)}</div>
      ))}
    </section>
  );
}

/** The requests each approval card was given, by name (the many-calls test below). */
const seen: string[][] = [];
function SeenApproval({ requests }: { requests: readonly ApprovalRequest[] }) {
  seen.push(requests.map((r) => r.name));
  return null;
}

describe("MessageParts", () => {
  it("renders every kind of part, in order, with the defaults", () => {
    const { container } = render(
      <MessageParts
        message={everyKind}
        runs={{ runsByToolCallId: { "c-research": [run] } }}
        approvals={[approval]}
        clientTools={["getLocation"]}
      />,
    );
    const order = [...container.querySelectorAll("[data-part]")]
      .filter((el) => !el.parentElement?.closest("[data-part]"))
      .map(
        (el) =>
          `${el.getAttribute("data-part")}${el.getAttribute("data-status") ? `:${el.getAttribute("data-status")}` : ""}`,
      );
    expect(order).toEqual([
      "reasoning",
      "text",
      "file",
      "source",
      "tool:input-streaming",
      "tool:input-available",
      "tool:output-available",
      "tool:output-error",
      "tool:output-denied",
      "tool:approval-requested",
      "tool:input-available",
      "tool:output-available",
      "text",
    ]);
    // Tool output is text, never markup.
    expect(screen.getByText("<b>3 cats</b>")).toBeTruthy();
    expect(container.querySelector("b")).toBeNull();
    expect(screen.getByRole("alert").textContent).toBe("search is down");
    // The approval card sits in the tool that asks, the prompt in the client tool, the run in its tool call.
    const pay = container.querySelector('[data-tool="pay"]') as HTMLElement;
    expect(pay.querySelector("button")?.textContent).toBe("Approve");
    expect(
      container.querySelector('[data-tool="getLocation"] [data-part="client-tool-prompt"]'),
    ).not.toBeNull();
    const research = container.querySelector('[data-tool="research"]') as HTMLElement;
    expect(research.querySelector('[data-part="agent-tool-run"]')).not.toBeNull();
    // A child run shows its own result; the raw output is not repeated.
    expect(research.querySelector('[data-part="tool-output"]')).toBeNull();
    expect(screen.getByRole("link", { name: "The docs" }).getAttribute("href")).toBe("https://docs.test/");
  });

  it("links only http(s) files and sources (and this page's own blob: URLs), shows others as text (issue 26 §4)", () => {
    const own = `blob:${location.origin}/6d1c-own`;
    render(
      <MessageParts
        message={msg([
          {
            type: "file",
            url: "data:text/html,<script>alert(1)</script>",
            mediaType: "text/html",
            filename: "page.html",
          },
          { type: "file", url: "data:image/svg+xml,<svg onload='alert(1)'/>", mediaType: "image/svg+xml" },
          { type: "file", url: "javascript:alert(1)", mediaType: "text/plain", filename: "run.txt" },
          {
            type: "file",
            url: "blob:https://elsewhere.test/abc",
            mediaType: "image/png",
            filename: "theirs.png",
          },
          { type: "file", url: own, mediaType: "image/png", filename: "mine.png" },
          { type: "file", url: "https://x.test/a.png", mediaType: "image/png", filename: "a.png" },
          { type: "source-url", sourceId: "s1", url: "data:text/html,<b>x</b>", title: "Inline page" },
          { type: "source-url", sourceId: "s2", url: "http://docs.test/", title: "Docs" },
        ])}
      />,
    );
    const links = screen.getAllByRole("link").map((a) => [a.textContent, a.getAttribute("href")]);
    expect(links).toEqual([
      ["mine.png", own],
      ["a.png", "https://x.test/a.png"],
      ["Docs", "http://docs.test/"],
    ]);
    for (const name of ["page.html", "image/svg+xml", "run.txt", "theirs.png", "Inline page"])
      expect(screen.getByText(name).closest("a")).toBeNull();
  });

  it("marks invisible and reordering characters in a tool's name and input, as the approval card does (issue 26 §4)", () => {
    const { container } = render(
      <MessageParts
        message={msg([
          {
            type: "tool-pay",
            toolCallId: "c-pay",
            state: "approval-requested",
            input: { to: "pay\u00ADpal", file: "invoice\u202Eexe.txt" },
            approval: { id: "ap1" },
          },
          {
            type: "dynamic-tool",
            toolName: "send\u200Bmail",
            toolCallId: "c2",
            state: "input-available",
            input: "x\u2028y",
          },
        ])}
      />,
    );
    const inputs = [...container.querySelectorAll('[data-part="tool-input"]')].map((e) => e.textContent);
    expect(inputs[0]).toContain("pay⟨U+00AD⟩pal");
    expect(inputs[0]).toContain("invoice⟨U+202E⟩exe.txt");
    expect(inputs[0]).not.toMatch(/[\u00AD\u202E]/);
    expect(inputs[1]).toBe("x⟨U+2028⟩y");
    const names = [...container.querySelectorAll('[data-part="tool-name"]')].map((e) => e.textContent);
    expect(names).toEqual(["pay", "send⟨U+200B⟩mail"]);
  });

  it("shows a child run once when the child's own tool call has its parent's tool call id", () => {
    // Tool call ids are per agent: a child may call a tool "c1" from inside the run dispatched by "c1".
    const self: AgentToolRunState = {
      ...run,
      parentToolCallId: "c1",
      parts: [{ type: "tool-lookup", toolCallId: "c1", state: "input-available", input: {} }],
    };
    cards = 0;
    render(
      <MessageParts
        message={msg([{ type: "tool-research", toolCallId: "c1", state: "input-available", input: {} }])}
        runs={{ runsByToolCallId: { c1: [self] } }}
        components={{ AgentToolRun: CountedRun }}
      />,
    );
    expect(screen.getAllByRole("region", { name: "child run" })).toHaveLength(1);
    // The child's own tool call is still shown, inside the run.
    expect(screen.getByRole("region", { name: "child run" }).textContent).toContain("lookup");
  });

  it("shows an approval request beside its tool call in any state (a Think durable pause)", () => {
    const paused = { ...approval, id: "execution:e1", source: "execution" as const, toolCallId: "c-send" };
    const { container } = render(
      <MessageParts
        message={msg([{ type: "tool-send", toolCallId: "c-send", state: "input-available", input: {} }])}
        approvals={[paused]}
      />,
    );
    expect(container.querySelector('[data-tool="send"] button')?.textContent).toBe("Approve");
  });

  it("renders an injected message as an agent event, not as the agent's words", () => {
    const injected = msg([{ type: "text", text: "Researcher finished" }], {
      id: "detached-finish:r1:completed",
      metadata: { runId: "r1", status: "completed" },
    });
    render(<MessageParts message={injected} />);
    expect(screen.getByRole("note").textContent).toContain("Researcher finished");
  });

  it("uses the app's component per kind and per tool name, the defaults elsewhere", () => {
    const { container } = render(
      <MessageParts
        message={msg([
          { type: "text", text: "hello" },
          { type: "reasoning", text: "hmm" },
          { type: "tool-getWeather", toolCallId: "w", state: "output-available", input: {}, output: {} },
          { type: "tool-search", toolCallId: "s", state: "input-available", input: {} },
        ])}
        components={{
          Text: Shout,
          tools: { by_name: { getWeather: Weather }, Fallback },
        }}
      />,
    );
    expect(container.querySelector("em")?.textContent).toBe("HELLO");
    expect(container.querySelector('[data-part="reasoning"]')?.textContent).toBe("hmm");
    expect(screen.getByTestId("weather").textContent).toBe("getWeather output-available");
    expect(screen.getByTestId("other-tool").textContent).toBe("search");
  });

  it("renders unknown part types through the fallback instead of dropping them", () => {
    const onError = vi.fn();
    const { container } = render(
      <MessageParts
        message={msg([
          { type: "text", text: "before" },
          { type: "x-custom-widget", value: 1 },
          { type: "data-weather", data: { c: 20 } },
          { type: "text", text: "after" },
        ])}
        components={{ Unknown: UnknownType }}
        onError={onError}
      />,
    );
    expect(screen.getAllByTestId("unknown").map((el) => el.textContent)).toEqual([
      "x-custom-widget",
      "data-weather",
    ]);
    expect(container.textContent).toBe("beforex-custom-widgetdata-weatherafter");
    // Well-formed parts of a type nobody handles are not errors.
    expect(onError).not.toHaveBeenCalled();
  });

  it("shows malformed parts through the fallback and reports each once, however often it renders", () => {
    const onError = vi.fn();
    const bad = msg([
      { type: "text", text: "fine" },
      null,
      { type: "text", text: 42 },
      { type: "tool-search", state: "input-available" },
      { noType: true },
    ]);
    const view = render(<MessageParts message={bad} onError={onError} />);
    view.rerender(<MessageParts message={{ ...bad }} onError={onError} />);
    view.rerender(<MessageParts message={{ ...bad }} onError={onError} />);
    expect(view.container.querySelectorAll('[data-part="unknown"]')).toHaveLength(4);
    expect(view.container.querySelector('[data-part="text"]')?.textContent).toBe("fine");
    expect(onError).toHaveBeenCalledTimes(4);
    expect(onError.mock.calls.map(([e]) => (e as Error).message)).toEqual([
      "MessageParts: message a1: part 1: the part is not an object",
      "MessageParts: message a1: part 2: a text part without text",
      "MessageParts: message a1: part 3: a tool part without a toolCallId",
      "MessageParts: message a1: part 4: the part has no type",
    ]);
  });
});

describe("MessageParts: compaction and Think's injected turns (issue 16 §2/§3)", () => {
  it("marks a tool output and a text the server shortened when storing the message", () => {
    // agents' enforceRowSizeLimit: outputs cut, their call ids in metadata.compactedToolOutputs.
    const message = msg(
      [
        { type: "text", text: "[Text truncated for storage (5000 chars). First 500 chars: …]" },
        { type: "tool-search", toolCallId: "c1", state: "output-available", input: {}, output: "…" },
        { type: "tool-search", toolCallId: "c2", state: "output-available", input: {}, output: "ok" },
      ],
      { metadata: { compactedToolOutputs: ["c1"], compactedTextParts: [0] } },
    );
    const view = render(<MessageParts message={message} />);
    const tools = view.container.querySelectorAll('[data-part="tool"]');
    expect(tools[0]?.hasAttribute("data-compacted")).toBe(true);
    expect(tools[0]?.textContent).toContain("Output shortened when the conversation was stored.");
    expect(tools[1]?.hasAttribute("data-compacted")).toBe(false);
    expect(view.container.querySelector('[data-part="text"]')?.hasAttribute("data-compacted")).toBe(true);
  });

  it("reports malformed compaction marks once and renders the parts unmarked", () => {
    const onError = vi.fn();
    const message = msg([{ type: "tool-search", toolCallId: "c1", state: "output-available", output: 1 }], {
      metadata: { compactedToolOutputs: "c1" },
    });
    const view = render(<MessageParts message={message} onError={onError} />);
    view.rerender(<MessageParts message={{ ...message }} onError={onError} />);
    expect(view.container.querySelector('[data-part="tool"]')?.hasAttribute("data-compacted")).toBe(false);
    expect(onError.mock.calls.map(([e]) => (e as Error).message)).toEqual([
      "MessageParts: message a1: metadata.compactedToolOutputs must be a list of tool call ids",
    ]);
  });

  it("renders Think's user-role notify turn as an agent event, not as the user's words", () => {
    const notify: UIMessage = {
      id: "6f1c0a52-2c55-4a57-9a8e-1c2b3d4e5f60",
      role: "user",
      parts: [
        { type: "text", text: 'Background task "Researcher" (run 9k2Jx7Qa) finished:\n\nfound 2 sources' },
      ],
    };
    const view = render(<MessageParts message={notify} />);
    const note = screen.getByRole("note", { name: "Background run finished (Researcher)" });
    expect(note.getAttribute("data-run-id")).toBe("9k2Jx7Qa");
    expect(note.hasAttribute("data-inferred")).toBe(true);
    expect(view.container.querySelector('[data-part="text"]')).toBeNull();
  });

  it("gives each of many tool calls its approval requests without reading every request per part (issue 26 §2)", () => {
    const n = 300;
    let reads = 0;
    const approvals = Array.from({ length: n }, (_, i) => {
      const request = { ...approval, id: `chat:ap${i}`, key: `ap${i}`, name: `pay-${i}` } as ApprovalRequest;
      Object.defineProperty(request, "toolCallId", {
        enumerable: true,
        get: () => {
          reads++;
          return `c${i}`;
        },
      });
      return request;
    });
    const message = msg(
      Array.from({ length: n }, (_, i) => ({
        type: "tool-pay",
        toolCallId: `c${i}`,
        state: "approval-requested",
        input: { i },
        approval: { id: `ap${i}` },
      })),
    );
    seen.length = 0;
    render(<MessageParts message={message} approvals={approvals} components={{ Approval: SeenApproval }} />);
    expect(seen).toHaveLength(n);
    expect(seen[0]).toEqual(["pay-0"]);
    expect(seen[n - 1]).toEqual([`pay-${n - 1}`]);
    // Filtering the list per part read all 300 requests for each of the 300 parts.
    expect(reads).toBeLessThanOrEqual(n);
  });
});
