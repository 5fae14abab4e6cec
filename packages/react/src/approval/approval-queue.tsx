/**
 * `ApprovalQueue`: every pending approval in one list, whatever its source (chat tool parts across messages and
 * parallel tool calls, Think durable pauses, workflow items), with approve-all and deny-all.
 */
import { type ApprovalRequest, approvalState } from "@runboard/protocol";
import { canApprove, canDeny, needsConfirmation } from "@runboard/protocol/view";
import { createContext, type ReactNode, useCallback, useContext, useMemo } from "react";
import {
  createActionButton,
  createPartContext,
  dataFlag,
  type PrimitiveProps,
  renderPart,
  useNow,
  usePartContext,
  warnOnce,
} from "../primitives/index.ts";
import { ApprovalCard } from "./approval-card.tsx";

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
// The entry an `ApprovalQueue.Item` shows, set by `ApprovalQueue.List` around each entry.
const EntryContext = createPartContext<ApprovalRequest>("ApprovalQueue.List");

/** Props of `ApprovalQueue.Root`. */
export interface ApprovalQueueRootProps extends PrimitiveProps<"div"> {
  /** Requests from any mix of `useChatApprovals`, `useExecutionApprovals` and `useWorkflowApprovals`. */
  requests: readonly ApprovalRequest[];
  /**
   * `pending` (default): requests not yet decided (`requested`, `submitting`, `interrupted`, including expired
   * and offline ones); `all`: decided ones too.
   */
  include?: "pending" | "all";
}

const isPending = (r: ApprovalRequest) =>
  r.status === "requested" || r.status === "submitting" || r.status === "interrupted";
/** Asked and answerable: for the first time, or again after a decision lost with an agent restart. */
const isAsked = (r: ApprovalRequest) => r.status === "requested" || r.status === "interrupted";

/** The queue (`<div>`): `data-count` is how many requests wait for a human, `data-empty` when none does. */
function ApprovalQueueRoot(props: ApprovalQueueRootProps) {
  const { requests: all, include = "pending", ...rest } = props;
  const requests = useMemo(() => (include === "all" ? all : all.filter(isPending)), [all, include]);
  const ticking = requests.some((r) => isAsked(r) && r.expiresAt !== undefined);
  const now = useNow(1000, ticking);
  const awaiting = requests.filter((r) => {
    const state = approvalState(r, now);
    return state === "requested" || state === "interrupted";
  }).length;
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
        "data-rb-part": "ApprovalQueue.Root",
        "data-count": awaiting,
        "data-empty": dataFlag(awaiting === 0),
        ...rest,
      })}
    </QueueContext.Context.Provider>
  );
}
ApprovalQueueRoot.displayName = "ApprovalQueue.Root";

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
  /**
   * Plain children, or a function called once per listed request inside that request's scope (so an
   * `ApprovalQueue.Item` in it needs no `request`). Default: an `ApprovalQueue.Item` per request.
   */
  children?: ((request: ApprovalRequest) => ReactNode) | ReactNode;
}

const defaultEntry = () => <ApprovalQueueItem />;

/** The list (`<ul>`, `data-count` the number of requests listed), one entry per request, keyed by its id. */
function ApprovalQueueList(props: ApprovalQueueListProps) {
  const c = usePartContext(QueueContext, "ApprovalQueue.List");
  const { children = defaultEntry, ...rest } = props;
  return renderPart("ul", {
    "data-rb-part": "ApprovalQueue.List",
    "data-count": c.requests.length,
    ...rest,
    children:
      typeof children === "function"
        ? c.requests.map((r) => (
            <EntryContext.Context.Provider key={r.id} value={r}>
              {children(r)}
            </EntryContext.Context.Provider>
          ))
        : children,
  });
}
ApprovalQueueList.displayName = "ApprovalQueue.List";

/** Props of `ApprovalQueue.Item`. */
export interface ApprovalQueueItemProps extends PrimitiveProps<"li"> {
  /** The request; default the entry of the enclosing `ApprovalQueue.List`. */
  request?: ApprovalRequest;
}

/** A card with every part, what an `ApprovalQueue.Item` shows when given no children. */
function DefaultCard({ request }: { request: ApprovalRequest }) {
  return (
    <ApprovalCard.Root request={request}>
      <ApprovalCard.Title />
      <ApprovalCard.Summary />
      <ApprovalCard.Risk />
      <ApprovalCard.Arguments />
      <ApprovalCard.Expiry />
      <ApprovalCard.Approve />
      <ApprovalCard.Deny />
      <ApprovalCard.Confirm />
      <ApprovalCard.Status />
    </ApprovalCard.Root>
  );
}

