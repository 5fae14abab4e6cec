/** `MessageParts`: a message's parts through a components map, every kind replaceable. */
export * from "./message-parts.tsx";
export type * from "./types.ts";
