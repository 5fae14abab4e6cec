/**
 * Pay per part (issue 25 §3): an app pays for what it imports. Each entry is bundled the way `npm run
 * bench:bundle` bundles it (bench/lib/bundle.mjs: rolldown, tree-shaken, our packages from source) and the test
 * checks which modules are left in the output — never byte sizes. The hooks bring no component, and a component
 * brings its own code and what it needs, not another component's optional features (`ApprovalCard` alone does
 * not bring Live View; `AgentToolRun` loads the connection to a child only when it first follows one). The
 * modules checked are those loaded with the entry; what a part loads by `import()` on first use is not.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs module without declarations
import { bundleEntry, reexport } from "../bench/lib/bundle.mjs";

const modulesOf = async (code: string): Promise<string[]> =>
  ((await bundleEntry(code, { minify: false })) as { modules: string[] }).modules;

/** The component folders (and files) of `@runboard/react`, by the component that owns them. */
const COMPONENT_MODULES: Record<string, RegExp> = {
  AgentEvent: /^packages\/react\/src\/agent-event\//,
  AgentToolRun: /^packages\/react\/src\/agent-tool-run\//,
  ApprovalCard: /^packages\/react\/src\/approval\//,
  BranchPicker: /^packages\/react\/src\/branch-picker\//,
  ChatMessageList: /^packages\/react\/src\/chat-messages\.tsx$/,
  ChatStatus: /^packages\/react\/src\/chat-status\//,
  HelixChild: /^packages\/react\/src\/helix\//,
  LiveView: /^packages\/react\/src\/live-view\//,
  MessageParts: /^packages\/react\/src\/message-parts\//,
  MilestoneTimeline: /^packages\/react\/src\/milestone-timeline\//,
  Progress: /^packages\/react\/src\/progress\//,
  RunTray: /^packages\/react\/src\/run-tray\//,
};

/** Features below the React package that only some parts need. */
const LIVE_VIEW = /^packages\/(protocol\/src\/live-view\/|client\/src\/live-view-feed\.ts$)/;
const HELIX = /^packages\/(protocol|client)\/src\/helix\//;
const APPROVAL_RULES = /^packages\/protocol\/src\/approvals\//;
const RADIX_DIALOG = /node_modules\/@radix-ui\/react-dialog\//;
/** The agent connection: only the hooks open one; a run card loads it when it first follows a child. */
const CONNECTION = /^(node_modules\/partysocket\/|packages\/client\/src\/(agent-client|nested-runs)\.ts$)/;

/**
 * Which other components' modules each component may bring, and why: MessageParts renders its default parts
 * with them; the run components share the run parts in agent-tool-run/ and the bar of Progress; HelixChild
 * reads its child's status with the shared run parts. Anything not listed here is a chain to break.
 */
const USES: Record<string, string[]> = {
  AgentToolRun: ["Progress"],
  ApprovalQueue: ["ApprovalCard"],
  HelixChild: ["AgentToolRun"],
  MessageParts: ["AgentEvent", "AgentToolRun", "ApprovalCard", "Progress"],
  RunTray: ["AgentToolRun", "Progress"],
};
const COMPONENTS = [...Object.keys(COMPONENT_MODULES), "ApprovalQueue"].sort();
const own = (c: string) => (c === "ApprovalQueue" ? "ApprovalCard" : c);

const matching = (modules: string[], re: RegExp) => modules.filter((m) => re.test(m));

describe("pay per part: what a bundle of one import contains", () => {
  it("the three hooks bring no component, no Live View, helix or approval rules, and no Radix", async () => {
    const modules = await modulesOf(
      reexport(["useAgent", "useAgentChat", "useAgentToolEvents"], "@runboard/react"),
    );
    expect(modules).toContain("packages/react/src/use-agent-chat.ts");
    for (const [component, re] of Object.entries(COMPONENT_MODULES))
      expect(matching(modules, re), `the hooks bring ${component}'s modules`).toEqual([]);
    expect(matching(modules, LIVE_VIEW), "the hooks bring Live View").toEqual([]);
    expect(matching(modules, HELIX), "the hooks bring helix").toEqual([]);
    expect(matching(modules, APPROVAL_RULES), "the hooks bring the approval rules").toEqual([]);
    expect(matching(modules, /node_modules\/@radix-ui\//), "the hooks bring Radix").toEqual([]);
  });

  it.each(COMPONENTS)(
    "%s alone brings its own modules and what it uses, nothing else, and no connection",
    async (component) => {
      const modules = await modulesOf(reexport([component], "@runboard/react"));
      const self = own(component);
      expect(matching(modules, COMPONENT_MODULES[self] as RegExp).length).toBeGreaterThan(0);
      const allowed = new Set([self, ...(USES[component] ?? [])]);
      for (const [other, re] of Object.entries(COMPONENT_MODULES))
        if (!allowed.has(other))
          expect(matching(modules, re), `${component} brings ${other}'s modules`).toEqual([]);
      if (self !== "LiveView")
        expect(matching(modules, LIVE_VIEW), `${component} brings Live View`).toEqual([]);
      if (self !== "HelixChild") expect(matching(modules, HELIX), `${component} brings helix`).toEqual([]);
      expect(matching(modules, CONNECTION), `${component} brings the agent connection`).toEqual([]);
      if (!allowed.has("ApprovalCard"))
        expect(matching(modules, RADIX_DIALOG), `${component} brings Radix Dialog`).toEqual([]);
    },
  );

  it("the client's classes bring only what they use: a connection no chat or runs store, a chat no connection", async () => {
    const client = await modulesOf(reexport(["AgentClient"], "@runboard/client"));
    expect(client).toContain("packages/client/src/agent-client.ts");
    expect(
      matching(client, /^packages\/client\/src\/(chat-|agent-tool-runs|run-actions|approvals\/)/),
    ).toEqual([]);
    const chat = await modulesOf(reexport(["ChatSession"], "@runboard/client"));
    expect(chat).toContain("packages/client/src/chat-session.ts");
    expect(matching(chat, CONNECTION), "ChatSession brings the agent connection").toEqual([]);
    expect(matching(chat, /^packages\/client\/src\/(agent-tool-runs|run-actions)\.ts$/)).toEqual([]);
    expect(matching(chat, LIVE_VIEW)).toEqual([]);
  });
});
