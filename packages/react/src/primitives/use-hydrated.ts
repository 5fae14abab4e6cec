/**
 * Whether the part may show what only the browser knows (the clock, the locale, the time zone). The server
 * cannot know them, and a hydrating page must render exactly the server's HTML, so this is false on the
 * server and during hydration, and true from the re-render React does right after hydration, and on every
 * render of a page that was not server-rendered.
 */
import { useSyncExternalStore } from "react";

const subscribeNothing = () => () => {};
const inBrowser = () => true;
const onServer = () => false;

/** False while rendering on the server and while hydrating its HTML; true afterwards. */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribeNothing, inBrowser, onServer);
}