/**
 * One entry (`<li>`) with the request's `data-status`, `data-source` and `data-risk`. Put an
 * `ApprovalCard.Root` for the same request inside; without children it shows a card with every part.
 */
function ApprovalQueueItem(props: ApprovalQueueItemProps) {
  const c = usePartContext(QueueContext, "ApprovalQueue.Item");
  const entry = useContext(EntryContext.Context);
  const { request: explicit, ...rest } = props;
  const request = explicit ?? entry;
  if (!request) {
    warnOnce(
      "ApprovalQueue.Item:request",
      "ApprovalQueue.Item has no request. Render it from the <ApprovalQueue.List> function child, or pass request.",
    );
    return null;
  }
  return renderPart("li", {
    "data-rb-part": "ApprovalQueue.Item",
    "data-status": approvalState(request, c.now),
    "data-source": request.source,
    "data-risk": request.risk,
    ...rest,
    children: rest.children ?? <DefaultCard request={request} />,
  });
}
ApprovalQueueItem.displayName = "ApprovalQueue.Item";

// The bulk buttons' own props reach their hooks through this, so they never land on the DOM button.
const BulkContext = createContext<{ includeConfirmRequired: boolean; reason: string | undefined }>({
  includeConfirmRequired: false,
  reason: undefined,
});

const ApproveAllButton = createActionButton("ApprovalQueue.ApproveAll", () => {
  const c = usePartContext(QueueContext, "ApprovalQueue.ApproveAll");
  const { includeConfirmRequired } = useContext(BulkContext);
  const { approveAll } = useApprovalQueue();
  const count = c.approvable(includeConfirmRequired).length;
  return {
    action: count === 0 ? null : () => void approveAll({ includeConfirmRequired }),
    label: "Approve all",
    attributes: { "data-count": count },
  };
});

const DenyAllButton = createActionButton("ApprovalQueue.DenyAll", () => {
  const c = usePartContext(QueueContext, "ApprovalQueue.DenyAll");
  const { reason } = useContext(BulkContext);
  const { denyAll } = useApprovalQueue();
  const count = c.deniable().length;
  return {
    action: count === 0 ? null : () => void denyAll(reason),
    label: "Deny all",
    attributes: { "data-count": count },
  };
});

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
 * arguments); `data-count` is how many. Disabled (`data-disabled`) when there is none. Each request still takes
 * exactly one decision.
 */
function ApprovalQueueApproveAll({ includeConfirmRequired = false, ...rest }: ApprovalQueueApproveAllProps) {
  return (
    <BulkContext.Provider value={{ includeConfirmRequired, reason: undefined }}>
      <ApproveAllButton {...rest} />
    </BulkContext.Provider>
  );
}
ApprovalQueueApproveAll.displayName = "ApprovalQueue.ApproveAll";

/** Props of `ApprovalQueue.DenyAll`. */
export interface ApprovalQueueDenyAllProps extends PrimitiveProps<"button"> {
  /** A reason sent with every denial. */
  reason?: string;
}

/** Denies every request that can be answered now; `data-count` is how many. Disabled when there is none. */
function ApprovalQueueDenyAll({ reason, ...rest }: ApprovalQueueDenyAllProps) {
  return (
    <BulkContext.Provider value={{ includeConfirmRequired: false, reason }}>
      <DenyAllButton {...rest} />
    </BulkContext.Provider>
  );
}
ApprovalQueueDenyAll.displayName = "ApprovalQueue.DenyAll";

/** Props of `ApprovalQueue.Count`. */
export type ApprovalQueueCountProps = PrimitiveProps<"span">;

/** How many requests wait for a human (the number, and `data-count`; children replace the number). */
function ApprovalQueueCount(props: ApprovalQueueCountProps) {
  const c = usePartContext(QueueContext, "ApprovalQueue.Count");
  return renderPart("span", {
    "data-rb-part": "ApprovalQueue.Count",
    "data-count": c.awaiting,
    ...props,
    children: props.children ?? String(c.awaiting),
  });
}
ApprovalQueueCount.displayName = "ApprovalQueue.Count";

/**
 * All pending approvals across sources in one list, with approve-all and deny-all. The root has `data-count`
 * (requests waiting for a human) and `data-empty`; each item has the request's `data-status`, `data-source`
 * and `data-risk`.
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
 *       <ApprovalQueue.Item>
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
