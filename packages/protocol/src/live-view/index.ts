/**
 * The pure rules behind a Live View: the session on the wire and its reader, refresh timing, which targets
 * become tabs, which URL each frame shows, which URLs may be embedded, and the states and status text.
 */
export * from "./frame-sources.ts";
export * from "./refresh-timing.ts";
export * from "./session.ts";
export * from "./status.ts";
export * from "./targets.ts";
export * from "./url-policy.ts";
