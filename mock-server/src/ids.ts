/** Ids in the shapes the real hosts produce, so clients see nothing a real server would not send. */
// Web Crypto (global in browsers and Node 20), so the MSW transport bundles for the browser without node:crypto.
const randomBytes = (n: number) => crypto.getRandomValues(new Uint8Array(n));

const URL_ALPHABET = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function pick(alphabet: string, n: number): string {
  const bytes = randomBytes(n);
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[(bytes[i] ?? 0) % alphabet.length];
  return out;
}

/** nanoid-style id (`nanoid(8)` for request ids, `nanoid(21)` for server request ids). */
export const nanoid = (n = 21) => pick(URL_ALPHABET, n);

/** A random UUID (Think's message and request ids). */
export const uuid = () => crypto.randomUUID();

/** `n` random base-36 characters (the tail of AIChatAgent's assistant message ids). */
export const base36 = (n: number) => pick("abcdefghijklmnopqrstuvwxyz0123456789", n);

let toolCounter = 0;
/** Tool call ids look like the scripted model's: `call-<slug>-<base36 time>-<n>`. */
export function toolCallId(toolName: string): string {
  const slug =
    toolName
      .replace(/[^a-zA-Z]/g, "")
      .slice(0, 8)
      .toLowerCase() || "tool";
  return `call-${slug}-${Date.now().toString(36)}-${toolCounter++}`;
}

/** AI SDK approval ids: `aitxt-` plus 24 alphanumerics. */
export const approvalId = () => `aitxt-${pick(ALNUM, 24)}`;

/** Detached run ids: 12 url-safe characters. */
export const detachedRunId = () => pick(ALNUM, 12);
