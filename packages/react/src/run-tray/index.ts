/** `RunTray`: background runs with status, progress, stall notice, cancel, dismiss and end announcements. */
export * from "./run-tray.tsx";
export {
  activeCount,
  canCancel,
  canDismiss,
  endingsAnnouncement,
  isStalled,
  runEndAnnouncement,
  stalledLabel,
  TRAY_STATUS_LABELS,
  type TrayStatus,
  trayStatus,
  visibleRuns,
} from "./tray-model.ts";
