/**
 * Which remote targets become tabs and what each tab is called. A remote browser also reports service
 * workers, extension background pages and blank or internal pages; a person cannot do anything with those,
 * so only real pages are shown.
 */

import { parseUrl } from "./parse-url.ts";
import type { LiveViewTarget } from "./session.ts";

// Schemes of pages the remote browser shows by itself (new tab, settings, DevTools, extensions).
const INTERNAL_SCHEMES = new Set([
  "about:",
  "chrome:",
  "chrome-untrusted:",
  "chrome-search:",
  "chrome-extension:",
  "chrome-error:",
  "devtools:",
  "edge:",
  "view-source:",
]);

/** Whether the remote tab shows nothing a person could use: no address, `about:blank`, a browser-internal page. */
export function isBlankPage(pageUrl: string | undefined): boolean {
  const trimmed = pageUrl?.trim();
  if (!trimmed) return true;
  const u = parseUrl(trimmed);
  // An address that does not parse is still something the remote tab shows; the label falls back to the title.
  return u !== undefined && INTERNAL_SCHEMES.has(u.protocol);
}

/**
 * Whether a target becomes a tab: a page (or untyped) target with an id, an embed URL and a real address.
 * Reads its argument defensively: targets from `parseLiveViewSession` are passed through unchecked.
 */
export function isVisibleTarget(t: LiveViewTarget): boolean {
  if (typeof t !== "object" || t === null) return false;
  if (typeof t.targetId !== "string" || t.targetId === "" || typeof t.url !== "string") return false;
  if (t.type !== undefined && t.type !== "page") return false;
  return !isBlankPage(t.pageUrl);
}

/** The targets that become tabs, in the given order, each id once (the first wins). */
export function visibleTargets(targets: readonly LiveViewTarget[]): LiveViewTarget[] {
  const seen = new Set<string>();
  const out: LiveViewTarget[] = [];
  for (const t of targets) {
    if (!isVisibleTarget(t) || seen.has(t.targetId)) continue;
    seen.add(t.targetId);
    out.push(t);
  }
  return out;
}

/**
 * A tab's name: the page title, else the host of the address the tab shows, else `Tab <n>` (1-based). A title
 * that is just the address (what browsers report for untitled pages) counts as no title.
 */
export function targetLabel(t: Partial<Pick<LiveViewTarget, "title" | "pageUrl">>, index: number): string {
  const title = typeof t.title === "string" ? t.title.trim() : "";
  const page = typeof t.pageUrl === "string" ? t.pageUrl.trim() : "";
  if (title && title !== page) return title;
  const host = page ? parseUrl(page)?.host : undefined;
  return host || `Tab ${index + 1}`;
}
