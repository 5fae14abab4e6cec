/**
 * Which Live View URLs may be embedded. A Live View page runs with scripts and its own origin inside the app,
 * so only `https:` pages from origins the app names are let in; everything else is refused with a reason a
 * person can read. Reasons name at most the origin, never the full URL (paths carry session tokens).
 */
import { parseUrl } from "./parse-url.ts";

/** What the app allows. */
export interface LiveViewUrlPolicy {
  /** Origins whose pages may be embedded, e.g. `["https://live.browser.run"]`. Entries that are not origins are ignored. */
  allowedOrigins: readonly string[];
  /**
   * Also allow plain `http:` on loopback hosts (`127.0.0.1`, `localhost`, `[::1]`). A development setting for a
   * local mock or `wrangler dev`; never turn it on in production.
   */
  allowLoopbackHttp?: boolean;
}

/** Why a URL was refused. */
export type LiveViewRefusal = "unparsable" | "scheme" | "credentials" | "insecure" | "origin";

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
 * The allow-list as a set of serialized origins (`https://live.browser.run`). A trailing slash or path is
 * tolerated; entries that do not parse or are not http(s) are left out, as is anything with credentials.
 */
export function normalizeOrigins(allowed: readonly string[]): { origins: Set<string>; invalid: number } {
  const origins = new Set<string>();
  let invalid = 0;
  for (const entry of allowed) {
    const u = typeof entry === "string" ? parseUrl(entry.trim()) : undefined;
    if (!u || (u.protocol !== "https:" && u.protocol !== "http:") || u.username || u.password) invalid += 1;
    else origins.add(u.origin);
  }
  return { origins, invalid };
}

/**
 * Decides whether `raw` may be embedded (or linked) under `policy`. Checks, in order: it parses as an
 * absolute URL; its scheme is `https:` (or `http:`); it carries no user name or password; plain `http:` only
 * on loopback with `allowLoopbackHttp`; its origin is in the allow-list.
 */
export function checkLiveViewUrl(
  raw: unknown,
  policy: LiveViewUrlPolicy | { origins: ReadonlySet<string>; allowLoopbackHttp?: boolean },
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
  const origins = "origins" in policy ? policy.origins : normalizeOrigins(policy.allowedOrigins).origins;
  if (!origins.has(u.origin))
    return { allowed: false, reason: "origin", message: `Not embedded: origin ${u.origin} is not allowed.` };
  return { allowed: true, url: u.href, origin: u.origin };
}
