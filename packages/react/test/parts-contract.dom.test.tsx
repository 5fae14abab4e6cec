/**
 * Every exported part against the component recipe (docs/component-recipe.md): rendered in a small fixture of
 * its root, each part renders exactly one element named by `data-rb-part`, forwards its ref and any prop
 * (`className`, `aria-*`, `data-testid`) to it, renders the child instead with `asChild`, and every `data-*`
 * attribute it puts on the DOM is listed for it in docs/data-attributes.md. A part that cannot follow a rule is
 * in `EXCEPTIONS` with the reason.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalRequest, MessageBranch } from "@runboard/protocol";
import { syncAgentToolRun } from "@runboard/protocol";
import { SYNC_AGENT_TOOL_CUT_AT } from "@runboard/protocol/view";
import { cleanup, render } from "@testing-library/react";
import type { UIMessage } from "ai";
import { createRef, type ReactElement, type ReactNode, useEffect } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { subSessionRef } from "../../../test-support/helix.ts";
import { makeRun } from "../../../test-support/runs.ts";
import { useHelixChildren } from "../src/helix/use-helix-runs.ts";
import * as api from "../src/index.ts";
import { ORIGIN, session } from "../src/live-view/live-view-fixtures.test.tsx";

const {
  AgentEvent,
  AgentToolRun,
  ApprovalCard,
  ApprovalQueue,
  BranchPicker,
  ChatStatus,
  HelixChild,
  LiveView,
  MilestoneTimeline,
  Progress,
  RunTray,
} = api;

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

type Props = Record<string, unknown>;
/** Renders the part under test with `props`, inside whatever root it needs. */
type Fixture = (props: Props) => ReactElement;

// ---- fixtures -------------------------------------------------------------------------------------------------

const milestones = [
  { name: "draft", sequence: 1, at: 1_000 },
  { name: "review", sequence: 2, at: 2_000 },
];
const running = makeRun({
  runId: "r1",
  progress: { fraction: 0.5, phase: "reading", message: "Reading 3 sources", data: { n: 3 }, at: 1_500 },
  milestones,
  inputPreview: { topic: "queues" },
});
const failed = makeRun({ runId: "r2", status: "error", error: "quota exceeded", retryable: true });
const interrupted = makeRun({
  runId: "r3",
  status: "interrupted",
  reason: "no-progress",
  childStillRunning: true,
});
const completed = makeRun({
  runId: "r4",
  status: "completed",
  summary: "Found 3 causes",
  parts: [{ type: "text", text: "Result text" } as never],
});

const runActions = { onRetry: () => {}, onReconnect: () => {}, onDrillIn: () => {}, onCancel: () => {} };

const inRun =
  (run = running, open = true) =>
  (node: ReactNode) => (
    <AgentToolRun.Root run={run} defaultOpen={open} {...runActions}>
      {node}
    </AgentToolRun.Root>
  );

const syncInput = { prompt: "Find why the build fails", tool_allowlist: ["Read", "Grep"], model: "small" };
const syncRunning = syncAgentToolRun({
  type: "tool-AgentTool",
  toolCallId: "c1",
  state: "input-available",
  input: syncInput,
} as never);
const syncCut = syncAgentToolRun({
  type: "tool-AgentTool",
  toolCallId: "c2",
  state: "output-available",
  input: syncInput,
  output: [{ type: "text", text: "x".repeat(SYNC_AGENT_TOOL_CUT_AT + 10) }],
} as never);

const inTray =
  (runs = [running, failed, interrupted, completed], item = 0) =>
  (node: ReactNode) => (
    <RunTray.Root runs={runs} defaultOpen {...runActions}>
      <RunTray.List>{runs.slice(item, item + 1).length ? <TrayItem>{node}</TrayItem> : null}</RunTray.List>
    </RunTray.Root>
  );
/** Renders `children` inside the first item only (the list renders one item per run). */
function TrayItem({ children }: { children: ReactNode }) {
  return <RunTray.Item>{children}</RunTray.Item>;
}

const request = (extra: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id: "chat:a1",
  source: "chat",
  key: "a1",
  toolCallId: "call-1",
  name: "processPayment",
  arguments: { amount: 250 },
  argumentsComplete: true,
  status: "requested",
  online: true,
  decide: () => true,
  summary: "Pay 250",
  risk: "high",
  permissions: ["payments:write"],
  expiresAt: Date.now() + 600_000,
  ...extra,
});
const inCard = (node: ReactNode, rootProps: Props = {}) => (
  <ApprovalCard.Root request={request()} aria-label="Payment" {...rootProps}>
    {node}
  </ApprovalCard.Root>
);
const inConfirm = (node: ReactNode) =>
  inCard(<ApprovalCard.Confirm>{node}</ApprovalCard.Confirm>, { defaultConfirmOpen: true });
