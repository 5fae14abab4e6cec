/**
 * Which WebSocket a connection uses when the app passes none: the global one, except in Node where there is
 * none (Node 20) or it is jsdom's; there the `ws` package, loaded only then so browser bundles never see it.
 */

/**
 * In Node, the global WebSocket is missing (Node 20) or is jsdom's, which dispatches its own realm's events to a
 * Node EventTarget and throws ("The event argument must be an instance of Event"). The `ws` package works in both.
 */
export function needsWsPackage(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  const node = typeof proc?.versions?.node === "string";
  if (!node) return false;
  if (typeof WebSocket === "undefined") return true;
  if (typeof navigator === "undefined" || !/jsdom/i.test(navigator.userAgent ?? "")) return false;
  // Only jsdom's own class fails; a replacement a test installed (MSW's interceptor, a fake) is what the test
  // wants used. jsdom's is a plain class; MSW's is a Proxy, which prints as native code.
  return /^class\b/.test(Function.prototype.toString.call(WebSocket));
}

/** The `ws` package's WebSocket class; rejects when the package is not installed. */
export async function loadWsPackage(): Promise<unknown> {
  const name = "ws";
  const m = (await import(/* @vite-ignore */ name)) as { WebSocket?: unknown; default?: unknown };
  return m.WebSocket ?? m.default;
}
