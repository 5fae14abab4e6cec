/** Development-only warnings that name the part and the fix; silent in production builds. */
const seen = new Set<string>();

const isDev = () => {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.NODE_ENV !== "production";
};

/** Warns once per key, in development only. */
export function warnOnce(key: string, message: string): void {
  if (!isDev() || seen.has(key)) return;
  seen.add(key);
  console.warn(`[runboard] ${message}`);
}
