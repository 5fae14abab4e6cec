/** `ApprovalCard.Status`: the card's live region, saying what happened to the request. */
import type { ApprovalRequest, ApprovalState } from "@runboard/protocol";
import { approvalStatusText, revealHiddenCharacters } from "@runboard/protocol/view";
import type { ReactNode } from "react";
import { type AnnouncerProps, renderAnnouncer, usePartContext } from "../primitives/index.ts";
import { CardContext } from "./approval-card-context.ts";

/** Props of `ApprovalCard.Status`. */
export interface ApprovalCardStatusProps extends AnnouncerProps {
  /** Replaces the default text; a function gets the state and the request. */
  children?: ReactNode | ((state: ApprovalState, request: ApprovalRequest) => ReactNode);
}

/**
 * A polite live region announcing the outcome ("Approved.", "Denied: <reason>.", "Answered elsewhere: …"), and
 * nothing while the request waits. Always rendered, so screen readers hear each change. Unlike the kit's other
 * announcers it is shown by default, being the card's visible status line too; `visible={false}` hides it.
 */
export function ApprovalCardStatus(props: ApprovalCardStatusProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Status");
  const { children, visible = true, ...rest } = props;
  // The default echoes a denial's reason, text from elsewhere: hidden characters in it are shown as markers.
  const text =
    typeof children === "function"
      ? children(c.state, c.request)
      : (children ?? revealHiddenCharacters(approvalStatusText(c.state, c.request)));
  return renderAnnouncer(text, {
    "data-rb-part": "ApprovalCard.Status",
    visible,
    "data-status": c.state,
    ...rest,
  });
}
ApprovalCardStatus.displayName = "ApprovalCard.Status";