const inQueue = (node: ReactNode) => (
  <ApprovalQueue.Root requests={[request(), request({ id: "chat:a2", key: "a2", toolCallId: "call-2" })]}>
    {node}
  </ApprovalQueue.Root>
);

const branch: MessageBranch = { userMessageId: "u1", index: 1, count: 3 } as MessageBranch;
const branchSource = { branches: new Map([["m1", branch]]), selectBranch: () => true };
const inPicker = (node: ReactNode) => (
  <BranchPicker.Root chat={branchSource} messageId="m1">
    {node}
  </BranchPicker.Root>
);

const chatStatus = {
  isRecovering: true,
  compaction: { summaries: 1, toolOutputs: 2 } as never,
  session: { phase: "idle", tokenEstimate: 10, tokenThreshold: 100 },
};
const inStatus = (node: ReactNode) => <ChatStatus.Root chat={chatStatus}>{node}</ChatStatus.Root>;

const milestoneMsg: UIMessage = {
  id: "detached-ms:run1:draft-ready",
  role: "assistant",
  metadata: { source: "detached-agent-tool", runId: "run1" },
  parts: [{ type: "text", text: "Draft ready" }],
};
const inEvent = (node: ReactNode) => <AgentEvent.Root message={milestoneMsg}>{node}</AgentEvent.Root>;

const inTimeline = (node: ReactNode) => (
  <MilestoneTimeline.Root milestones={milestones} expected={["draft", "review", "publish"]}>
    {node}
  </MilestoneTimeline.Root>
);

const inProgress = (node: ReactNode) => (
  <Progress.Root value={0.5} data={{ n: 1 }} aria-label="Work">
    {node}
  </Progress.Root>
);

const liveSession = session();
const inLive = (node: ReactNode, rootProps: Props = {}) => (
  <LiveView.Root
    session={liveSession}
    allowedOrigins={[ORIGIN]}
    aria-label="Browser"
    refresh={async () => liveSession}
    {...rootProps}
  >
    {node}
  </LiveView.Root>
);

function HelixItem({ children }: { children: (store: never) => ReactNode }) {
  const kids = useHelixChildren({ onTerminate: () => {}, onSendMessage: () => {} });
  useEffect(() => kids.store.setRefs([subSessionRef("researcher-1")] as never), [kids.store]);
  return (
    <RunTray.Root runs={kids.runs} defaultOpen>
      <RunTray.List>
        <RunTray.Item>{children(kids.store as never)}</RunTray.Item>
      </RunTray.List>
    </RunTray.Root>
  );
}

const el = (Part: unknown, props: Props) => {
  const C = Part as (p: Props) => ReactElement;
  return <C {...props} />;
};
/** A part rendered inside `wrap`. */
const inside =
  (wrap: (n: ReactNode) => ReactElement, Part: unknown, extra: Props = {}): Fixture =>
  (p) =>
    wrap(el(Part, { ...extra, ...p }));

