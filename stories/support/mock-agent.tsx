/**
 * The scripted mock agent, running in the Storybook page itself: MSW intercepts the page's WebSocket and
 * fetch calls and answers them with the same hub the Node mock server uses. Stories connect with the real
 * hooks, exactly as an app would, to `window.location.host`.
 */
import {
  createMockAgentHandlers,
  demoAgents,
  type Hub,
  type MockAgentDefinition,
  type MockController,
} from "@runboard/mock-server/msw";
import { type UseAgentOptions, useAgent } from "@runboard/react";
import { setupWorker } from "msw/browser";
import { createContext, type ReactNode, useContext, useState } from "react";
import { otherLoopbackOrigin } from "../../test-support/loopback-origin.ts";

/** Where the mock's Live View pages are: this dev server on another origin (see `otherLoopbackOrigin`). */
export const LIVE_VIEW_ORIGIN = otherLoopbackOrigin(window.location.origin);

/** The running mock: its controller (hold frames, drop sockets, restart) and the host stories connect to. */
export interface MockAgents {
  controller: MockController;
  hub: Hub;
  host: string;
}

const pending = new Map<string, MockAgentDefinition>();
let running: MockAgents | undefined;
let starting: Promise<MockAgents> | undefined;

/** Starts the in-page mock once (the preview's loader calls it before the first story renders). */
export function startMockAgents(): Promise<MockAgents> {
  starting ??= (async () => {
    // The agents are served at the page's own origin, where `useStoryAgent` connects.
    const origin = window.location.origin;
    const mock = createMockAgentHandlers({ agents: demoAgents, origin, log: () => {} });
    // Live View URLs point at the same dev server under its other loopback name (its middleware draws the
    // pages; the service worker never sees frame navigations): a page on the app's own origin would be refused.
    mock.hub.baseUrl = LIVE_VIEW_ORIGIN;
    for (const [name, def] of pending) mock.hub.define(name, def);
    pending.clear();
    const worker = setupWorker(...mock.handlers);
    await worker.start({
      serviceWorker: { url: "/mockServiceWorker.js" },
      onUnhandledRequest: "bypass",
      quiet: true,
    });
    running = { controller: mock.controller, hub: mock.hub, host: window.location.host };
    return running;
  })();
  return starting;
}

/**
 * Registers a scripted agent class for a story file (call it at module level). Classes named here replace
 * the demo agents of the same name.
 */
export function defineStoryAgent(agent: string, definition: MockAgentDefinition): void {
  if (running) running.hub.define(agent, definition);
  else pending.set(agent, definition);
}

let counter = 0;
/** A fresh instance name, so every story (and every test run of it) starts with an empty transcript. */
export function freshName(prefix = "story"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

/**
 * A fresh name for each mount of a story, held above its Suspense boundary: `useAgentChat` suspends while the
 * first transcript loads, and a component that suspends on mount loses its state, so a name kept in its own
 * `useState` would change on every retry (a new instance, a new load, for ever).
 */
const StoryRun = createContext<Map<string, string> | undefined>(undefined);

export function StoryRunProvider({ children }: { children: ReactNode }) {
  const [names] = useState(() => new Map<string, string>());
  return <StoryRun.Provider value={names}>{children}</StoryRun.Provider>;
}

/**
 * A name fixed for `prefix` in this story's mount, the same across suspended renders (React's `useId` is not:
 * a mount that suspends gets a new one on retry). Within one story the same prefix names the same instance.
 */
export function useFreshName(prefix: string): string {
  const names = useContext(StoryRun);
  const [own] = useState(() => freshName(prefix));
  if (!names) return own;
  let name = names.get(prefix);
  if (name === undefined) {
    name = freshName(prefix);
    names.set(prefix, name);
  }
  return name;
}

/** `useAgent` pointed at the in-page mock, on an instance name fixed for the component's lifetime. */
export function useStoryAgent<State = unknown>(
  options: Omit<UseAgentOptions<State>, "host"> & { host?: string },
) {
  const fresh = useFreshName(options.agent);
  const name = options.name ?? fresh;
  return useAgent<State>({ ...options, name, host: options.host ?? window.location.host });
}
