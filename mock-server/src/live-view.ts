/**
 * Live View: a pretend remote browser a human can watch or take over. Each `liveView()` call mints fresh,
 * unguessable page URLs on this server that stay valid for a TTL (default 5 minutes) and then answer 410,
 * like an expired Browser Run session. Pages are static HTML written here; nothing from a client or a tool is
 * ever interpolated into them except escaped values.
 */
import type { LiveViewMode, LiveViewSession, LiveViewTarget } from "@runboard/protocol";

// The wire shapes are declared once, in the protocol package; re-exported here as they always were.
export type { LiveViewSession, LiveViewTarget } from "@runboard/protocol";

interface Minted {
  expiresAt: number;
  target: Omit<LiveViewTarget, "url" | "targetId">;
  mode: LiveViewMode;
}

const TABS: Array<Minted["target"]> = [
  { pageUrl: "https://shop.example/login", title: "Sign in · Example Shop", type: "page" },
  { pageUrl: "https://shop.example/orders", title: "Your orders · Example Shop", type: "page" },
];

/** How long minted Live View URLs stay valid unless the server is told otherwise. */
export const DEFAULT_LIVE_VIEW_TTL_MS = 5 * 60_000;

/** 128 random bits as hex (Web Crypto, so this also runs in a browser under MSW). */
const token = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** The Live View sessions one server minted, and the pages their URLs serve. */
export class LiveViews {
  private readonly pages = new Map<string, Minted>();
  /** One id per pretend tab for the server's life: Browser Run keeps a tab's id while its URLs change. */
  private readonly targetIds = TABS.map(() => token().slice(0, 16).toUpperCase());

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new session with one target per pretend tab; URLs are new on every call. */
  mint(baseUrl: string, mode: LiveViewMode): LiveViewSession {
    this.sweep();
    const expiresAt = this.now() + this.ttlMs;
    const targets = TABS.map((t, i) => {
      // The first hex digit names the tab, so a stateless server can still draw the page (`standInPage`).
      const id = `${i.toString(16)}${token().slice(1)}`;
      this.pages.set(id, { expiresAt, target: t, mode });
      return {
        targetId: this.targetIds[i] as string,
        url: `${baseUrl}/live-view/${id}${mode === "devtools" ? "/devtools" : ""}`,
        ...t,
      };
    });
    return { sessionId: token(), targets, expiresInMs: this.ttlMs };
  }

  /** The page for a path below `/live-view/`, or why there is none. */
  page(rest: string): { status: 200; html: string } | { status: 404 | 410 } {
    const [id, view, ...more] = rest.split("/");
    const m = id ? this.pages.get(id) : undefined;
    // `<id>` or `<id>/devtools`, nothing else: a path below a page is not a page.
    if (!m || more.length > 0 || (view !== undefined && view !== "devtools")) return { status: 404 };
    if (this.now() >= m.expiresAt) return { status: 410 };
    return { status: 200, html: view === "devtools" ? devtoolsPage(m.target) : tabPage(m.target) };
  }

  private sweep() {
    // Expired pages keep answering 410 for a while so a stale embed can say "expired"; then they are dropped.
    const cutoff = this.now() - this.ttlMs;
    for (const [k, v] of this.pages) if (v.expiresAt < cutoff) this.pages.delete(k);
  }
}

/**
 * The page for a `/live-view/` path without the minting server's state: the tab its id names, never expired.
 * For hosts where the minting server cannot answer page loads, e.g. Storybook, where the mock runs in the
 * browser under MSW and MSW's service worker does not see the navigations of iframes.
 */
export function standInPage(rest: string): string | undefined {
  const [id, view, ...more] = rest.split("/");
  if (!id || !/^[0-9a-f]{32}$/.test(id) || more.length > 0 || (view !== undefined && view !== "devtools"))
    return undefined;
  const tab = TABS[Number.parseInt(id[0] as string, 16)];
  if (!tab) return undefined;
  return view === "devtools" ? devtoolsPage(tab) : tabPage(tab);
}

const STYLE = `body{margin:0;font:15px system-ui,sans-serif;background:#f4f4f5;color:#18181b}
.bar{display:flex;gap:8px;align-items:center;padding:8px 12px;background:#e4e4e7;border-bottom:1px solid #d4d4d8}
.addr{flex:1;padding:4px 10px;border-radius:999px;background:#fff;color:#3f3f46;font-size:13px}
main{max-width:360px;margin:40px auto;background:#fff;padding:24px;border-radius:12px;box-shadow:0 1px 3px #0002}
label{display:block;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:8px;border:1px solid #a1a1aa;border-radius:6px}
button{margin-top:16px;width:100%;padding:10px;border:0;border-radius:6px;background:#2563eb;color:#fff;font-weight:600}
[role=status]{margin-top:12px;color:#15803d}`;

function tabPage(t: Minted["target"]): string {
  const login = t.pageUrl.endsWith("/login");
  const body = login
    ? `<h1>Sign in</h1><form id="f"><label for="e">Email</label><input id="e" name="email" type="email" autocomplete="off" required>
<label for="p">Password</label><input id="p" name="password" type="password" autocomplete="off" required>
<button type="submit">Sign in</button></form><p role="status" id="s"></p>
<script>document.getElementById("f").addEventListener("submit",function(ev){ev.preventDefault();
var e=document.getElementById("e").value;document.getElementById("s").textContent="Signed in as "+e+". You can hand control back to the agent.";});</script>`
    : `<h1>Your orders</h1><ul><li>Order #1042 · shipped</li><li>Order #1043 · processing</li></ul>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(t.title)}</title><style>${STYLE}</style></head>
<body><div class="bar" aria-label="Remote browser"><span aria-hidden="true">◀ ▶ ⟳</span><span class="addr">${escapeHtml(t.pageUrl)}</span></div>
<main>${body}</main></body></html>`;
}

function devtoolsPage(t: Minted["target"]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>DevTools · ${escapeHtml(t.title)}</title>
<style>body{margin:0;font:13px ui-monospace,monospace;background:#1e1e1e;color:#d4d4d4}header{padding:6px 10px;background:#2d2d2d}
ol{margin:0;padding:8px 28px}li{padding:2px 0}</style></head><body><header>Console · ${escapeHtml(t.pageUrl)}</header>
<ol><li>Navigated to ${escapeHtml(t.pageUrl)}</li><li>DOMContentLoaded</li><li>Waiting for user input…</li></ol></body></html>`;
}
