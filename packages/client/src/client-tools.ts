/**
 * Client tools and the official helper functions around them, under the official names, so an app that
 * imports them from `@cloudflare/ai-chat/react` switches by changing the import.
 */
import { type ClientToolSchema, getMessagesUrl, redactUrl } from "@runboard/protocol";
import type { UIMessage } from "ai";

/** A client tool: `execute` runs in the page; its schema is announced to the server as `clientTools`. */
export interface ClientTool {
  description?: string;
  parameters?: unknown;
  /** @deprecated The old name of `parameters`; still announced when `parameters` is absent. */
  inputSchema?: unknown;
  execute?: (input: unknown) => unknown;
}

/** Schemas of the tools that run in the page (those with `execute`), as sent in `clientTools`. */
export function extractClientToolSchemas(tools?: Record<string, ClientTool>): ClientToolSchema[] | undefined {
  if (!tools) return undefined;
  const schemas: ClientToolSchema[] = [];
  for (const [name, t] of Object.entries(tools)) {
    if (typeof t.execute !== "function") continue;
    const parameters = t.parameters ?? t.inputSchema;
    schemas.push({
      name,
      ...(t.description === undefined ? {} : { description: t.description }),
      ...(parameters === undefined ? {} : { parameters }),
    });
  }
  return schemas.length > 0 ? schemas : undefined;
}

/**
 * Tools a human must answer: those declared without `execute`.
 * @deprecated As upstream: declare `needsApproval` on the server's tools instead.
 */
export function detectToolsRequiringConfirmation(tools?: Record<string, ClientTool>): string[] {
  return Object.entries(tools ?? {})
    .filter(([, t]) => typeof t.execute !== "function")
    .map(([name]) => name);
}

/** Where `getAgentMessages` reads from: a full URL, or the agent's address. */
export type GetAgentMessagesOptions = (
  | { url: string }
  | { host: string; agent: string; name: string; basePath?: string }
) & { credentials?: RequestCredentials; headers?: HeadersInit };

/**
 * The persisted transcript from the agent's `get-messages` route, e.g. in a route loader before the page
 * renders. Like upstream it never throws: a failed request or a bad body yields `[]` (and a warning whose
 * URLs, which may carry a token, are redacted by `redactUrl`).
 */
export async function getAgentMessages<M extends UIMessage = UIMessage>(
  options: GetAgentMessagesOptions,
): Promise<M[]> {
  const url =
    "url" in options
      ? options.url
      : getMessagesUrl({
          host: options.host,
          agent: options.agent,
          name: options.name,
          ...(options.basePath ? { basePath: options.basePath } : {}),
        });
  try {
    // Both keys even when undefined, as upstream calls it: an app that spies on `fetch` sees the same init.
    const res = await fetch(url, { credentials: options.credentials, headers: options.headers });
    if (!res.ok) {
      console.warn(`[runboard] getAgentMessages: the server answered ${res.status}`);
      return [];
    }
    const text = await res.text();
    if (!text.trim()) return [];
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as M[]) : [];
  } catch (e) {
    // `fetch` quotes the URL when it cannot use it (user info, a URL that does not parse): redact it.
    console.warn(`[runboard] getAgentMessages: ${redactUrl(e instanceof Error ? e.message : String(e))}`);
    return [];
  }
}
