/**
 * `ApprovalQueue`: every pending approval in one list, whatever its source (chat tool parts across messages and
 * parallel tool calls, Think durable pauses, workflow items), with approve-all and deny-all.
 */

import {
  type ApprovalRequest,
  approvalState,
  canApprove,
  canDeny,
  needsConfirmation,
} from "@runboard/protocol";
import { Fragment, type MouseEvent, type ReactNode, useCallback, useMemo } from "react";
import {
  createPartContext,
  type PrimitiveProps,
  renderPart,
  useNow,
  usePartContext,
} from "../primitives/index.ts";

interface QueueContextValue {
  /** The requests the list shows. */
  requests: readonly ApprovalRequest[];
  /** Requests still waiting for a human (requested, not expired). */
  awaiting: number;
  /** Null until the page has mounted: the server's clock is not the browser's, so expiries wait for it. */
  now: number | null;
  approvable: (includeConfirmRequired: boolean) => ApprovalRequest[];
  deniable: () => ApprovalRequest[];
}

const QueueContext = createPartContext<QueueContextValue>("ApprovalQueue.Root");

/** Props of `ApprovalQueue.Root`. */
export interface ApprovalQueueRootProps extends PrimitiveProps<"div"> {
  /** Requests from any mix of `useChatApprovals`, `useExecutionApprovals` and `useWorkflowApprovals`. */
  requests: readonly ApprovalRequest[];
  /**
   * `pending` (default): requests not yet decided (`requested`, `submitting`, including expired and offline
   * ones); `all`: decided ones too.
   */
  include?: "pending" | "all";
}

const isPending = (r: ApprovalRequest) => r.status === "requested" || r.status === "submitting";

function ApprovalQueueRoot(props: ApprovalQueueRootProps) {
  const { requests: all, include = "pending", ...rest } = props;
  const requests = useMemo(() => (include === "all" ? all : all.filter(isPending)), [all, include]);
  const ticking = requests.some((r) => r.status === "requested" && r.expiresAt !== undefined);
  const now = useNow(1000, ticking);
  const awaiting = requests.filter((r) => approvalState(r, now) === "requested").length;
  const ctx = useMemo<QueueContextValue>(
    () => ({
      requests,
      awaiting,
      now,
      approvable: (withConfirm) =>
        requests.filter((r) => canApprove(r, now) && (withConfirm || !needsConfirmation(r))),
      deniable: () => requests.filter((r) => canDeny(r, now)),
    }),
    [requests, awaiting, now],
  );
  return (
    <QueueContext.Context.Provider value={ctx}>
      {renderPart("div", {
        "data-state": awaiting > 0 ? "pending" : "empty",
        "data-count": awaiting,
        ...rest,
      })}
    </QueueContext.Context.Provider>
  );
}

/** What the enclosing queue lists, and its bulk actions (each returns how many decisions it sent). */
export function useApprovalQueue(): {
  requests: readonly ApprovalRequest[];
  awaiting: number;
  approveAll: (options?: { includeConfirmRequired?: boolean }) => number;
  denyAll: (reason?: string) => number;
} {
  const c = usePartContext(QueueContext, "useApprovalQueue");
  const approveAll = useCallback(
    (options: { includeConfirmRequired?: boolean } = {}) =>
      c.approvable(options.includeConfirmRequired === true).filter((r) => r.decide({ approved: true }))
        .length,
    [c],
  );
  const denyAll = useCallback(
    (reason?: string) => {
      const text = reason?.trim();
      return c
        .deniable()
        .filter((r) => r.decide(text ? { approved: false, reason: text } : { approved: false })).length;
    },
    [c],
  );
  return { requests: c.requests, awaiting: c.awaiting, approveAll, denyAll };
}

/** Props of `ApprovalQueue.List`. */
export interface ApprovalQueueListProps extends Omit<PrimitiveProps<"ul">, "children"> {
  /** Called for each listed request (keyed by its id), or plain children. */
  children: ((request: ApprovalRequest) => ReactNode) | ReactNode;
}

/** The list (`<ul>`). With a function child it renders one entry per request, keyed by the request id. */
function ApprovalQueueList(props: ApprovalQueueListProps) {
  const c = usePartContext(QueueContext, "ApprovalQueue.List");
  const { children, ...rest } = props;
  return renderPart("ul", {
    "data-state": c.awaiting > 0 ? "pending" : "empty",
    ...rest,
    children:
      typeof children === "function"
        ? c.requests.map((r) => <Fragment key={r.id}>{children(r)}</Fragment>)
        : children,
  });
}

