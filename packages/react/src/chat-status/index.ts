/** `ChatStatus`: recovery, compaction and other-origin streams shown to a person. */
export * from "./chat-status.tsx";
