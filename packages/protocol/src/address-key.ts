/**
 * A storage key for an agent that never carries its credentials. An agent's URL can hold a `?token=`, a
 * signature or `user:pass@`; a key built from the whole URL writes them into `sessionStorage`, where any script
 * of the page and any dump of the storage reads them. The key is built from the address alone (host and path:
 * agent class, instance name, sub-agent chain), so a rotated token also keeps the same key. It lives here, not
 * in the client, because it is pure text work with no IO, and any store keyed by agent can use it.
 */

/** `scheme://` at the start of a URL. */
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * FNV-1a, 32 bits, over the UTF-16 code units of `text`, as 8 lowercase hex digits. Deterministic and small;
 * not cryptographic: it only keeps keys short and opaque, nothing secret goes in.
 */
export function fnv1a32(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/**
 * The address of an agent URL: host and path, without scheme, user info, query or fragment. Textual, so a URL
 * that does not parse loses its credentials too.
 *
 * @example
 * agentAddressOf("https://me:pw@my.app/agents/chat-agent/r?token=abc") // "my.app/agents/chat-agent/r"
 */
export function agentAddressOf(url: string): string {
  const rest = url.trim().replace(SCHEME, "");
  const end = rest.search(/[?#]/);
  const noQuery = end === -1 ? rest : rest.slice(0, end);
  const slash = noQuery.indexOf("/");
  const authority = slash === -1 ? noQuery : noQuery.slice(0, slash);
  const path = slash === -1 ? "" : noQuery.slice(slash);
  // User info ends at the last `@` of the authority (a password may hold an `@` of its own).
  const host = authority.slice(authority.lastIndexOf("@") + 1).toLowerCase();
  return host + path.replace(/\/+$/, "");
}

/**
 * A short opaque key for the agent at `url`: {@link fnv1a32} of {@link agentAddressOf}. Two URLs of the same
 * agent that differ only in their query (another token) get the same key; different agents or instances get
 * different ones.
 */
export function agentAddressKey(url: string): string {
  return fnv1a32(agentAddressOf(url));
}
