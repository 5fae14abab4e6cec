/**
 * Plays a scenario kind phase by phase, with hooks where a suite injects its faults, and records what the
 * tab and the server show at the end of each phase. Without hooks that record is the kind's reference.
 */
import {
  AGENT,
  type FaultServer,
  openTab,
  serverAt,
  serverView,
  settle,
  type Tab,
  type TabOptions,
  until,
} from "./harness.ts";
import type { Kind } from "./kinds.ts";

/** What a kind looks like without faults, phase by phase. */
export interface Reference {
  /** The tab's visible state at the end of each phase. */
  views: unknown[];
  /** The server's transcript at the end of each phase. */
  servers: unknown[];
  /** Frames the server sent the tab during each phase (where a drop can land). */
  frames: number[];
}

/** One run of a kind: the tab in use (a page refresh replaces it) and where it is. */
export interface Run {
  readonly srv: FaultServer;
  readonly kind: Kind;
  readonly name: string;
  tab: Tab;
  phase: number;
  /** Opens the tab again, as a page refresh does; the old one is closed. */
  refresh(): void;
}

export interface Hooks {
  /** Right before the phase's action. */
  before?(run: Run): void | Promise<void>;
  /** Once the server has finished the phase, before the tab is left to settle. */
  after?(run: Run): void | Promise<void>;
}

const framesTo = (srv: FaultServer, name: string) =>
  srv.controller.sent.filter((f) => f.name === name && f.frame.type !== "rpc").length;

/** When the server has finished a phase of a faulted run. */
export type PhaseEnd = (run: Run) => boolean;

/** A faulted run's phase ends when the server has reached the reference's transcript for it. */
export const atReference =
  (ref: Reference): PhaseEnd =>
  (run) =>
    serverAt(run.srv, run.kind.host, run.name, ref.servers[run.phase]);

/**
 * Plays `kind` on a fresh instance. With `phaseEnd`, a phase ends when it holds (twice in a row, so work the
 * server has only scheduled gets to start); without, when the tab is ready and idle and the server has
 * stopped streaming (how a reference run is played).
 */
export async function play(
  srv: FaultServer,
  kind: Kind,
  name: string,
  hooks: Hooks = {},
  phaseEnd?: PhaseEnd,
  tabOptions: TabOptions = {},
): Promise<Reference & { run: Run }> {
  const options = { ...tabOptions, chat: { ...kind.chat, ...tabOptions.chat } };
  const run: Run = {
    srv,
    kind,
    name,
    tab: openTab(srv, kind.host, name, options),
    phase: 0,
    refresh() {
      run.tab.close();
      run.tab = openTab(srv, kind.host, name, options);
    },
  };
  const out: Reference = { views: [], servers: [], frames: [] };
  const idleServer = () => srv.controller.instance(AGENT[kind.host], name)?.streaming === false;
  try {
    // Acting before the mount-time probe is answered makes the server offer the tab its own turn: fine, but
    // it changes the frame count a seed's drop point is drawn from.
    await until("the tab to load", () => run.tab.client.status === "open" && run.tab.loaded());
    for (let i = 0; i < kind.phases.length; i++) {
      const phase = kind.phases[i] as (typeof kind.phases)[number];
      run.phase = i;
      const sentBefore = framesTo(srv, name);
      await hooks.before?.(run);
      await phase.act(run.tab);
      if (phaseEnd) {
        let held = 0;
        await until(
          `the server to finish phase ${i}`,
          () => {
            held = phaseEnd(run) ? held + 1 : 0;
            return held >= 2;
          },
          8000,
        );
      } else {
        await until(
          `phase ${i} of ${kind.id} to end`,
          () => run.tab.idle() && idleServer() && (phase.ready?.(run.tab) ?? true),
          8000,
        );
      }
      out.frames.push(framesTo(srv, name) - sentBefore);
      await hooks.after?.(run);
      await settle(run.tab);
      out.servers.push(serverView(srv, kind.host, name));
      out.views.push(run.tab.view());
    }
    return { ...out, run };
  } finally {
    run.tab.close();
  }
}