const FIXTURES: Record<string, Fixture> = {
  "Progress.Root": (p) => el(Progress.Root, { value: 0.5, "aria-label": "Work", ...p }),
  "Progress.Indicator": inside(inProgress, Progress.Indicator),
  "Progress.Data": inside(inProgress, Progress.Data),

  "AgentToolRun.Root": (p) => el(AgentToolRun.Root, { run: running, ...p }),
  "AgentToolRun.Error": inside(inRun(failed), AgentToolRun.Error),
  "AgentToolRun.Failure": inside(inRun(failed), AgentToolRun.Failure),
  "AgentToolRun.Retry": inside(inRun(failed), AgentToolRun.Retry),
  "AgentToolRun.Interrupted": inside(inRun(interrupted), AgentToolRun.Interrupted),
  "AgentToolRun.Reconnect": inside(inRun(interrupted), AgentToolRun.Reconnect),
  "AgentToolRun.Summary": inside(inRun(completed), AgentToolRun.Summary),
  "AgentToolRun.Result": inside(inRun(completed), AgentToolRun.Result),
  "AgentToolRun.ResultText": inside(inRun(completed), AgentToolRun.ResultText),
  "AgentToolRun.ResultToggle": inside(inRun(syncCut as never), AgentToolRun.ResultToggle),
  "AgentToolRun.Prompt": inside(inRun(syncRunning as never), AgentToolRun.Prompt),
  "AgentToolRun.AllowedTools": inside(inRun(syncRunning as never), AgentToolRun.AllowedTools),
  "AgentToolRun.Model": inside(inRun(syncRunning as never), AgentToolRun.Model),
  "AgentToolRun.Blocked": inside(inRun(syncRunning as never), AgentToolRun.Blocked),
  "AgentToolRun.CutByAgent": inside(inRun(syncCut as never), AgentToolRun.CutByAgent),
  "AgentToolRun.Milestone": inside(inRun(), AgentToolRun.Milestone, { milestone: milestones[0] }),

  "RunTray.Root": (p) => el(RunTray.Root, { runs: [running], ...p }),
  "RunTray.Item": (p) => (
    <RunTray.Root runs={[running]} defaultOpen>
      <RunTray.List>{el(RunTray.Item, p)}</RunTray.List>
    </RunTray.Root>
  ),
  "RunTray.Error": inside(inTray([failed]), RunTray.Error),
  "RunTray.Failure": inside(inTray([failed]), RunTray.Failure),
  "RunTray.Retry": inside(inTray([failed]), RunTray.Retry),
  "RunTray.Interrupted": inside(inTray([interrupted]), RunTray.Interrupted),
  "RunTray.Reconnect": inside(inTray([interrupted]), RunTray.Reconnect),
  "RunTray.Summary": inside(inTray([completed]), RunTray.Summary),
  "RunTray.Dismiss": inside(inTray([completed]), RunTray.Dismiss),
  "RunTray.Milestone": inside(inTray([running]), RunTray.Milestone, { milestone: milestones[0] }),
  "RunTray.ClearFinished": (p) => (
    <RunTray.Root runs={[completed]} onClearFinished={() => {}}>
      {el(RunTray.ClearFinished, p)}
    </RunTray.Root>
  ),
  "RunTray.Empty": (p) => <RunTray.Root runs={[]}>{el(RunTray.Empty, p)}</RunTray.Root>,
  "RunTray.Trigger": inside((n) => <RunTray.Root runs={[running]}>{n}</RunTray.Root>, RunTray.Trigger),
  "RunTray.Badge": inside((n) => <RunTray.Root runs={[running]}>{n}</RunTray.Root>, RunTray.Badge),
  "RunTray.List": inside(
    (n) => (
      <RunTray.Root runs={[running]} defaultOpen>
        {n}
      </RunTray.Root>
    ),
    RunTray.List,
  ),
  "RunTray.Announcer": inside((n) => <RunTray.Root runs={[running]}>{n}</RunTray.Root>, RunTray.Announcer),
  "RunTray.Link": inside((n) => <RunTray.Root runs={[running]}>{n}</RunTray.Root>, RunTray.Link, {
    runId: "r1",
  }),

  "ApprovalCard.Root": (p) => el(ApprovalCard.Root, { request: request(), "aria-label": "Payment", ...p }),
  "ApprovalCard.ConfirmOverlay": inside(inConfirm, ApprovalCard.ConfirmOverlay),
  "ApprovalCard.ConfirmContent": inside(inConfirm, ApprovalCard.ConfirmContent),
  "ApprovalCard.ConfirmTitle": inside(
    (n) => inConfirm(<ApprovalCard.ConfirmContent>{n}</ApprovalCard.ConfirmContent>),
    ApprovalCard.ConfirmTitle,
  ),
  "ApprovalCard.ConfirmDescription": inside(
    (n) => inConfirm(<ApprovalCard.ConfirmContent>{n}</ApprovalCard.ConfirmContent>),
    ApprovalCard.ConfirmDescription,
  ),
  "ApprovalCard.ConfirmCancel": inside(
    (n) => inConfirm(<ApprovalCard.ConfirmContent>{n}</ApprovalCard.ConfirmContent>),
    ApprovalCard.ConfirmCancel,
  ),
  "ApprovalCard.ConfirmAction": inside(
    (n) => inConfirm(<ApprovalCard.ConfirmContent>{n}</ApprovalCard.ConfirmContent>),
    ApprovalCard.ConfirmAction,
  ),
  "ApprovalCard.DenyReasonInput": inside(
    (n) => inCard(<ApprovalCard.DenyReason>{n}</ApprovalCard.DenyReason>),
    ApprovalCard.DenyReasonInput,
  ),

  "ApprovalQueue.Root": (p) => el(ApprovalQueue.Root, { requests: [request()], ...p }),
  "ApprovalQueue.Item": inside(
    (n) => inQueue(<ApprovalQueue.List>{() => n}</ApprovalQueue.List>),
    ApprovalQueue.Item,
  ),

  "BranchPicker.Root": (p) => el(BranchPicker.Root, { chat: branchSource, messageId: "m1", ...p }),
  "ChatStatus.Root": (p) => el(ChatStatus.Root, { chat: chatStatus, ...p }),
  "AgentEvent.Root": (p) => el(AgentEvent.Root, { message: milestoneMsg, ...p }),
  "MilestoneTimeline.Item": inside(
    (n) => inTimeline(<MilestoneTimeline.List>{() => n}</MilestoneTimeline.List>),
    MilestoneTimeline.Item,
  ),
  "MilestoneTimeline.Name": inside(
    (n) => inTimeline(<MilestoneTimeline.List>{() => n}</MilestoneTimeline.List>),
    MilestoneTimeline.Name,
  ),
  "MilestoneTimeline.Time": inside(
    (n) => inTimeline(<MilestoneTimeline.List>{() => n}</MilestoneTimeline.List>),
    MilestoneTimeline.Time,
  ),
  "MilestoneTimeline.Data": inside(
    (n) => inTimeline(<MilestoneTimeline.List>{() => n}</MilestoneTimeline.List>),
    MilestoneTimeline.Data,
  ),

  "LiveView.Root": (p) =>
    el(LiveView.Root, { session: liveSession, allowedOrigins: [ORIGIN], "aria-label": "Browser", ...p }),
  "LiveView.ModeOption": inside(
    (n) => inLive(<LiveView.ModeSwitch>{n}</LiveView.ModeSwitch>),
    LiveView.ModeOption,
    { value: "page" },
  ),
  "LiveView.Tab": inside((n) => inLive(<LiveView.TabList>{() => n}</LiveView.TabList>), LiveView.Tab),
  "LiveView.Panel": inside((n) => inLive(<LiveView.Panels>{() => n}</LiveView.Panels>), LiveView.Panel),
  "LiveView.Frame": inside(
    (n) => inLive(<LiveView.Panels>{() => <LiveView.Panel>{n}</LiveView.Panel>}</LiveView.Panels>),
    LiveView.Frame,
  ),

  "HelixChild.Terminate": (p) => (
    <HelixItem>{(store) => el(HelixChild.Terminate, { store, ...p })}</HelixItem>
  ),
  "HelixChild.SendMessage": (p) => (
    <HelixItem>{(store) => el(HelixChild.SendMessage, { store, ...p })}</HelixItem>
  ),
};

