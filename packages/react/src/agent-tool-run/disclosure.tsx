/**
 * The disclosure of `AgentToolRun` (WAI-ARIA): a header row, the trigger whose `aria-expanded` /
 * `aria-controls` point at the content, and the content it shows and hides.
 */
import type { MouseEvent } from "react";
import {
  composeEventHandlers,
  type PrimitiveProps,
  renderPart,
  usePartContext,
} from "../primitives/index.ts";
import { RunContext } from "./root.tsx";

/** Props of `AgentToolRun.Header`. */
export type AgentToolRunHeaderProps = PrimitiveProps<"div">;
/** Props of `AgentToolRun.Trigger`. */
export type AgentToolRunTriggerProps = PrimitiveProps<"button">;

/** A header row for the icon, title, type, status and elapsed time. `data-status` = the run's status. */
export function Header(props: AgentToolRunHeaderProps) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Header");
  return renderPart("div", { "data-rb-part": "AgentToolRun.Header", "data-status": run.status, ...props });
}
Header.displayName = "AgentToolRun.Header";

/** The disclosure button: toggles the content; `aria-expanded`, `aria-controls`, `data-state` `open | closed`. */
export function Trigger({ onClick, ...props }: AgentToolRunTriggerProps) {
  const { open, toggle, contentId } = usePartContext(RunContext, "AgentToolRun.Trigger");
  return renderPart("button", {
    "data-rb-part": "AgentToolRun.Trigger",
    type: "button",
    "aria-expanded": open,
    "aria-controls": contentId,
    "data-state": open ? "open" : "closed",
    onClick: composeEventHandlers(onClick, (_e: MouseEvent<HTMLButtonElement>) => toggle()),
    ...props,
  });
}
Trigger.displayName = "AgentToolRun.Trigger";

/** Props of `AgentToolRun.Content`. */
export interface AgentToolRunContentProps extends PrimitiveProps<"div"> {
  /** Keep the children mounted while closed (hidden), e.g. for exit animations. */
  forceMount?: boolean;
}

/**
 * What the trigger shows and hides (`data-state` `open | closed`, `data-status` the run's status). Stays in
 * the DOM (hidden) when closed so `aria-controls` resolves.
 */
export function Content({ forceMount, children, ...props }: AgentToolRunContentProps) {
  const { open, contentId, run } = usePartContext(RunContext, "AgentToolRun.Content");
  return renderPart("div", {
    "data-rb-part": "AgentToolRun.Content",
    id: contentId,
    hidden: !open,
    "data-state": open ? "open" : "closed",
    "data-status": run.status,
    children: open || forceMount ? children : null,
    ...props,
  });
}
Content.displayName = "AgentToolRun.Content";
