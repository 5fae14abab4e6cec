/** Building blocks shared by the headless components (internal; not exported from the package). */
export * from "./action-button.tsx";
export * from "./announcer.tsx";
export * from "./compose-event-handlers.ts";
export * from "./dev-warning.ts";
export * from "./merge-refs.ts";
export * from "./part-context.ts";
export * from "./primitive.tsx";
export * from "./roving-focus.ts";
export * from "./use-controllable-state.ts";
export * from "./use-hydrated.ts";
export * from "./use-now.ts";
export * from "./visually-hidden.ts";
