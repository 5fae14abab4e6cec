/**
 * The confirm step before approving, as an alert dialog (WAI-ARIA alertdialog, after Radix AlertDialog, built on
 * the Radix Dialog the kit already ships): it opens with focus on Cancel, an outside click does not close it,
 * Escape cancels, and only its Approve sends the approval.
 */
import type * as RadixDialog from "@radix-ui/react-dialog";
import { revealHiddenCharacters } from "@runboard/protocol/view";
import {
  type ComponentPropsWithRef,
  type ReactNode,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useState,
} from "react";
import {
  composeEventHandlers,
  createActionButton,
  createPartContext,
  mergeRefs,
  type PrimitiveProps,
  usePartContext,
} from "../primitives/index.ts";
import { riskLabel } from "./approval-card-content.tsx";
import { CardContext } from "./approval-card-context.ts";

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

/** Props of `ApprovalCard.Confirm`. */
export interface ApprovalCardConfirmProps {
  /** The dialog's parts; default: content with title, description, Cancel and Approve. */
  children?: ReactNode;
  /** Where the dialog is portalled. Default `document.body`. */
  container?: HTMLElement | null;
}

/**
 * The confirm step, opened by Approve when the card asks for confirmation. Without children it renders a
 * default dialog; compose `ConfirmOverlay`, `ConfirmContent`, `ConfirmTitle`, `ConfirmDescription`,
 * `ConfirmCancel` and `ConfirmAction` to shape it. It renders nothing on the server (a dialog is portalled into
 * the page once it is open in the browser).
 */
