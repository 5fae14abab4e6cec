/** `@runboard/mock-server`: a mock Cloudflare agent server speaking the real wire protocol. */
export * from "./connection.ts";
export { MockController, type SentFrame } from "./controller.ts";
export * from "./demo.ts";
export * from "./helix.ts";
export { Hub, type HubOptions } from "./hub.ts";
export * from "./live-view.ts";
export * from "./script.ts";
export * from "./server.ts";
