import type { AgentToolRunState, ApprovalRequest } from "@runboard/protocol";
import { MessageParts, type ToolPartProps } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import type { UIMessage } from "ai";
import { useState } from "react";
import { expect, within } from "storybook/test";

// `MessageParts` with its defaults: every kind of part a message carries, in order, unstyled. The data-* marks
// are the contract an app styles (docs/data-attributes.md).

const msg = (id: string, parts: unknown[], extra: Partial<UIMessage> = {}): UIMessage =>
  ({ id, role: "assistant", parts, ...extra }) as UIMessage;

/** A finished child run of the `research` call below. */
const childRun: AgentToolRunState = {
  runId: "run-1",
  agentType: "Researcher",
  parentToolCallId: "c-research",
  order: 0,
  status: "completed",
  parts: [{ type: "text", text: "Read four sources on queues." }],
  summary: "Queues are ordered per key.",
  milestones: [],
  subAgent: { agent: "Researcher", name: "run-1" },
};

/** The approval the `pay` call waits for. */
const payApproval: ApprovalRequest = {
  id: "chat:ap1",
  source: "chat",
  key: "ap1",
  toolCallId: "c-pay",
  name: "processPayment",
  arguments: { amount: 250, recipient: "ACME" },
  argumentsComplete: true,
  status: "requested",
  online: true,
  decide: () => true,
};

const everyKind = msg("a1", [
  { type: "step-start" },
  { type: "reasoning", text: "The user wants cats; search first." },
  { type: "text", text: "Here is what I found." },
  { type: "file", url: "https://files.example/cats.csv", mediaType: "text/csv", filename: "cats.csv" },
  { type: "source-url", sourceId: "s1", url: "https://docs.example/cats", title: "Cat facts" },
  { type: "source-document", sourceId: "s2", mediaType: "application/pdf", title: "Cat handbook" },
  { type: "tool-search", toolCallId: "c1", state: "input-streaming", input: { q: "ca" } },
  { type: "tool-search", toolCallId: "c2", state: "input-available", input: { q: "cats" } },
  { type: "tool-search", toolCallId: "c3", state: "output-available", input: {}, output: "<b>3 cats</b>" },
  { type: "tool-search", toolCallId: "c4", state: "output-error", input: {}, errorText: "search is down" },
  { type: "tool-search", toolCallId: "c5", state: "output-denied", input: {} },
  {
    type: "tool-processPayment",
    toolCallId: "c-pay",
    state: "approval-requested",
    input: { amount: 250, recipient: "ACME" },
    approval: { id: "ap1" },
  },
  { type: "tool-getLocation", toolCallId: "c-loc", state: "input-available", input: {} },
  { type: "tool-research", toolCallId: "c-research", state: "output-available", input: {}, output: "raw" },
  { type: "text", text: "That is all." },
]);

/** The kind each top-level part rendered as, in order (`data-part`, and the tool's state). */
function kinds(root: HTMLElement): string[] {
  return [...root.querySelectorAll("[data-part]")]
    .filter((el) => !el.parentElement?.closest("[data-part]"))
    .map(
      (el) =>
        `${el.getAttribute("data-part")}${el.hasAttribute("data-status") ? `:${el.getAttribute("data-status")}` : ""}`,
    );
}

const meta: Meta<typeof MessageParts> = { title: "Components/MessageParts", component: MessageParts };
export default meta;
type Story = StoryObj<typeof MessageParts>;

