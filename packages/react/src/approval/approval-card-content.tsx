/**
 * What a card shows about its request: the name, the summary, the risk, the permissions, the exact arguments
 * and the expiry. Each part carries the card's `data-status`. Every text a part takes from the request goes
 * through `revealHiddenCharacters`: a person approves what they read, so a bidi override or a zero-width
 * character in a name or an argument is shown as a marker (`⟨U+202E⟩`) instead of silently reordering or
 * hiding text. Children an app passes are its own and shown as given.
 */
import { formatArguments, revealHiddenCharacters } from "@runboard/protocol/view";
import { useLayoutEffect } from "react";
import {
  dataFlag,
  formatElapsed,
  type PrimitiveProps,
  renderPart,
  usePartContext,
} from "../primitives/index.ts";
import { CardContext } from "./approval-card-context.ts";

/** "high" → "High risk". */
export const riskLabel = (risk: string): string =>
  revealHiddenCharacters(`${risk.charAt(0).toUpperCase()}${risk.slice(1)} risk`);

/** Props of `ApprovalCard.Title`. */
export type ApprovalCardTitleProps = PrimitiveProps<"h3">;

/** The tool or action name (children replace it); names the card. An `h3`; use `asChild` for another level. */
export function ApprovalCardTitle(props: ApprovalCardTitleProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Title");
  const { registerTitle } = c;
  useLayoutEffect(() => registerTitle(), [registerTitle]);
  return renderPart("h3", {
    "data-rb-part": "ApprovalCard.Title",
    id: c.titleId,
    "data-status": c.state,
    ...props,
    children: props.children ?? revealHiddenCharacters(c.request.name),
  });
}
ApprovalCardTitle.displayName = "ApprovalCard.Title";

/** Props of `ApprovalCard.Summary`. */
export type ApprovalCardSummaryProps = PrimitiveProps<"p">;

/** The descriptor's one-line summary (or the workflow item's title). Renders nothing when there is none. */
export function ApprovalCardSummary(props: ApprovalCardSummaryProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Summary");
  const summary = c.request.summary;
  const children = props.children ?? (summary === undefined ? undefined : revealHiddenCharacters(summary));
  if (children === undefined || children === null) return null;
  return renderPart("p", {
    "data-rb-part": "ApprovalCard.Summary",
    "data-status": c.state,
    ...props,
    children,
  });
}
ApprovalCardSummary.displayName = "ApprovalCard.Summary";

/** Props of `ApprovalCard.Risk`. */
export type ApprovalCardRiskProps = PrimitiveProps<"span">;

/** The risk level (`data-risk`), e.g. "High risk". Renders nothing when the request carries none. */
export function ApprovalCardRisk(props: ApprovalCardRiskProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Risk");
  const risk = c.request.risk;
  if (!risk) return null;
  return renderPart("span", {
    "data-rb-part": "ApprovalCard.Risk",
    "data-risk": risk,
    "data-status": c.state,
    ...props,
    children: props.children ?? riskLabel(risk),
  });
}
ApprovalCardRisk.displayName = "ApprovalCard.Risk";

/** Props of `ApprovalCard.Permissions`. */
export type ApprovalCardPermissionsProps = PrimitiveProps<"ul">;

/** The permissions the action needs, one `<li>` each (`data-count`). Renders nothing when there are none. */
export function ApprovalCardPermissions(props: ApprovalCardPermissionsProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Permissions");
  const permissions = c.request.permissions ?? [];
  if (permissions.length === 0) return null;
  return renderPart("ul", {
    "data-rb-part": "ApprovalCard.Permissions",
    "data-status": c.state,
    "data-count": permissions.length,
    ...props,
    children: props.children ?? permissions.map((p) => <li key={p}>{revealHiddenCharacters(p)}</li>),
  });
}
ApprovalCardPermissions.displayName = "ApprovalCard.Permissions";

/** Props of `ApprovalCard.Arguments`. */
export interface ApprovalCardArgumentsProps extends PrimitiveProps<"pre"> {
  /**
   * Turns the arguments into text. Default: indented JSON. The result is rendered as text, never as HTML, with
   * hidden characters (bidi controls, zero-width, control characters) shown as markers.
   */
  format?: (args: unknown) => string;
}

/**
 * The exact arguments, as text in a `<pre>`. While the authoritative arguments load (Think) it shows the
 * preview with `aria-busy` and `data-complete` absent.
 */
export function ApprovalCardArguments(props: ApprovalCardArgumentsProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Arguments");
  const { format = formatArguments, ...rest } = props;
  const complete = c.request.argumentsComplete;
  return renderPart("pre", {
    "data-rb-part": "ApprovalCard.Arguments",
    "data-status": c.state,
    "data-complete": dataFlag(complete),
    "aria-busy": complete ? undefined : true,
    ...rest,
    children: rest.children ?? revealHiddenCharacters(format(c.request.arguments)),
  });
}
ApprovalCardArguments.displayName = "ApprovalCard.Arguments";

/** Props of `ApprovalCard.Expiry`. */
export interface ApprovalCardExpiryProps extends PrimitiveProps<"time"> {
  /** Text for the time left (default "Expires in 1:05") or, with `0`, once expired (default "Expired"). */
  format?: (remainingMs: number) => string;
}

const defaultExpiryText = (ms: number) => (ms <= 0 ? "Expired" : `Expires in ${formatElapsed(ms)}`);

/**
 * When the request expires, counting down (`data-expired` once it has). Renders nothing for a request without
 * an expiry. The time left depends on the browser's clock, so the server (and the page hydrating its HTML)
 * shows the expiry itself as an ISO datetime; the countdown replaces it right after mount.
 */
export function ApprovalCardExpiry(props: ApprovalCardExpiryProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Expiry");
  const { format = defaultExpiryText, ...rest } = props;
  const at = c.request.expiresAt;
  if (at === undefined) return null;
  const iso = new Date(at).toISOString();
  const remaining = c.now === null ? null : Math.max(0, at - c.now);
  return renderPart("time", {
    "data-rb-part": "ApprovalCard.Expiry",
    dateTime: iso,
    "data-status": c.state,
    "data-expired": dataFlag(remaining !== null && remaining <= 0),
    ...rest,
    children: rest.children ?? (remaining === null ? iso : format(remaining)),
  });
}
ApprovalCardExpiry.displayName = "ApprovalCard.Expiry";
