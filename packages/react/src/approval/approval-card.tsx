/**
 * `ApprovalCard`: one card for every way an agent asks a human (chat tool approvals, Think durable pauses,
 * workflow approvals). It reads a source-neutral `ApprovalRequest` and sends at most one decision through it.
 */
import type * as RadixDialog from "@radix-ui/react-dialog";
import {
  type ApprovalDecision,
  type ApprovalRequest,
  type ApprovalState,
  approvalState,
  approvalStatusText,
  canApprove,
  canDeny,
  formatArguments,
  needsConfirmation,
} from "@runboard/protocol";
import {
  type ChangeEvent,
  type ComponentPropsWithRef,
  type MouseEvent,
  type ReactNode,
  type RefObject,
  type SubmitEvent,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useLatest } from "../lifetime.ts";
import {
  createPartContext,
  dataFlag,
  formatElapsed,
  type PrimitiveProps,
  renderPart,
  useControllableState,
  useNow,
  usePartContext,
  warnOnce,
} from "../primitives/index.ts";

interface CardContextValue {
  request: ApprovalRequest;
  state: ApprovalState;
  /** Null until the page has mounted: the server's clock is not the browser's. */
  now: number | null;
  approvable: boolean;
  deniable: boolean;
  needsConfirm: boolean;
  confirmOpen: boolean;
  setConfirmOpen: (open: boolean) => void;
  /** Sends the approval (no confirmation step). */
  approve: () => boolean;
  deny: (reason?: string) => boolean;
  titleId: string;
  registerTitle: () => () => void;
  registerConfirm: () => () => void;
  confirmMounted: RefObject<number>;
  rootRef: RefObject<HTMLElement | null>;
  approveRef: RefObject<HTMLButtonElement | null>;
  cancelRef: RefObject<HTMLButtonElement | null>;
}

const CardContext = createPartContext<CardContextValue>("ApprovalCard.Root");

interface DenyFormContextValue {
  reason: string;
  setReason: (reason: string) => void;
}
const DenyFormContext = createPartContext<DenyFormContextValue>("ApprovalCard.DenyReason");

/** Assigns one DOM node to several refs (the part's own and the user's). */
function mergeRefs<T>(...refs: Array<((node: T | null) => void) | RefObject<T | null> | null | undefined>) {
  return (node: T | null) => {
    for (const r of refs) {
      if (typeof r === "function") r(node);
      else if (r) r.current = node;
    }
  };
}

// ───────────────────────────── the dialog library ─────────────────────────────

type DialogModule = typeof RadixDialog;

// The dialog library looks for a browser (`window`, `document`) as soon as it is imported. It is only needed
// once a confirm step is on screen, which never happens on a server, so it loads from the first mounted
// `ApprovalCard.Confirm`: importing and server-rendering the kit then touches no browser global.
let dialogModule: DialogModule | undefined;
let dialogLoading: Promise<DialogModule> | undefined;

function loadDialog(): Promise<DialogModule> {
  dialogLoading ??= import("@radix-ui/react-dialog").then((m) => {
    dialogModule = m;
    return m;
  });
  return dialogLoading;
}

/** The dialog library, once loaded (it starts loading after the first mount). */
function useDialogModule(): DialogModule | undefined {
  const [loaded, setLoaded] = useState(dialogModule);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    void loadDialog().then((m) => {
      if (live) setLoaded(m);
    });
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
}

// The confirm dialog's parts reach the library through the enclosing `ApprovalCard.Confirm`.
const DialogContext = createPartContext<DialogModule>("ApprovalCard.Confirm");

// ───────────────────────────── hooks ─────────────────────────────

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

// ───────────────────────────── Root ─────────────────────────────

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

function ApprovalCardRoot(props: ApprovalCardRootProps) {
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
  const ticking = request.status === "requested" && request.expiresAt !== undefined;
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
        "aria-labelledby": titles > 0 ? titleId : undefined,
        // Focus lands here when the confirm dialog closes on a decided card (its Approve is disabled by then).
        tabIndex: -1,
        "data-state": state,
        "data-source": request.source,
        "data-risk": request.risk,
        "data-confirm": dataFlag(needsConfirm),
        ...rest,
        ref: mergeRefs<HTMLElement>(rootRef, ref as RefObject<HTMLElement | null>),
      })}
    </CardContext.Context.Provider>
  );
}

// ───────────────────────────── content parts ─────────────────────────────