/** Every other part of a namespace renders inside that namespace's default fixture. */
const DEFAULT_WRAP: Record<string, (n: ReactNode) => ReactElement> = {
  Progress: inProgress,
  AgentToolRun: inRun(),
  RunTray: inTray([running]),
  ApprovalCard: (n) => inCard(n),
  ApprovalQueue: inQueue,
  BranchPicker: inPicker,
  ChatStatus: inStatus,
  AgentEvent: inEvent,
  MilestoneTimeline: inTimeline,
  LiveView: (n) => inLive(n),
};

/**
 * Parts that legitimately break a rule, with the reason. `noElement`: the part renders no element of its own
 * (a provider, a chooser, a dialog root), so nothing takes a ref, props or `asChild`.
 */
const EXCEPTIONS: Record<string, { noElement?: string; skip?: string }> = {
  "AgentEvent.Match": { noElement: "a chooser: renders its children or the fallback, no element of its own" },
  "MilestoneTimeline.Root": { noElement: "a provider of the milestones for its parts" },
  "LiveView.Panels": { noElement: "renders one LiveView.Panel per tab, no element of its own" },
  "ApprovalCard.Confirm": {
    noElement: "the confirm dialog's root (Radix AlertDialog.Root): state, no element",
  },
};

type Rule = "one" | "asChild" | "data";
const NOTHING = "renders nothing in its fixture's state (a fixture that reaches it is still to be written)";
const PER_ENTRY = "rendered once per entry of the list around it, so the fixture's props land on every entry";
const OWN_CHILDREN =
  "builds its own children (one entry per item, or a render prop), so asChild has no single child to slot onto: to fix";
const PORTAL =
  "the confirm dialog (Radix AlertDialog) is not open in the fixture: the fixture is still to be written";
