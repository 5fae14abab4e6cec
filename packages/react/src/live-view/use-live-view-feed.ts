/**
 * The Live View session feed for React: a `LiveViewFeed` owned by the component, told the current inputs
 * after every commit, and read with `useSyncExternalStore`. The feed does the timing; this only adapts it.
 */
import { LiveViewFeed, type LiveViewFeedOptions, type LiveViewFeedSnapshot } from "@runboard/client";
import { useCallback, useLayoutEffect, useSyncExternalStore } from "react";
import { useOwned } from "../lifetime.ts";

const feedLifecycle = {
  start: (feed: LiveViewFeed) => feed.start(),
  dispose: (feed: LiveViewFeed) => feed.dispose(),
};

/**
 * The feed's snapshot for these inputs, and its `refresh()` (fetch now; stable). Made during render without IO
 * (a server render shows the given session and starts nothing); fetching starts after mount. New inputs reach
 * the feed before the browser paints, so a new session or mode never shows a frame of the old one.
 */
export function useLiveViewFeed(options: LiveViewFeedOptions): [LiveViewFeedSnapshot, () => void] {
  const feed = useOwned("live-view-feed", () => new LiveViewFeed(options), feedLifecycle);
  useLayoutEffect(() => feed.setOptions(options));
  const refresh = useCallback(() => feed.refresh(), [feed]);
  return [useSyncExternalStore(feed.subscribe, feed.getSnapshot, feed.getSnapshot), refresh];
}
