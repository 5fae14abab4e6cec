/** `RunTray`: background runs with status, progress, stall notice, cancel, dismiss and end announcements. */
export * from "./run-tray.tsx";