/**
 * Rules a part does not meet yet, each with the reason. These run as expected failures (`it.fails`): a part that
 * is fixed (or a fixture that is written) fails here until its entry is removed, so the list stays true.
 */
const KNOWN: Record<string, Partial<Record<Rule, string>>> = {
  "AgentToolRun.Icon": { one: NOTHING, data: NOTHING },
  "RunTray.Icon": { one: NOTHING, data: NOTHING },
  "AgentToolRun.ResultText": { one: NOTHING, asChild: NOTHING, data: NOTHING },
  "AgentToolRun.ResultToggle": { one: NOTHING, asChild: NOTHING, data: NOTHING },
  "AgentToolRun.Milestones": { asChild: OWN_CHILDREN },
  "RunTray.Milestones": { asChild: OWN_CHILDREN },
  "AgentToolRun.Transcript": { asChild: OWN_CHILDREN },
  "RunTray.List": { asChild: OWN_CHILDREN },
  "MilestoneTimeline.List": { asChild: OWN_CHILDREN },
  "Progress.Data": { asChild: OWN_CHILDREN },
  "ApprovalCard.ConfirmOverlay": { one: PORTAL, asChild: PORTAL, data: PORTAL },
  "ApprovalCard.ConfirmContent": { one: PORTAL, asChild: PORTAL, data: PORTAL },
  "ApprovalCard.ConfirmTitle": { one: PORTAL, asChild: PORTAL, data: PORTAL },
  "ApprovalCard.ConfirmDescription": { one: PORTAL, asChild: PORTAL, data: PORTAL },
  "ApprovalCard.ConfirmCancel": { one: PORTAL, asChild: PORTAL, data: PORTAL },
  "ApprovalCard.ConfirmAction": { one: PORTAL, asChild: PORTAL, data: PORTAL },
  "ApprovalQueue.Item": { one: PER_ENTRY, asChild: PER_ENTRY },
  "LiveView.Tab": { one: PER_ENTRY, asChild: PER_ENTRY },
  "LiveView.Panel": { one: PER_ENTRY, asChild: PER_ENTRY },
  "LiveView.Frame": { one: PER_ENTRY, asChild: PER_ENTRY },
  "MilestoneTimeline.Item": { one: PER_ENTRY, asChild: PER_ENTRY },
  "MilestoneTimeline.Name": { one: PER_ENTRY, asChild: PER_ENTRY },
  "MilestoneTimeline.Time": { one: PER_ENTRY, asChild: PER_ENTRY },
  "MilestoneTimeline.Data": { one: NOTHING, asChild: NOTHING, data: NOTHING },
  "LiveView.Continue": { one: NOTHING, asChild: NOTHING, data: NOTHING },
  "LiveView.Error": { one: NOTHING, asChild: NOTHING, data: NOTHING },
  "LiveView.Refused": { one: NOTHING, asChild: NOTHING, data: NOTHING },
  "RunTray.Empty": { one: NOTHING, asChild: NOTHING, data: NOTHING },
  "RunTray.Stalled": { one: NOTHING, asChild: NOTHING, data: NOTHING },
};

// ---- the documented attributes --------------------------------------------------------------------------------

// Vitest runs from the repository root (vitest.config.ts).
const doc = readFileSync(join(process.cwd(), "docs/data-attributes.md"), "utf8");

/** The `data-*` attributes docs/data-attributes.md lists for each part, from its per-component tables. */
function documented(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let partCol = -1;
  let attrCol = -1;
  for (const line of doc.split("\n")) {
    if (!line.startsWith("|")) {
      partCol = -1;
      continue;
    }
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    if (partCol === -1) {
      partCol = cells.indexOf("Part");
      attrCol = cells.indexOf("Attribute");
      if (partCol === -1 || attrCol === -1) partCol = -2;
      continue;
    }
    if (partCol < 0) continue;
    const part = /`([A-Za-z]+\.[A-Za-z]+)`/.exec(cells[partCol] ?? "")?.[1];
    if (!part) continue;
    const set = out.get(part) ?? new Set<string>();
    for (const m of (cells[attrCol] ?? "").matchAll(/data-[a-z-]+/g)) set.add(m[0]);
    out.set(part, set);
  }
  return out;
}
const DOCUMENTED = documented();

// ---- the parts ------------------------------------------------------------------------------------------------

