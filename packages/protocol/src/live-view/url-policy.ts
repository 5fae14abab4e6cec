/**
 * Which Live View URLs may be embedded. A Live View page runs with scripts and its own origin inside the app,
 * so only `https:` pages from origins the app names are let in; everything else is refused with a reason a
 * person can read. Reasons name at most the origin, never the full URL (paths carry session tokens).
 *
 * Two configurations would void the sandbox, so they are refused rather than trusted: a page from the app's
 * own origin while the sandbox grants both `allow-scripts` and `allow-same-origin` (such a page can script the
 * app's window and remove its own `sandbox` attribute), and wildcard entries in the allow-list (`*`,
 * `https://*`, `https://*.example.com`), which are never read as "allow all" or "allow a family of hosts".
 */
import { parseUrl } from "./parse-url.ts";

/** What the policy needs to know about where the frame is shown (shared by both policy shapes). */
export interface LiveViewEmbedContext {
  /**
   * Also allow plain `http:` on loopback hosts (`127.0.0.1`, `localhost`, `[::1]`). A development setting for a
   * local mock or `wrangler dev`; never turn it on in production.
   */
  allowLoopbackHttp?: boolean;
  /**
   * The origin of the page that embeds the frame (in a browser, `window.location.origin`). A URL on this origin
   * is refused (`"same-origin"`) while `sandbox` grants scripts and same-origin together. Without it (on a
   * server) that check cannot be made, so callers pass it as soon as they know it.
   */
  pageOrigin?: string;
  /**
   * The frame's `sandbox` attribute (space-separated tokens). Only read together with `pageOrigin`; when left
   * out, the frame is taken to have both `allow-scripts` and `allow-same-origin` (the worst case).
   */
  sandbox?: string;
}

/** What the app allows. */
export interface LiveViewUrlPolicy extends LiveViewEmbedContext {
  /**
   * Origins whose pages may be embedded, e.g. `["https://live.browser.run"]`, each spelled exactly. Entries
   * that are not origins are ignored; wildcard patterns (`*`, `https://*`, `https://*.example.com`) are a
   * configuration error: they match nothing, and a URL they were meant to cover is refused (`"wildcard"`).
   */
  allowedOrigins: readonly string[];
}

/** A policy whose allow-list was already normalized (see `normalizeOrigins`). */
export interface NormalizedLiveViewUrlPolicy extends LiveViewEmbedContext {
  /** Serialized origins, e.g. `https://live.browser.run`. */
  origins: ReadonlySet<string>;
  /** How many allow-list entries were wildcard patterns (refused; they only change the refusal's reason). */
  wildcards?: number;
}

/** Why a URL was refused. */
export type LiveViewRefusal =
  | "unparsable"
  | "scheme"
  | "credentials"
  | "insecure"
  | "same-origin"
  | "wildcard"
  | "origin";

/** The policy's answer for one URL. */
export type LiveViewUrlVerdict =
  | { allowed: true; url: string; origin: string }
  | { allowed: false; reason: LiveViewRefusal; message: string };

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether `hostname` (as `URL#hostname` spells it) is a loopback address. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * Whether a frame with this `sandbox` attribute may script its embedder when it shares its origin: it has both
 * `allow-scripts` and `allow-same-origin` (tokens are case-insensitive). A missing attribute counts as yes.
 */
export function sandboxCanLiftItself(sandbox: string | undefined): boolean {
  if (sandbox === undefined) return true;
  const tokens = new Set(sandbox.toLowerCase().split(/\s+/));
  return tokens.has("allow-scripts") && tokens.has("allow-same-origin");
}

/**
 * The allow-list as a set of serialized origins (`https://live.browser.run`). A trailing slash or path is
 * tolerated; entries that do not parse or are not http(s) are left out, as is anything with credentials.
 * Entries with a `*` are counted as `wildcards` and left out too: the URL parser reads `https://*.example.com`
 * as a literal host, and no pattern is ever widened into "allow all".
 */
export function normalizeOrigins(allowed: readonly string[]): {
  origins: Set<string>;
  invalid: number;
  wildcards: number;
} {
  const origins = new Set<string>();
  let invalid = 0;
  let wildcards = 0;
  for (const entry of allowed) {
    if (typeof entry === "string" && entry.includes("*")) {
      wildcards += 1;
      continue;
    }
    const u = typeof entry === "string" ? parseUrl(entry.trim()) : undefined;
    if (!u || (u.protocol !== "https:" && u.protocol !== "http:") || u.username || u.password) invalid += 1;
    else origins.add(u.origin);
  }
  return { origins, invalid, wildcards };
}

/**
 * Decides whether `raw` may be embedded (or linked) under `policy`. Checks, in order: it parses as an
 * absolute URL; its scheme is `https:` (or `http:`); it carries no user name or password; plain `http:` only
 * on loopback with `allowLoopbackHttp`; it is not on `pageOrigin` while the sandbox has scripts and
 * same-origin; its origin is in the allow-list (a miss while the list held wildcards says so).
 */
export function checkLiveViewUrl(
  raw: unknown,
  policy: LiveViewUrlPolicy | NormalizedLiveViewUrlPolicy,
): LiveViewUrlVerdict {
  const u = typeof raw === "string" ? parseUrl(raw.trim()) : undefined;
  if (!u)
    return { allowed: false, reason: "unparsable", message: "Not embedded: the address is not a valid URL." };
  if (u.protocol !== "https:" && u.protocol !== "http:")
    return {
      allowed: false,
      reason: "scheme",
      message: `Not embedded: ${u.protocol} addresses are not allowed; only https is.`,
    };
  if (u.username || u.password)
    return {
      allowed: false,
      reason: "credentials",
      message: "Not embedded: the address carries a user name or password.",
    };
  if (u.protocol === "http:") {
    const loopback = isLoopbackHost(u.hostname);
    if (!loopback || !policy.allowLoopbackHttp)
      return {
        allowed: false,
        reason: "insecure",
        message: loopback
          ? `Not embedded: ${u.origin} uses plain http, which is only allowed on loopback with allowLoopbackHttp (development).`
          : `Not embedded: ${u.origin} uses plain http; only https is allowed.`,
      };
  }
  const page = policy.pageOrigin === undefined ? undefined : parseUrl(policy.pageOrigin)?.origin;
  // Same origin plus scripts plus allow-same-origin: the page could reach into the app and drop its sandbox.
  if (page !== undefined && page !== "null" && page === u.origin && sandboxCanLiftItself(policy.sandbox))
    return {
      allowed: false,
      reason: "same-origin",
      message: `Not embedded: ${u.origin} is this app's own address, and a page from it could take control of the app. Live View pages must come from another origin.`,
    };
  const { origins, wildcards = 0 } = "origins" in policy ? policy : normalizeOrigins(policy.allowedOrigins);
  if (!origins.has(u.origin))
    return wildcards > 0
      ? {
          allowed: false,
          reason: "wildcard",
          message: `Not embedded: origin ${u.origin} is not allowed. The allowed origins contain a wildcard pattern, which is not supported; list each origin exactly.`,
        }
      : { allowed: false, reason: "origin", message: `Not embedded: origin ${u.origin} is not allowed.` };
  return { allowed: true, url: u.href, origin: u.origin };
}
