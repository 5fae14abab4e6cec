/** What the parts of one `ApprovalCard` share: the request, its state at the card's clock, and its actions. */
import type { ApprovalRequest, ApprovalState } from "@runboard/protocol";
import type { RefObject } from "react";
import { createPartContext } from "../primitives/index.ts";

/** The card's context value. */
export interface CardContextValue {
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

/** The enclosing `ApprovalCard.Root`. */
export const CardContext = createPartContext<CardContextValue>("ApprovalCard.Root");

/** The enclosing `ApprovalCard.DenyReason` form's reason. */
export interface DenyFormContextValue {
  reason: string;
  setReason: (reason: string) => void;
}

/** The enclosing `ApprovalCard.DenyReason`. */
export const DenyFormContext = createPartContext<DenyFormContextValue>("ApprovalCard.DenyReason");