/** Every part of every compound component `@runboard/react` exports: `[namespace, part, component]`. */
const PARTS: [string, string, unknown][] = Object.entries(api).flatMap(([ns, value]) => {
  if (typeof value !== "object" || value === null) return [];
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([, c]) => typeof c === "function" && typeof (c as { displayName?: unknown }).displayName === "string",
  );
  return entries.map(([name, c]): [string, string, unknown] => [ns, name, c]);
});

function fixtureFor(ns: string, name: string, Part: unknown): Fixture | undefined {
  const own = FIXTURES[`${ns}.${name}`];
  if (own) return own;
  const wrap = DEFAULT_WRAP[ns];
  return wrap ? inside(wrap, Part) : undefined;
}

/** The element the part rendered: the one carrying the test's marker. */
function subject(container: HTMLElement): HTMLElement[] {
  return [...container.ownerDocument.querySelectorAll<HTMLElement>('[data-testid="contract-subject"]')];
}

const CONTRACT_PROPS = {
  "data-testid": "contract-subject",
  className: "contract-class",
  "aria-describedby": "contract-described",
  id: "contract-id",
};

describe("every exported part follows the component recipe (docs/component-recipe.md)", () => {
  it("enumerates the parts of every compound component", () => {
    const namespaces = new Set(PARTS.map(([ns]) => ns));
    expect([...namespaces].sort()).toEqual([
      "AgentEvent",
      "AgentToolRun",
      "ApprovalCard",
      "ApprovalQueue",
      "BranchPicker",
      "ChatStatus",
      "HelixChild",
      "LiveView",
      "MilestoneTimeline",
      "Progress",
      "RunTray",
    ]);
    for (const [ns, name] of PARTS) expect(`${ns}.${name}`).toMatch(/^[A-Z]\w*\.[A-Z]\w*$/);
  });

  describe.each(PARTS.map(([ns, name, c]) => [`${ns}.${name}`, ns, name, c] as const))(
    "%s",
    (full, ns, name, Part) => {
      const exception = EXCEPTIONS[full];
      const fixture = fixtureFor(ns, name, Part);

      it("has a fixture or a documented exception, and its displayName is its JSX name", () => {
        expect((Part as { displayName: string }).displayName).toBe(full);
        expect(fixture !== undefined || exception?.noElement !== undefined).toBe(true);
      });
      if (exception?.noElement || !fixture) return;
      const known = KNOWN[full] ?? {};
      /** A rule's test, or an expected failure when the part is listed in `KNOWN` for it. */
      const check = (rule: Rule) => (known[rule] ? it.fails : it);

      check("one")("renders one element named by data-rb-part, with the props and the ref passed", () => {
        vi.spyOn(console, "warn").mockImplementation(() => {});
        const ref = createRef<HTMLElement>();
        const { container } = render(fixture({ ...CONTRACT_PROPS, ref }));
        const found = subject(container);
        expect(found).toHaveLength(1);
        const node = found[0] as HTMLElement;
        expect(node.getAttribute("data-rb-part")).toBe(full);
        expect(node.classList.contains("contract-class")).toBe(true);
        expect(node.getAttribute("aria-describedby")).toBe("contract-described");
        expect(node.id).toBe("contract-id");
        expect(ref.current).toBe(node);
      });

      check("asChild")("renders the child instead with asChild, merging its props", () => {
        vi.spyOn(console, "warn").mockImplementation(() => {});
        const ref = createRef<HTMLElement>();
        const { container } = render(
          fixture({
            asChild: true,
            ref,
            className: "contract-class",
            children: <aside data-testid="contract-subject" className="own-class" />,
          }),
        );
        const found = subject(container);
        expect(found).toHaveLength(1);
        const node = found[0] as HTMLElement;
        expect(node.tagName).toBe("ASIDE");
        expect(node.getAttribute("data-rb-part")).toBe(full);
        expect(node.classList.contains("contract-class")).toBe(true);
        expect(node.classList.contains("own-class")).toBe(true);
        expect(ref.current).toBe(node);
      });

      check("data")("puts only documented data-* attributes on its element (docs/data-attributes.md)", () => {
        vi.spyOn(console, "warn").mockImplementation(() => {});
        const { container } = render(fixture({ "data-testid": "contract-subject" }));
        const node = subject(container)[0] as HTMLElement;
        const listed = DOCUMENTED.get(full) ?? new Set<string>();
        const rendered = node
          .getAttributeNames()
          .filter((a) => a.startsWith("data-") && a !== "data-testid" && a !== "data-rb-part");
        expect(rendered.filter((a) => !listed.has(a))).toEqual([]);
      });
    },
  );
});