export function ApprovalCardConfirm({ children, container }: ApprovalCardConfirmProps) {
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
ApprovalCardConfirm.displayName = "ApprovalCard.Confirm";

/** Props of `ApprovalCard.ConfirmOverlay`. */
export type ApprovalCardConfirmOverlayProps = ComponentPropsWithRef<typeof RadixDialog.Overlay>;

/** The backdrop behind the confirm dialog (`data-state` `open | closed`). Clicking it does not close it. */
export function ApprovalCardConfirmOverlay(props: ApprovalCardConfirmOverlayProps) {
  const Dialog = usePartContext(DialogContext, "ApprovalCard.ConfirmOverlay");
  return <Dialog.Overlay data-rb-part="ApprovalCard.ConfirmOverlay" {...props} />;
}
ApprovalCardConfirmOverlay.displayName = "ApprovalCard.ConfirmOverlay";

/** Props of `ApprovalCard.ConfirmContent`. */
export type ApprovalCardConfirmContentProps = ComponentPropsWithRef<typeof RadixDialog.Content>;

const stay = (e: { preventDefault(): void }) => e.preventDefault();

/**
 * The dialog itself (`role="alertdialog"`, `data-state` `open | closed`, described by its
 * `ConfirmDescription`). It opens with focus on Cancel, never on the confirming button; a pointer down or
 * focus outside leaves it open (a stray click must not decide either way); Escape cancels. On closing it
 * returns focus to Approve (or to the card, once decided).
 */
export function ApprovalCardConfirmContent(props: ApprovalCardConfirmContentProps) {
  const c = usePartContext(CardContext, "ApprovalCard.ConfirmContent");
  const Dialog = usePartContext(DialogContext, "ApprovalCard.ConfirmContent");
  const { onOpenAutoFocus, onCloseAutoFocus, onPointerDownOutside, onInteractOutside, ...rest } = props;
  return (
    <Dialog.Content
      role="alertdialog"
      data-rb-part="ApprovalCard.ConfirmContent"
      data-risk={c.request.risk}
      {...rest}
      onPointerDownOutside={composeEventHandlers(onPointerDownOutside, stay)}
      onInteractOutside={composeEventHandlers(onInteractOutside, stay)}
      onOpenAutoFocus={composeEventHandlers(onOpenAutoFocus, (e) => {
        e.preventDefault();
        (c.cancelRef.current ?? (e.currentTarget as HTMLElement | null))?.focus();
      })}
      onCloseAutoFocus={composeEventHandlers(onCloseAutoFocus, (e) => {
        e.preventDefault();
        const approve = c.approveRef.current;
        if (approve && !approve.disabled) approve.focus();
        else c.rootRef.current?.focus();
      })}
    />
  );
}
ApprovalCardConfirmContent.displayName = "ApprovalCard.ConfirmContent";

/** Props of `ApprovalCard.ConfirmTitle`. */
export type ApprovalCardConfirmTitleProps = ComponentPropsWithRef<typeof RadixDialog.Title>;

/** The dialog's title; default "Approve <name>?". */
export function ApprovalCardConfirmTitle(props: ApprovalCardConfirmTitleProps) {
  const c = usePartContext(CardContext, "ApprovalCard.ConfirmTitle");
  const Dialog = usePartContext(DialogContext, "ApprovalCard.ConfirmTitle");
  return (
    <Dialog.Title data-rb-part="ApprovalCard.ConfirmTitle" {...props}>
      {props.children ?? `Approve ${revealHiddenCharacters(c.request.name)}?`}
    </Dialog.Title>
  );
}
ApprovalCardConfirmTitle.displayName = "ApprovalCard.ConfirmTitle";

/** Props of `ApprovalCard.ConfirmDescription`. */
export type ApprovalCardConfirmDescriptionProps = ComponentPropsWithRef<typeof RadixDialog.Description>;

/** The dialog's description (it describes the dialog); default the summary and the risk. */
export function ApprovalCardConfirmDescription(props: ApprovalCardConfirmDescriptionProps) {
  const c = usePartContext(CardContext, "ApprovalCard.ConfirmDescription");
  const Dialog = usePartContext(DialogContext, "ApprovalCard.ConfirmDescription");
  const { summary, risk } = c.request;
  const fallback = [
    summary === undefined ? undefined : revealHiddenCharacters(summary),
    risk ? `${riskLabel(risk)}.` : undefined,
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <Dialog.Description data-rb-part="ApprovalCard.ConfirmDescription" {...props}>
      {props.children ?? (fallback || "This action needs your confirmation.")}
    </Dialog.Description>
  );
}
ApprovalCardConfirmDescription.displayName = "ApprovalCard.ConfirmDescription";

/** Props of `ApprovalCard.ConfirmCancel`. */
export type ApprovalCardConfirmCancelProps = ComponentPropsWithRef<typeof RadixDialog.Close>;

/** Closes the dialog without deciding: the least destructive choice, so it has the focus when it opens. */
export function ApprovalCardConfirmCancel(props: ApprovalCardConfirmCancelProps) {
  const c = usePartContext(CardContext, "ApprovalCard.ConfirmCancel");
  const Dialog = usePartContext(DialogContext, "ApprovalCard.ConfirmCancel");
  const { ref, ...rest } = props;
  return (
    <Dialog.Close
      data-rb-part="ApprovalCard.ConfirmCancel"
      {...rest}
      ref={mergeRefs<HTMLButtonElement>(c.cancelRef, ref as RefObject<HTMLButtonElement | null>)}
    >
      {rest.children ?? "Cancel"}
    </Dialog.Close>
  );
}
ApprovalCardConfirmCancel.displayName = "ApprovalCard.ConfirmCancel";

/** Props of `ApprovalCard.ConfirmAction`. */
export type ApprovalCardConfirmActionProps = PrimitiveProps<"button">;

/** Approves for real and closes the dialog; disabled (`data-disabled`) once the request cannot be approved. */
export const ApprovalCardConfirmAction = createActionButton<ApprovalCardConfirmActionProps>(
  "ApprovalCard.ConfirmAction",
  () => {
    const c = usePartContext(CardContext, "ApprovalCard.ConfirmAction");
    const { approvable, approve, setConfirmOpen } = c;
    return {
      action: approvable
        ? () => {
            approve();
            setConfirmOpen(false);
          }
        : null,
      label: "Approve",
      attributes: { "data-status": c.state },
    };
  },
);
