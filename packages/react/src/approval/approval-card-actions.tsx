/**
 * The card's decisions: Approve (through the confirm step when the card asks for one), Deny, and the form for
 * denying with a reason. Each button is disabled (`disabled`, `data-disabled`) while its action cannot be sent.
 */
import { type ChangeEvent, type SubmitEvent, useCallback, useContext, useMemo } from "react";
import {
  composeEventHandlers,
  createActionButton,
  dataFlag,
  mergeRefs,
  type PrimitiveProps,
  renderPart,
  useControllableState,
  usePartContext,
  warnOnce,
} from "../primitives/index.ts";
import { CardContext, DenyFormContext } from "./approval-card-context.ts";

/**
 * The Approve action of the enclosing card, or `null` when it cannot be sent now (submitting, decided,
 * offline, expired, or the full arguments still loading). When the card asks for confirmation, the callback
 * opens the confirm dialog instead of approving.
 */
export function useApprove(part = "useApprove"): (() => void) | null {
  const c = usePartContext(CardContext, part);
  const { approvable, needsConfirm, setConfirmOpen, approve, confirmMounted } = c;
  const action = useCallback(() => {
    if (!needsConfirm) {
      approve();
      return;
    }
    if (confirmMounted.current > 0) {
      setConfirmOpen(true);
      return;
    }
    warnOnce(
      "ApprovalCard.Approve:no-confirm",
      "ApprovalCard.Approve: this request asks for confirmation (high risk) but no <ApprovalCard.Confirm> is rendered, so it was approved without one. Render <ApprovalCard.Confirm> inside <ApprovalCard.Root>, or pass confirm={false} to the root to approve in one step on purpose.",
    );
    approve();
  }, [needsConfirm, setConfirmOpen, approve, confirmMounted]);
  return approvable ? action : null;
}

/** The Deny action of the enclosing card (an optional reason), or `null` when it cannot be sent now. */
export function useDeny(part = "useDeny"): ((reason?: string) => void) | null {
  const c = usePartContext(CardContext, part);
  const { deniable, deny } = c;
  const action = useCallback((reason?: string) => void deny(reason), [deny]);
  return deniable ? action : null;
}

/** Props of `ApprovalCard.Approve`. */
export type ApprovalCardApproveProps = PrimitiveProps<"button">;

const ApproveButton = createActionButton<ApprovalCardApproveProps>("ApprovalCard.Approve", () => {
  const c = usePartContext(CardContext, "ApprovalCard.Approve");
  const action = useApprove("ApprovalCard.Approve");
  return {
    action,
    label: "Approve",
    attributes: {
      "data-status": c.state,
      "aria-haspopup": c.needsConfirm && action ? "dialog" : undefined,
    },
  };
});

/**
 * The Approve button: disabled while it cannot be sent; opens the confirm dialog when the card asks for one.
 * Never focused automatically (an `autoFocus` prop is dropped): approving must be a deliberate act.
 */
export function ApprovalCardApprove(props: ApprovalCardApproveProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Approve");
  const { autoFocus, ref, ...rest } = props;
  if (autoFocus)
    warnOnce(
      "ApprovalCard.Approve:autoFocus",
      "ApprovalCard.Approve ignores autoFocus: approving must never be one stray Enter away. Focus the card or Deny instead.",
    );
  return <ApproveButton {...rest} ref={mergeRefs(c.approveRef, ref as typeof c.approveRef)} />;
}
ApprovalCardApprove.displayName = "ApprovalCard.Approve";

/** Props of `ApprovalCard.Deny`. */
export type ApprovalCardDenyProps = PrimitiveProps<"button">;

// In the form the submit handler sends, with the reason, so Enter in the text and a click send the same thing.
const submits = () => {};

/**
 * The Deny button. Inside `ApprovalCard.DenyReason` it submits the form and sends the typed reason; elsewhere
 * it denies without one.
 */
export const ApprovalCardDeny = createActionButton<ApprovalCardDenyProps>("ApprovalCard.Deny", () => {
  const c = usePartContext(CardContext, "ApprovalCard.Deny");
  const deny = useDeny("ApprovalCard.Deny");
  const inForm = useContext(DenyFormContext.Context) !== null;
  return {
    action: deny === null ? null : inForm ? submits : () => deny(),
    label: "Deny",
    attributes: { type: inForm ? "submit" : "button", "data-status": c.state },
  };
});

/** Props of `ApprovalCard.DenyReason`. */
export interface ApprovalCardDenyReasonProps extends PrimitiveProps<"form"> {
  /** The reason text (controlled). */
  reason?: string;
  /** The initial reason text (uncontrolled). */
  defaultReason?: string;
  onReasonChange?: (reason: string) => void;
}

/**
 * A form for denying with a reason: put `ApprovalCard.DenyReasonInput` and `ApprovalCard.Deny` inside. The
 * reason travels as the denial's text (chat: an `output-error` tool output; Think and workflows: the reject
 * callable's reason). An empty reason denies without one.
 */
export function ApprovalCardDenyReason(props: ApprovalCardDenyReasonProps) {
  const c = usePartContext(CardContext, "ApprovalCard.DenyReason");
  const { reason: reasonProp, defaultReason = "", onReasonChange, onSubmit, ...rest } = props;
  const [reason, setReason] = useControllableState({
    prop: reasonProp,
    defaultProp: defaultReason,
    onChange: onReasonChange,
    part: "ApprovalCard.DenyReason (reason)",
  });
  const value = useMemo(() => ({ reason, setReason }), [reason, setReason]);
  return (
    <DenyFormContext.Context.Provider value={value}>
      {renderPart("form", {
        "data-rb-part": "ApprovalCard.DenyReason",
        "data-status": c.state,
        ...rest,
        onSubmit: (e: SubmitEvent<HTMLFormElement>) => {
          // Not composed: an app's onSubmit calls preventDefault out of habit, to stop the page navigating, and
          // that must not cancel the denial.
          onSubmit?.(e);
          e.preventDefault();
          if (c.deniable) c.deny(reason);
        },
      })}
    </DenyFormContext.Context.Provider>
  );
}
ApprovalCardDenyReason.displayName = "ApprovalCard.DenyReason";

/** Props of `ApprovalCard.DenyReasonInput`. */
export type ApprovalCardDenyReasonInputProps = PrimitiveProps<"textarea">;

/**
 * The reason's text area, bound to the enclosing `ApprovalCard.DenyReason`. Labelled "Reason for denying"
 * unless you label it (`aria-label`, `aria-labelledby`, or an `id` with a `<label htmlFor>`).
 */
export function ApprovalCardDenyReasonInput(props: ApprovalCardDenyReasonInputProps) {
  const c = usePartContext(CardContext, "ApprovalCard.DenyReasonInput");
  const form = usePartContext(DenyFormContext, "ApprovalCard.DenyReasonInput");
  const { onChange, ...rest } = props;
  const labelled = rest["aria-label"] ?? rest["aria-labelledby"] ?? rest.id;
  return renderPart("textarea", {
    "data-rb-part": "ApprovalCard.DenyReasonInput",
    name: "reason",
    "aria-label": labelled === undefined ? "Reason for denying" : undefined,
    disabled: !c.deniable,
    "data-disabled": dataFlag(!c.deniable),
    "data-status": c.state,
    ...rest,
    value: form.reason,
    onChange: composeEventHandlers(onChange, (e: ChangeEvent<HTMLTextAreaElement>) =>
      form.setReason(e.target.value),
    ),
  });
}
ApprovalCardDenyReasonInput.displayName = "ApprovalCard.DenyReasonInput";
