/**
 * Which web pages may talk to the Node mock server. A browser sends any page's requests to 127.0.0.1, so
 * without these checks any site the developer visits could open an agent socket (WebSockets are not bound by
 * CORS) or, via DNS rebinding (its own name resolving to 127.0.0.1), read transcripts over HTTP. Browsers always
 * send `Origin` on WebSocket upgrades and the page's `Host`; Node and other non-browser clients send no
 * `Origin`, and they are let through.
 */

/** Host names that always mean this machine. */
const LOOPBACK_HOSTS = new Set(["localhost", "[::1]", "::1"]);

/** Whether a URL host name (brackets kept for IPv6) is a loopback name or address. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return LOOPBACK_HOSTS.has(h) || h.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(h);
}

/** `scheme://host[:port]` of an origin-like string, lower-cased; undefined when it is not one. */
export function normaliseOrigin(origin: string): string | undefined {
  try {
    const u = new URL(origin);
    return /^https?:$/.test(u.protocol) ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The host name of a `Host` header value (`name[:port]`, `[v6][:port]`); undefined when malformed. */
function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** The decisions `server.ts` needs, built once from the options. */
export interface OriginPolicy {
  /** Whether a request's `Origin` header (undefined: none sent) may use the server. */
  originAllowed(origin: string | undefined): boolean;
  /**
   * Whether a request that acts (a WebSocket upgrade, a POST) may: its `Origin` is allowed, or it sends none
   * and its `Sec-Fetch-Site` (undefined: none sent) does not say a page of another origin sent it. Browsers
   * send `Origin` on every upgrade and POST, cross-origin `no-cors` ones included, so a page elsewhere is
   * refused whatever the content type; Node and other non-browser clients send neither header and pass.
   */
  actionAllowed(origin: string | undefined, fetchSite: string | undefined): boolean;
  /** Whether a request's `Host` header names this server (loopback, the bound address, or an allowed origin). */
  hostAllowed(host: string | undefined): boolean;
  /** The `Access-Control-Allow-Origin` value for a request's `Origin`, or undefined to send none. */
  corsOrigin(origin: string | undefined): string | undefined;
}

/**
 * The policy for `allowedOrigins` (extra origins, e.g. `http://192.168.1.20:5173`, on top of the loopback ones:
 * http and https on localhost, 127.0.0.0/8 and [::1], any port) and the address the server listens on. `*`
 * in the list lets every origin and host through, for a deliberate, trusted setup.
 */
export function originPolicy(allowedOrigins: readonly string[] = [], boundHost = "127.0.0.1"): OriginPolicy {
  const any = allowedOrigins.includes("*");
  const origins = new Set<string>();
  for (const o of allowedOrigins) {
    if (o === "*") continue;
    const n = normaliseOrigin(o);
    if (n === undefined) throw new Error(`mock-server: allowedOrigins: "${o}" is not an http(s) origin`);
    origins.add(n);
  }
  const hosts = new Set([...origins].map((o) => new URL(o).hostname));
  // Listening on one specific address means clients name it; a wildcard address names nothing.
  const bound = hostnameOf(boundHost.includes(":") ? `[${boundHost}]` : boundHost);
  if (bound && bound !== "0.0.0.0" && bound !== "[::]") hosts.add(bound);

  const originAllowed = (origin: string | undefined) => {
    if (origin === undefined || any) return true;
    const n = normaliseOrigin(origin);
    if (n === undefined) return false;
    return origins.has(n) || isLoopbackHost(new URL(n).hostname);
  };
  return {
    originAllowed,
    actionAllowed: (origin, fetchSite) => {
      if (any) return true;
      if (origin !== undefined) return originAllowed(origin);
      // No Origin: a non-browser client, unless the browser's own metadata names another page as the sender.
      return fetchSite === undefined || fetchSite === "same-origin" || fetchSite === "none";
    },
    hostAllowed: (host) => {
      // HTTP/1.0 clients may send no Host; browsers always do, so a missing one is no rebinding attempt.
      if (host === undefined || any) return true;
      const name = hostnameOf(host);
      return name !== undefined && (isLoopbackHost(name) || hosts.has(name));
    },
    corsOrigin: (origin) => {
      if (origin === undefined) return undefined;
      if (any) return "*";
      return originAllowed(origin) ? normaliseOrigin(origin) : undefined;
    },
  };
}

/**
 * Whether a `Content-Type` header names JSON (`application/json`, any parameters). A page on another origin can
 * send a POST without asking first only with a form or plain-text type; any other type makes the browser send a
 * preflight `OPTIONS` first, which the server answers for allowed origins only.
 */
export function isJsonContentType(type: string | undefined): boolean {
  return type !== undefined && /^\s*application\/json\s*(;|$)/i.test(type);
}
