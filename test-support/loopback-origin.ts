/**
 * The same local server under its other loopback name: `http://localhost:PORT` becomes
 * `http://127.0.0.1:PORT` and the other way round.
 *
 * Why: `LiveView.Root` refuses a page on the app's own origin while the frame's sandbox has both
 * `allow-scripts` and `allow-same-origin` (such a page could script the app and remove its own sandbox). The
 * stories and the browser tests serve their pretend Live View pages from the very server that serves the page
 * under test; a different host name makes those pages a different origin (an origin is scheme, host and port),
 * so they are embedded as a real Live View page on another origin would be, with the default sandbox.
 */
const OTHER: Record<string, string> = { localhost: "127.0.0.1", "127.0.0.1": "localhost" };

/** `origin` with `localhost` and `127.0.0.1` swapped; throws for any other host (there is no second name to use). */
export function otherLoopbackOrigin(origin: string): string {
  const u = new URL(origin);
  const other = OTHER[u.hostname];
  if (other === undefined)
    throw new Error(
      `otherLoopbackOrigin: ${u.origin} is not on localhost or 127.0.0.1, so it has no other loopback name`,
    );
  u.hostname = other;
  return u.origin;
}
