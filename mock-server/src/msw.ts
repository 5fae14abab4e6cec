/**
 * The scripted agents without a Node server: MSW intercepts the page's WebSocket and fetch calls and hands
 * them to the same hub the Node server uses, so browser tests, jsdom tests and Storybook see the very same
 * frames. Import from `@runboard/mock-server/msw`; `msw` (v2) is a peer dependency.
 *
 * Differences from the Node transport, because MSW has no HTTP upgrade step: a refused socket (unknown agent,
 * bad name) opens and is then closed with 1008 and the reason "Not Found" or "Bad Request"; an abrupt drop
 * (`terminate`) is a close with 1006. Live View pages are answered to fetch; an iframe navigation is not
 * intercepted by MSW, so embedding them needs the Node server.
 */
import { HttpResponse, http, type RequestHandler, type WebSocketHandler, ws } from "msw";
import { connectionId, type MockConnection } from "./connection.ts";
import { Hub, type HubOptions, type MockController } from "./hub.ts";

export interface MockAgentHandlersOptions extends HubOptions {
  /** Origin the app connects to. Default `http://mock-agent.local` (sockets: `ws://mock-agent.local`). */
  origin?: string;
  /** Largest client frame accepted; bigger ones close the socket with 1009. Default 1 MiB. */
  maxFrameBytes?: number;
}

export interface MockAgentHandlers {
  /** Pass to `setupServer(...handlers)` (msw/node) or `setupWorker(...handlers)` (msw/browser). */
  handlers: Array<RequestHandler | WebSocketHandler>;
  controller: MockController;
  hub: Hub;
}

const REFUSED = { 400: "Bad Request", 404: "Not Found" } as const;

/** MSW handlers serving the given agents at `origin`. */
export function createMockAgentHandlers(options: MockAgentHandlersOptions): MockAgentHandlers {
  const origin = (options.origin ?? "http://mock-agent.local").replace(/\/$/, "");
  const hub = new Hub(options);
  hub.baseUrl = origin;
  const maxBytes = options.maxFrameBytes ?? 1 << 20;
  const link = ws.link(`${origin.replace(/^http/, "ws")}/agents/*`);

  const sockets = link.addEventListener("connection", ({ client }) => {
    const a = hub.accept(client.url.pathname);
    if (a.status !== 200) {
      client.close(1008, REFUSED[a.status]);
      return;
    }
    const conn: MockConnection = {
      id: connectionId(),
      send: (text) => client.send(text),
      close: (code, reason) => client.close(code, reason),
      terminate: () => client.close(1006, ""),
    };
    client.addEventListener("message", (e) => {
      const data = e.data;
      if (typeof data === "string" && data.length > maxBytes) {
        // Same answer as the Node server (ws `maxPayload`): 1009, message too big.
        hub.dropConnection(conn);
        client.close(1009, "Message Too Big");
        return;
      }
      hub.message(conn, typeof data === "string" ? data : undefined);
    });
    client.addEventListener("close", () => hub.dropConnection(conn));
    a.open(conn);
  });

  const answer = (method: string, url: string) => {
    const r = hub.http(method, new URL(url).pathname);
    return new HttpResponse(r.body ?? null, {
      status: r.status,
      headers: { ...(r.type ? { "content-type": r.type } : {}), ...r.headers },
    });
  };
  const handlers: Array<RequestHandler | WebSocketHandler> = [
    sockets,
    http.get(`${origin}/health`, ({ request }) => answer("GET", request.url)),
    http.get(`${origin}/agents/*`, ({ request }) => answer("GET", request.url)),
    http.get(`${origin}/live-view/*`, ({ request }) => answer("GET", request.url)),
  ];
  return { handlers, controller: hub.controller, hub };
}
