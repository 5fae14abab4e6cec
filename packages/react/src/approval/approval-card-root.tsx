/** `ApprovalCard.Root`: holds one request, its state at the card's clock, the confirm step and the decision. */
import {
  type ApprovalDecision,
  type ApprovalRequest,
  type ApprovalState,
  approvalState,
} from "@runboard/protocol";
import { canApprove, canDeny, needsConfirmation } from "@runboard/protocol/view";
import { type RefObject, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { useLatest } from "../lifetime.ts";
import {
  dataFlag,
  mergeRefs,
  type PrimitiveProps,
  renderPart,
  useControllableState,
  useNow,
  usePartContext,
  warnOnce,
} from "../primitives/index.ts";
import { CardContext, type CardContextValue } from "./approval-card-context.ts";

/** What the enclosing card shows: its request, state, and whether approving asks for confirmation. */
export function useApprovalCard(): {
  request: ApprovalRequest;
  state: ApprovalState;
  needsConfirmation: boolean;
  confirmOpen: boolean;
} {
  const c = usePartContext(CardContext, "useApprovalCard");
  return {
    request: c.request,
    state: c.state,
    needsConfirmation: c.needsConfirm,
    confirmOpen: c.confirmOpen,
  };
}

/** Props of `ApprovalCard.Root`. */
export interface ApprovalCardRootProps extends PrimitiveProps<"article"> {
  /** The request, from `useChatApprovals`, `useExecutionApprovals` or `useWorkflowApprovals`. */
  request: ApprovalRequest;
  /** Ask for confirmation before approving: `true`/`false` force it; default only for high (or critical) risk. */
  confirm?: boolean;
  /** Whether the confirm dialog is open (controlled). */
  confirmOpen?: boolean;
  /** Whether the confirm dialog starts open (uncontrolled). */
  defaultConfirmOpen?: boolean;
  onConfirmOpenChange?: (open: boolean) => void;
  /** Called once when this card sends its decision. */
  onDecision?: (decision: ApprovalDecision, request: ApprovalRequest) => void;
}

/**
 * The card (`<article>`, named by its `ApprovalCard.Title`). `data-status` is the request's state
 * (`requested | submitting | approved | denied | answered-elsewhere | interrupted | expired | offline`); also `data-source`,
 * `data-risk` and `data-confirm` (present when approving asks for confirmation).
 */
export function ApprovalCardRoot(props: ApprovalCardRootProps) {
  const {
    request,
    confirm,
    confirmOpen: confirmOpenProp,
    defaultConfirmOpen = false,
    onConfirmOpenChange,
    onDecision,
    ref,
    ...rest
  } = props;
  const ticking =
    (request.status === "requested" || request.status === "interrupted") && request.expiresAt !== undefined;
  const now = useNow(1000, ticking);
  const state = approvalState(request, now);
  const approvable = canApprove(request, now);
  const deniable = canDeny(request, now);
  const needsConfirm = needsConfirmation(request, confirm);
  const [confirmOpen, setConfirmOpen] = useControllableState({
    prop: confirmOpenProp,
    defaultProp: defaultConfirmOpen,
    onChange: onConfirmOpenChange,
    part: "ApprovalCard.Root (confirmOpen)",
  });
  // A decision from another tab, an expiry or a dropped connection closes a pending confirmation.
  useEffect(() => {
    if (confirmOpen && !approvable) setConfirmOpen(false);
  }, [confirmOpen, approvable, setConfirmOpen]);

  const latest = useLatest({ request, onDecision });
  const send = useCallback(
    (decision: ApprovalDecision) => {
      const { request: r, onDecision: notify } = latest.current;
      const sent = r.decide(decision);
      if (sent) notify?.(decision, r);
      return sent;
    },
    [latest],
  );
  const approve = useCallback(() => send({ approved: true }), [send]);
  const deny = useCallback(
    (reason?: string) => {
      const text = reason?.trim();
      return send(text ? { approved: false, reason: text } : { approved: false });
    },
    [send],
  );

  const titleId = useId();
  const [titles, setTitles] = useState(0);
  // Also counted in a ref: a Title registers in its own effect, which runs before this Root's effect in the
  // same commit, while the state update only lands in the next render. Reading the state there warned about a
  // missing name on every first mount of a card that has a Title.
  const titleCount = useRef(0);
  const registerTitle = useCallback(() => {
    titleCount.current += 1;
    setTitles((n) => n + 1);
    return () => {
      titleCount.current -= 1;
      setTitles((n) => n - 1);
    };
  }, []);
  const confirmMounted = useRef(0);
  const registerConfirm = useCallback(() => {
    confirmMounted.current += 1;
    return () => {
      confirmMounted.current -= 1;
    };
  }, []);
  const labelled = rest["aria-label"] !== undefined || rest["aria-labelledby"] !== undefined;
  useEffect(() => {
    if (!labelled && titleCount.current === 0)
      warnOnce(
        "ApprovalCard.Root:name",
        "ApprovalCard.Root has no accessible name. Render <ApprovalCard.Title> inside it, or pass aria-label.",
      );
  }, [labelled]);
  const rootRef = useRef<HTMLElement | null>(null);
  const approveRef = useRef<HTMLButtonElement | null>(null);
  const cancelRef = useRef<HTMLButtonElement | null>(null);

  const ctx = useMemo<CardContextValue>(
    () => ({
      request,
      state,
      now,
      approvable,
      deniable,
      needsConfirm,
      confirmOpen,
      setConfirmOpen,
      approve,
      deny,
      titleId,
      registerTitle,
      registerConfirm,
      confirmMounted,
      rootRef,
      approveRef,
      cancelRef,
    }),
    [
      request,
      state,
      now,
      approvable,
      deniable,
      needsConfirm,
      confirmOpen,
      setConfirmOpen,
      approve,
      deny,
      titleId,
      registerTitle,
      registerConfirm,
    ],
  );

  return (
    <CardContext.Context.Provider value={ctx}>
      {renderPart("article", {
        "data-rb-part": "ApprovalCard.Root",
        "aria-labelledby": titles > 0 ? titleId : undefined,
        // Focus lands here when the confirm dialog closes on a decided card (its Approve is disabled by then).
        tabIndex: -1,
        "data-status": state,
        "data-source": request.source,
        "data-risk": request.risk,
        "data-confirm": dataFlag(needsConfirm),
        ...rest,
        ref: mergeRefs<HTMLElement>(rootRef, ref as RefObject<HTMLElement | null>),
      })}
    </CardContext.Context.Provider>
  );
}
ApprovalCardRoot.displayName = "ApprovalCard.Root";