export const EveryKind: Story = {
  name: "Every kind of part",
  args: {
    message: everyKind,
    runs: { runsByToolCallId: { "c-research": [childRun] } },
    approvals: [payApproval],
    clientTools: ["getLocation"],
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    expect(kinds(canvasElement)).toEqual([
      "reasoning",
      "text",
      "file",
      "source",
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
    // Tool output is shown as text, never as markup.
    expect(c.getByText("<b>3 cats</b>")).toBeVisible();
    expect(canvasElement.querySelector("b")).toBeNull();
    expect(c.getByRole("alert")).toHaveTextContent("search is down");
    expect(c.getByText("Denied")).toBeVisible();
    // The approval card sits under the call that asks; the client tool's prompt under its call.
    const pay = canvasElement.querySelector('[data-tool="processPayment"]') as HTMLElement;
    expect(within(pay).getByRole("button", { name: /Approve/ })).toBeEnabled();
    expect(
      canvasElement.querySelector('[data-tool="getLocation"] [data-part="client-tool-prompt"]'),
    ).not.toBeNull();
    // The child run replaces the raw output of the call that spawned it.
    const research = canvasElement.querySelector('[data-tool="research"]') as HTMLElement;
    expect(within(research).getByText("Queues are ordered per key.")).toBeVisible();
    expect(within(research).queryByText("raw")).toBeNull();
  },
};

export const ServerInjected: Story = {
  name: "A message the server injected",
  args: {
    message: {
      id: "detached-finish:run-7:completed",
      role: "user",
      metadata: {
        source: "detached-agent-tool",
        runId: "run-7",
        agentType: "Researcher",
        status: "completed",
      },
      parts: [
        {
          type: "text",
          text: 'Background task "Researcher" (run run-7) finished:\n\nQueues are ordered per key.',
        },
      ],
    } as UIMessage,
  },
  play: async ({ canvasElement }) => {
    // Shown as an agent event, not as words the user typed.
    const note = within(canvasElement).getByRole("note", { name: /^Background run finished/ });
    expect(note).toHaveAttribute("data-kind", "detached-completion");
    expect(canvasElement.querySelector('[data-part="text"]')).toBeNull();
  },
};

export const Compacted: Story = {
  name: "Shortened when the conversation was stored",
  args: {
    message: msg(
      "a2",
      [
        { type: "text", text: "[summary of the earlier answer]" },
        { type: "tool-search", toolCallId: "c-old", state: "output-available", input: {}, output: "[cut]" },
      ],
      { metadata: { compactedTextParts: [0], compactedToolOutputs: ["c-old"] } },
    ),
  },
  play: async ({ canvasElement }) => {
    expect(canvasElement.querySelector('[data-part="text"]')).toHaveAttribute("data-compacted", "");
    expect(canvasElement.querySelector('[data-part="tool"]')).toHaveAttribute("data-compacted", "");
    expect(
      within(canvasElement).getByText("Output shortened when the conversation was stored."),
    ).toBeVisible();
  },
};

/** Shows what `onError` was told, as an app's error log would. */
function WithErrors(props: { message: UIMessage }) {
  const [errors, setErrors] = useState<string[]>([]);
  return (
    <>
      <MessageParts message={props.message} onError={(e) => setErrors((all) => [...all, e.message])} />
      <ul aria-label="Reported">
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </>
  );
}

export const UnknownAndMalformed: StoryObj<typeof WithErrors> = {
  name: "Unknown and malformed parts",
  render: (args) => <WithErrors {...args} />,
  args: {
    message: msg("a3", [
      { type: "text", text: "Before." },
      { type: "future-widget", payload: 1 },
      { type: "text" },
      { type: "text", text: "After." },
    ]),
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    // Never dropped, never thrown: each goes to `Unknown`, and the order holds.
    expect(kinds(canvasElement)).toEqual(["text", "unknown", "unknown", "text"]);
    expect(canvasElement.querySelector('[data-part-type="future-widget"]')).not.toBeNull();
    // The malformed one is reported once; an unknown type is not an error.
    const reported = await c.findAllByRole("listitem");
    expect(reported).toHaveLength(1);
    expect(reported[0]).toHaveTextContent("part 2: a text part without text");
  },
};

function Weather({ state, inputText }: ToolPartProps) {
  return (
    <p data-part="tool" data-tool="getWeather" data-status={state}>
      Weather for {inputText}
    </p>
  );
}

export const ReplacedComponents: Story = {
  name: "Components replaced per kind",
  args: {
    message: msg("a4", [
      { type: "text", text: "quietly said" },
      {
        type: "tool-getWeather",
        toolCallId: "w1",
        state: "output-available",
        input: "Lisbon",
        output: "sunny",
      },
      { type: "tool-search", toolCallId: "s1", state: "input-available", input: { q: "x" } },
    ]),
    components: {
      Text: ({ part }) => <strong data-part="text">{part.text.toUpperCase()}</strong>,
      tools: { by_name: { getWeather: Weather } },
    },
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    expect(c.getByText("QUIETLY SAID")).toBeVisible();
    expect(c.getByText("Weather for Lisbon")).toBeVisible();
    // A tool without its own component still renders through the fallback.
    expect(canvasElement.querySelector('[data-tool="search"][data-status="input-available"]')).not.toBeNull();
  },
};