/** Props of `ApprovalCard.Title`. */
export type ApprovalCardTitleProps = PrimitiveProps<"h3">;

/** The tool or action name (children replace it). An `h3`; use `asChild` for another heading level. */
function ApprovalCardTitle(props: ApprovalCardTitleProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Title");
  const { registerTitle } = c;
  useLayoutEffect(() => registerTitle(), [registerTitle]);
  return renderPart("h3", {
    id: c.titleId,
    "data-state": c.state,
    ...props,
    children: props.children ?? c.request.name,
  });
}

/** Props of `ApprovalCard.Summary`. */
export type ApprovalCardSummaryProps = PrimitiveProps<"p">;

/** The descriptor's one-line summary (or the workflow item's title). Renders nothing when there is none. */
function ApprovalCardSummary(props: ApprovalCardSummaryProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Summary");
  const children = props.children ?? c.request.summary;
  if (children === undefined || children === null) return null;
  return renderPart("p", { "data-state": c.state, ...props, children });
}

/** Props of `ApprovalCard.Risk`. */
export type ApprovalCardRiskProps = PrimitiveProps<"span">;

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The risk level (`data-risk`), e.g. "High risk". Renders nothing when the request carries none. */
function ApprovalCardRisk(props: ApprovalCardRiskProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Risk");
  const risk = c.request.risk;
  if (!risk) return null;
  return renderPart("span", {
    "data-risk": risk,
    "data-state": c.state,
    ...props,
    children: props.children ?? `${capital(risk)} risk`,
  });
}

/** Props of `ApprovalCard.Permissions`. */
export type ApprovalCardPermissionsProps = PrimitiveProps<"ul">;

/** The permissions the action needs, one `<li>` each. Renders nothing when there are none. */
function ApprovalCardPermissions(props: ApprovalCardPermissionsProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Permissions");
  const permissions = c.request.permissions ?? [];
  if (permissions.length === 0) return null;
  return renderPart("ul", {
    "data-state": c.state,
    ...props,
    children: props.children ?? permissions.map((p) => <li key={p}>{p}</li>),
  });
}

/** Props of `ApprovalCard.Arguments`. */
export interface ApprovalCardArgumentsProps extends PrimitiveProps<"pre"> {
  /** Turns the arguments into text. Default: indented JSON. The result is rendered as text, never as HTML. */
  format?: (args: unknown) => string;
}

/**
 * The exact arguments, as text in a `<pre>`. While the authoritative arguments load (Think) it shows the
 * preview with `aria-busy` and `data-complete` absent.
 */
function ApprovalCardArguments(props: ApprovalCardArgumentsProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Arguments");
  const { format = formatArguments, ...rest } = props;
  const complete = c.request.argumentsComplete;
  return renderPart("pre", {
    "data-state": c.state,
    "data-complete": dataFlag(complete),
    "aria-busy": complete ? undefined : true,
    ...rest,
    children: rest.children ?? format(c.request.arguments),
  });
}

/** Props of `ApprovalCard.Expiry`. */
export interface ApprovalCardExpiryProps extends PrimitiveProps<"time"> {
  /** Text for the time left (default "Expires in 1:05") or, with `0`, once expired (default "Expired"). */
  format?: (remainingMs: number) => string;
}

const defaultExpiryText = (ms: number) => (ms <= 0 ? "Expired" : `Expires in ${formatElapsed(ms)}`);

/**
 * When the request expires, counting down. Renders nothing for a request without an expiry. The time left
 * depends on the browser's clock, so the server (and the page hydrating its HTML) shows the expiry itself as an
 * ISO datetime; the countdown replaces it right after mount.
 */
function ApprovalCardExpiry(props: ApprovalCardExpiryProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Expiry");
  const { format = defaultExpiryText, ...rest } = props;
  const at = c.request.expiresAt;
  if (at === undefined) return null;
  const iso = new Date(at).toISOString();
  const remaining = c.now === null ? null : Math.max(0, at - c.now);
  return renderPart("time", {
    dateTime: iso,
    "data-state": c.state,
    "data-expired": dataFlag(remaining !== null && remaining <= 0),
    ...rest,
    children: rest.children ?? (remaining === null ? iso : format(remaining)),
  });
}

// ───────────────────────────── actions ─────────────────────────────

/** Props of `ApprovalCard.Approve`. */
export type ApprovalCardApproveProps = PrimitiveProps<"button">;

