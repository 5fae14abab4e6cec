/** `@runboard/mock-server`: a mock Cloudflare agent server speaking the real wire protocol. */
export * from "./demo.ts";
export * from "./server.ts";
