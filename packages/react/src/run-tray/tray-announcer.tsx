/** `RunTray.Announcer`: the tray's polite live region, which says when a run it saw running ends. */
import type { AgentToolRunState } from "@runboard/protocol";
import { endingsAnnouncement, observeEndings, watchRunning } from "@runboard/protocol/view";
import { useEffect, useRef, useState } from "react";
import { useLatest } from "../lifetime.ts";
import { type AnnouncerProps, renderAnnouncer, usePartContext } from "../primitives/index.ts";
import { TrayContext } from "./tray-root.tsx";

/** Props of `RunTray.Announcer`. */
export interface RunTrayAnnouncerProps extends AnnouncerProps {
  /** The sentence for runs that just ended. Default `Research finished` / `Research failed: <error>` / … */
  format?: (ended: readonly AgentToolRunState[]) => string;
}

/**
 * A visually hidden polite live region (`role="status"`) that speaks when a run this tray saw running ends:
 * finished, failed (with the error), cancelled or interrupted. Runs already finished when it mounts are
 * history and are not announced; progress ticks never are. It works whether the tray is open or closed.
 */
export function Announcer({ format = endingsAnnouncement, ...props }: RunTrayAnnouncerProps) {
  const { runs } = usePartContext(TrayContext, "RunTray.Announcer");
  const watched = useRef<ReturnType<typeof watchRunning> | null>(null);
  if (watched.current === null) watched.current = watchRunning(runs);
  const [message, setMessage] = useState("");
  const formatRef = useLatest(format);
  useEffect(() => {
    const { watched: next, ended } = observeEndings(watched.current ?? new Map(), runs);
    watched.current = next;
    if (ended.length > 0) setMessage(formatRef.current(ended));
  }, [runs, formatRef]);
  return renderAnnouncer(message, { "data-rb-part": "RunTray.Announcer", ...props });
}
Announcer.displayName = "RunTray.Announcer";