/**
 * The Approve button: disabled while it cannot be sent; opens the confirm dialog when the card asks for one.
 * Never focused automatically (an `autoFocus` prop is dropped): approving must be a deliberate act.
 */
function ApprovalCardApprove(props: ApprovalCardApproveProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Approve");
  const action = useApprove("ApprovalCard.Approve");
  const { autoFocus, onClick, ref, ...rest } = props;
  if (autoFocus)
    warnOnce(
      "ApprovalCard.Approve:autoFocus",
      "ApprovalCard.Approve ignores autoFocus: approving must never be one stray Enter away. Focus the card or Deny instead.",
    );
  return renderPart("button", {
    type: "button",
    disabled: action === null,
    "data-state": c.state,
    "aria-haspopup": c.needsConfirm && action ? "dialog" : undefined,
    ...rest,
    ref: mergeRefs<HTMLButtonElement>(c.approveRef, ref as RefObject<HTMLButtonElement | null>),
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) action?.();
    },
    children: rest.children ?? "Approve",
  });
}

/** Props of `ApprovalCard.Deny`. */
export type ApprovalCardDenyProps = PrimitiveProps<"button">;

/**
 * The Deny button. Inside `ApprovalCard.DenyReason` it submits the form and sends the typed reason; elsewhere
 * it denies without one.
 */
function ApprovalCardDeny(props: ApprovalCardDenyProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Deny");
  const action = useDeny("ApprovalCard.Deny");
  const inForm = useContext(DenyFormContext.Context) !== null;
  const { onClick, ...rest } = props;
  return renderPart("button", {
    type: inForm ? "submit" : "button",
    disabled: action === null,
    "data-state": c.state,
    ...rest,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      // In the form, the submit handler sends (with the reason), so Enter and a click send the same thing.
      if (!e.defaultPrevented && !inForm) action?.();
    },
    children: rest.children ?? "Deny",
  });
}

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
function ApprovalCardDenyReason(props: ApprovalCardDenyReasonProps) {
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
        "data-state": c.state,
        ...rest,
        onSubmit: (e: SubmitEvent<HTMLFormElement>) => {
          onSubmit?.(e);
          e.preventDefault();
          if (c.deniable) c.deny(reason);
        },
      })}
    </DenyFormContext.Context.Provider>
  );
}

/** Props of `ApprovalCard.DenyReasonInput`. */
export type ApprovalCardDenyReasonInputProps = PrimitiveProps<"textarea">;

/**
 * The reason's text area, bound to the enclosing `ApprovalCard.DenyReason`. Labelled "Reason for denying"
 * unless you label it (`aria-label`, `aria-labelledby`, or an `id` with a `<label htmlFor>`).
 */
function ApprovalCardDenyReasonInput(props: ApprovalCardDenyReasonInputProps) {
  const c = usePartContext(CardContext, "ApprovalCard.DenyReasonInput");
  const form = usePartContext(DenyFormContext, "ApprovalCard.DenyReasonInput");
  const { onChange, ...rest } = props;
  const labelled = rest["aria-label"] ?? rest["aria-labelledby"] ?? rest.id;
  return renderPart("textarea", {
    name: "reason",
    "aria-label": labelled === undefined ? "Reason for denying" : undefined,
    disabled: !c.deniable,
    "data-state": c.state,
    ...rest,
    value: form.reason,
    onChange: (e: ChangeEvent<HTMLTextAreaElement>) => {
      onChange?.(e);
      form.setReason(e.target.value);
    },
  });
}

// ───────────────────────────── confirm dialog ─────────────────────────────

/** Props of `ApprovalCard.Confirm`. */
export interface ApprovalCardConfirmProps {
  /** The dialog's parts; default: content with title, description, Cancel and Approve. */
  children?: ReactNode;
  /** Where the dialog is portalled. Default `document.body`. */
  container?: HTMLElement | null;
}

/**
 * The confirm step before approving (a Radix Dialog, shown as an `alertdialog`), opened by Approve when the card
 * asks for confirmation. Without children it renders a default dialog; compose `ConfirmOverlay`,
 * `ConfirmContent`, `ConfirmTitle`, `ConfirmDescription`, `ConfirmCancel` and `ConfirmAction` to shape it.
 * It renders nothing on the server (a dialog is portalled into the page once it is open in the browser).
 */
