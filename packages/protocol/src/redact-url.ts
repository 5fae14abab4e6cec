/**
 * Redaction of URLs before they reach a log or an error message. An agent's URL can carry credentials:
 * user info (`user:pass@`), a `?token=` the app's `query` added, a signed-URL signature. Errors from
 * `fetch` and `new URL` echo the URL they were given, so any text built from them is passed through here.
 *
 * The rule is deliberately blunt, so that a parameter name nobody listed cannot slip through: user info is
 * replaced as a whole, and the value of every `name=value` pair (query, fragment, or loose text) is replaced,
 * keeping the name so the message still says which parameters were there. Scheme, host and path are kept.
 * It works on text, not on a parsed URL, so a URL that fails to parse (the very case that ends in an error
 * message) is redacted the same way and never echoed raw.
 */

/** What a redacted value is replaced with. */
export const REDACTED = "***";

/** `scheme://userinfo@`: everything between `//` and the last `@` before the host's end. */
const USER_INFO_AFTER_SLASHES = /\/\/[^\s/?#"'<>]*@/g;
/** `user:pass@` without a scheme in front (a URL that lost its `//`, or loose text). */
const BARE_USER_INFO = /(^|[\s"'<>(])[^\s/?#:@"'<>(]+:[^\s/?#@"'<>]*@/g;
/** `name=value`; the value runs to the next separator, and may itself contain `=` (base64 padding). */
const NAME_VALUE = /([^\s=&?#;"'<>]*)=([^\s&#;"'<>]*)/g;

/**
 * `input` (a URL or its text, a URL that does not parse, or any message that quotes URLs) with user info and the value
 * of every `name=value` pair replaced by {@link REDACTED}; parameter names, scheme, host and path are kept.
 *
 * @example
 * redactUrl("https://me:pw@agents.example/chat?token=abc&x=1")
 * // "https://***@agents.example/chat?token=***&x=***"
 */
export function redactUrl(input: string | { readonly href: string }): string {
  return (typeof input === "string" ? input : input.href)
    .replace(USER_INFO_AFTER_SLASHES, `//${REDACTED}@`)
    .replace(BARE_USER_INFO, (_, before: string) => `${before}${REDACTED}@`)
    .replace(NAME_VALUE, (pair, name: string, value: string) => (value ? `${name}=${REDACTED}` : pair));
}
