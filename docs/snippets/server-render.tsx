import { renderToString } from "react-dom/server";
import { App } from "./chat-app.tsx";

/**
 * The chat's HTML on the server. Nothing connects here: the hooks open their socket after the page hydrates
 * (`hydrateRoot(root, <App host={host} />)` in the browser), so the server needs no access to the agent.
 */
export function renderChatPage(host: string): string {
  return `<div id="root">${renderToString(<App host={host} />)}</div>`;
}