function ApprovalCardConfirm({ children, container }: ApprovalCardConfirmProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Confirm");
  const { registerConfirm } = c;
  useLayoutEffect(() => registerConfirm(), [registerConfirm]);
  const Dialog = useDialogModule();
  if (!Dialog) return null;
  return (
    <DialogContext.Context.Provider value={Dialog}>
      <Dialog.Root open={c.confirmOpen} onOpenChange={c.setConfirmOpen}>
        <Dialog.Portal {...(container === undefined ? {} : { container })}>
          {children ?? (
            <ApprovalCardConfirmContent>
              <ApprovalCardConfirmTitle />
              <ApprovalCardConfirmDescription />
              <ApprovalCardConfirmCancel />
              <ApprovalCardConfirmAction />
            </ApprovalCardConfirmContent>
          )}
        </Dialog.Portal>
      </Dialog.Root>
    </DialogContext.Context.Provider>
  );
}

/** Props of `ApprovalCard.ConfirmOverlay`. */
export type ApprovalCardConfirmOverlayProps = ComponentPropsWithRef<typeof RadixDialog.Overlay>;

/** The backdrop behind the confirm dialog. */
function ApprovalCardConfirmOverlay(props: ApprovalCardConfirmOverlayProps) {
  const Dialog = usePartContext(DialogContext, "ApprovalCard.ConfirmOverlay");
  return <Dialog.Overlay {...props} />;
}

/** Props of `ApprovalCard.ConfirmContent`. */
export type ApprovalCardConfirmContentProps = ComponentPropsWithRef<typeof RadixDialog.Content>;

/**
 * The confirm dialog itself (`role="alertdialog"`). It opens with focus on Cancel, never on the confirming
 * button, and on closing returns focus to Approve (or to the card, once decided).
 */
function ApprovalCardConfirmContent(props: ApprovalCardConfirmContentProps) {
  const c = usePartContext(CardContext, "ApprovalCard.ConfirmContent");
  const Dialog = usePartContext(DialogContext, "ApprovalCard.ConfirmContent");
  const { onOpenAutoFocus, onCloseAutoFocus, ...rest } = props;
  return (
    <Dialog.Content
      role="alertdialog"
      data-risk={c.request.risk}
      {...rest}
      onOpenAutoFocus={(e) => {
        onOpenAutoFocus?.(e);
        if (e.defaultPrevented) return;
        e.preventDefault();
        (c.cancelRef.current ?? (e.currentTarget as HTMLElement | null))?.focus();
      }}
      onCloseAutoFocus={(e) => {
        onCloseAutoFocus?.(e);
        if (e.defaultPrevented) return;
        e.preventDefault();
        const approve = c.approveRef.current;
        if (approve && !approve.disabled) approve.focus();
        else c.rootRef.current?.focus();
      }}
    />
  );
}

/** Props of `ApprovalCard.ConfirmTitle`. */
export type ApprovalCardConfirmTitleProps = ComponentPropsWithRef<typeof RadixDialog.Title>;

/** The dialog's title; default "Approve <name>?". */
function ApprovalCardConfirmTitle(props: ApprovalCardConfirmTitleProps) {
  const c = usePartContext(CardContext, "ApprovalCard.ConfirmTitle");
  const Dialog = usePartContext(DialogContext, "ApprovalCard.ConfirmTitle");
  return <Dialog.Title {...props}>{props.children ?? `Approve ${c.request.name}?`}</Dialog.Title>;
}

/** Props of `ApprovalCard.ConfirmDescription`. */
export type ApprovalCardConfirmDescriptionProps = ComponentPropsWithRef<typeof RadixDialog.Description>;

/** The dialog's description; default the summary and the risk. */
function ApprovalCardConfirmDescription(props: ApprovalCardConfirmDescriptionProps) {
  const c = usePartContext(CardContext, "ApprovalCard.ConfirmDescription");
  const Dialog = usePartContext(DialogContext, "ApprovalCard.ConfirmDescription");
  const { summary, risk } = c.request;
  const fallback = [summary, risk ? `${capital(risk)} risk.` : undefined].filter(Boolean).join(" ");
  return (
    <Dialog.Description {...props}>
      {props.children ?? (fallback || "This action needs your confirmation.")}
    </Dialog.Description>
  );
}

/** Props of `ApprovalCard.ConfirmCancel`. */
export type ApprovalCardConfirmCancelProps = ComponentPropsWithRef<typeof RadixDialog.Close>;