/** Props of `ApprovalQueue.Item`. */
export interface ApprovalQueueItemProps extends PrimitiveProps<"li"> {
  request: ApprovalRequest;
}

/** One entry (`<li>`); put an `ApprovalCard.Root` for the same request inside. */
function ApprovalQueueItem(props: ApprovalQueueItemProps) {
  const c = usePartContext(QueueContext, "ApprovalQueue.Item");
  const { request, ...rest } = props;
  return renderPart("li", {
    "data-state": approvalState(request, c.now),
    "data-source": request.source,
    "data-risk": request.risk,
    ...rest,
  });
}

/** Props of `ApprovalQueue.ApproveAll`. */
export interface ApprovalQueueApproveAllProps extends PrimitiveProps<"button"> {
  /**
   * Also approve requests that ask for confirmation (high risk). Default false: those stay in the queue to be
   * confirmed one by one.
   */
  includeConfirmRequired?: boolean;
}

/**
 * Approves every request that can be approved now (not submitting, decided, offline, expired or loading its
 * arguments). Disabled when there is none. Each request still takes exactly one decision.
 */
function ApprovalQueueApproveAll(props: ApprovalQueueApproveAllProps) {
  const c = usePartContext(QueueContext, "ApprovalQueue.ApproveAll");
  const { approveAll } = useApprovalQueue();
  const { includeConfirmRequired = false, onClick, ...rest } = props;
  const count = c.approvable(includeConfirmRequired).length;
  return renderPart("button", {
    type: "button",
    disabled: count === 0,
    "data-count": count,
    ...rest,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) approveAll({ includeConfirmRequired });
    },
    children: rest.children ?? "Approve all",
  });
}

/** Props of `ApprovalQueue.DenyAll`. */
export interface ApprovalQueueDenyAllProps extends PrimitiveProps<"button"> {
  /** A reason sent with every denial. */
  reason?: string;
}

/** Denies every request that can be answered now. Disabled when there is none. */
function ApprovalQueueDenyAll(props: ApprovalQueueDenyAllProps) {
  const c = usePartContext(QueueContext, "ApprovalQueue.DenyAll");
  const { denyAll } = useApprovalQueue();
  const { reason, onClick, ...rest } = props;
  const count = c.deniable().length;
  return renderPart("button", {
    type: "button",
    disabled: count === 0,
    "data-count": count,
    ...rest,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) denyAll(reason);
    },
    children: rest.children ?? "Deny all",
  });
}

/** Props of `ApprovalQueue.Count`. */
export type ApprovalQueueCountProps = PrimitiveProps<"span">;

/** How many requests wait for a human (the number; children replace it). */
function ApprovalQueueCount(props: ApprovalQueueCountProps) {
  const c = usePartContext(QueueContext, "ApprovalQueue.Count");
  return renderPart("span", {
    "data-count": c.awaiting,
    ...props,
    children: props.children ?? String(c.awaiting),
  });
}

/**
 * All pending approvals across sources in one list, with approve-all and deny-all. The root has `data-state`
 * (`pending | empty`) and `data-count`; each item has the request's `data-state`, `data-source` and `data-risk`.
 *
 * @example
 * const requests = [
 *   ...useChatApprovals(chat, { agent }),
 *   ...useExecutionApprovals(agent, { messages: chat.messages }),
 *   ...useWorkflowApprovals(agent),
 * ];
 *
 * <ApprovalQueue.Root requests={requests}>
 *   <h2>Waiting for you (<ApprovalQueue.Count />)</h2>
 *   <ApprovalQueue.ApproveAll />
 *   <ApprovalQueue.DenyAll />
 *   <ApprovalQueue.List>
 *     {(request) => (
 *       <ApprovalQueue.Item request={request}>
 *         <ApprovalCard.Root request={request}>
 *           <ApprovalCard.Title />
 *           <ApprovalCard.Arguments />
 *           <ApprovalCard.Approve />
 *           <ApprovalCard.Deny />
 *           <ApprovalCard.Confirm />
 *           <ApprovalCard.Status />
 *         </ApprovalCard.Root>
 *       </ApprovalQueue.Item>
 *     )}
 *   </ApprovalQueue.List>
 * </ApprovalQueue.Root>
 */
export const ApprovalQueue = {
  Root: ApprovalQueueRoot,
  List: ApprovalQueueList,
  Item: ApprovalQueueItem,
  ApproveAll: ApprovalQueueApproveAll,
  DenyAll: ApprovalQueueDenyAll,
  Count: ApprovalQueueCount,
};