/** Closes the dialog without deciding; it has the focus when the dialog opens. */
function ApprovalCardConfirmCancel(props: ApprovalCardConfirmCancelProps) {
  const c = usePartContext(CardContext, "ApprovalCard.ConfirmCancel");
  const Dialog = usePartContext(DialogContext, "ApprovalCard.ConfirmCancel");
  const { ref, ...rest } = props;
  return (
    <Dialog.Close
      {...rest}
      ref={mergeRefs<HTMLButtonElement>(c.cancelRef, ref as RefObject<HTMLButtonElement | null>)}
    >
      {rest.children ?? "Cancel"}
    </Dialog.Close>
  );
}

/** Props of `ApprovalCard.ConfirmAction`. */
export type ApprovalCardConfirmActionProps = PrimitiveProps<"button">;

/** Approves for real and closes the dialog. */
function ApprovalCardConfirmAction(props: ApprovalCardConfirmActionProps) {
  const c = usePartContext(CardContext, "ApprovalCard.ConfirmAction");
  const { onClick, ...rest } = props;
  return renderPart("button", {
    type: "button",
    disabled: !c.approvable,
    "data-state": c.state,
    ...rest,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (e.defaultPrevented) return;
      c.approve();
      c.setConfirmOpen(false);
    },
    children: rest.children ?? "Approve",
  });
}

// ───────────────────────────── status ─────────────────────────────

/** Props of `ApprovalCard.Status`. */
export interface ApprovalCardStatusProps extends Omit<PrimitiveProps<"div">, "children"> {
  /** Replaces the default text; a function gets the state and the request. */
  children?: ReactNode | ((state: ApprovalState, request: ApprovalRequest) => ReactNode);
}

/** A polite live region announcing the outcome. Always rendered, so screen readers hear each change. */
function ApprovalCardStatus(props: ApprovalCardStatusProps) {
  const c = usePartContext(CardContext, "ApprovalCard.Status");
  const { children, ...rest } = props;
  const text =
    typeof children === "function"
      ? children(c.state, c.request)
      : (children ?? approvalStatusText(c.state, c.request));
  return renderPart("div", {
    role: "status",
    "aria-live": "polite",
    "aria-atomic": true,
    "data-state": c.state,
    ...rest,
    children: text,
  });
}

/**
 * A card for one approval request: name, summary, risk, permissions, the exact arguments, and Approve / Deny
 * (with an optional reason and an optional confirm step). `data-state` is `requested | submitting | approved |
 * denied | answered-elsewhere | expired | offline`; the root also has `data-source` and `data-risk`.
 *
 * @example
 * const agent = useAgent({ agent: "ChatAgent" });
 * const chat = useAgentChat({ agent });
 * const approvals = useChatApprovals(chat, { agent });
 *
 * approvals.map((request) => (
 *   <ApprovalCard.Root key={request.id} request={request}>
 *     <ApprovalCard.Title />
 *     <ApprovalCard.Summary />
 *     <ApprovalCard.Risk />
 *     <ApprovalCard.Permissions />
 *     <ApprovalCard.Arguments />
 *     <ApprovalCard.Approve />
 *     <ApprovalCard.DenyReason>
 *       <ApprovalCard.DenyReasonInput />
 *       <ApprovalCard.Deny>Deny</ApprovalCard.Deny>
 *     </ApprovalCard.DenyReason>
 *     <ApprovalCard.Confirm />
 *     <ApprovalCard.Status />
 *   </ApprovalCard.Root>
 * ));
 */
export const ApprovalCard = {
  Root: ApprovalCardRoot,
  Title: ApprovalCardTitle,
  Summary: ApprovalCardSummary,
  Risk: ApprovalCardRisk,
  Permissions: ApprovalCardPermissions,
  Arguments: ApprovalCardArguments,
  Expiry: ApprovalCardExpiry,
  Approve: ApprovalCardApprove,
  Deny: ApprovalCardDeny,
  DenyReason: ApprovalCardDenyReason,
  DenyReasonInput: ApprovalCardDenyReasonInput,
  Confirm: ApprovalCardConfirm,
  ConfirmOverlay: ApprovalCardConfirmOverlay,
  ConfirmContent: ApprovalCardConfirmContent,
  ConfirmTitle: ApprovalCardConfirmTitle,
  ConfirmDescription: ApprovalCardConfirmDescription,
  ConfirmCancel: ApprovalCardConfirmCancel,
  ConfirmAction: ApprovalCardConfirmAction,
  Status: ApprovalCardStatus,
};
