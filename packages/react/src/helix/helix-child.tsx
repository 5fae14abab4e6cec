/**
 * `HelixChild`: what a person can do to a helix persistent child listed in `RunTray` (docs/helix.md#persistent-children):
 * send it a follow-up message and terminate it, through the app's callbacks on `HelixChildren`. Parts go inside
 * `RunTray.Item` (they read the item's run) and take the store as `store`. The hooks return the action or null;
 * null disables the part.
 */
import type { HelixChildren } from "@runboard/client/helix";
import { runTitle } from "@runboard/protocol/view";
import { type FormEvent, type ReactNode, useContext, useId, useState, useSyncExternalStore } from "react";
import { RunScopeContext } from "../agent-tool-run/run-scope.ts";
import {
  type ActionButtonProps,
  composeEventHandlers,
  dataFlag,
  type PrimitiveProps,
  renderPart,
} from "../primitives/index.ts";

/** The key of the child the surrounding `RunTray.Item` shows, and a re-render when the store changes. */
function useItemChild(store: HelixChildren, part: string): { key: string | undefined; title: string } {
  useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const scope = useContext(RunScopeContext);
  if (scope === null)
    throw new Error(`<${part}> must be rendered inside <RunTray.Item>. Wrap it in <RunTray.Item>.`);
  return { key: store.keyOfRun(scope.run.runId), title: runTitle(scope.run) };
}

/** Terminate for the item's child, or null: no `onTerminate`, the child is not running, or a call is on its way. */
export function useHelixChildTerminate(store: HelixChildren): (() => void) | null {
  const { key } = useItemChild(store, "useHelixChildTerminate");
  if (key === undefined || !store.canTerminate(key)) return null;
  return () => void store.terminate(key);
}

/** Send message for the item's child, or null: no `onSendMessage`, the child is not running, or a call is on its way. */
export function useHelixChildSendMessage(store: HelixChildren): ((message: string) => void) | null {
  const { key } = useItemChild(store, "useHelixChildSendMessage");
  if (key === undefined || !store.canSendMessage(key)) return null;
  return (message) => void store.sendMessage(key, message);
}

/** Props of `HelixChild.Terminate`. */
export interface HelixChildTerminateProps extends ActionButtonProps {
  store: HelixChildren;
}

/** A button (`disabled` and `data-disabled` while the hook returns null, `data-pending` while a call is on its way). */
function Terminate({ store, onClick, children, ...props }: HelixChildTerminateProps) {
  const action = useHelixChildTerminate(store);
  const { key, title } = useItemChild(store, "HelixChild.Terminate");
  const pending = key !== undefined && store.getSnapshot().pending.has(key);
  return renderPart("button", {
    type: "button",
    "data-rb-part": "HelixChild.Terminate",
    disabled: action === null,
    "aria-label": `Terminate ${title}`,
    "data-disabled": dataFlag(action === null),
    "data-pending": dataFlag(pending),
    children: children ?? "Terminate",
    onClick: composeEventHandlers(onClick, () => action?.()),
    ...props,
  });
}
Terminate.displayName = "HelixChild.Terminate";

/** Props of `HelixChild.SendMessage`. */
export interface HelixChildSendMessageProps extends Omit<PrimitiveProps<"form">, "children"> {
  store: HelixChildren;
  /** The input's accessible name. Default "Message to <child>". */
  inputLabel?: string;
  /** The button's content. Default "Send message". */
  submitLabel?: ReactNode;
}

/**
 * A form (`data-disabled` while sending is not possible, `data-pending` while a send is on its way) with a text
 * input and a submit button; both are disabled while the hook returns null. The input empties after a send.
 */
function SendMessage({
  store,
  inputLabel,
  submitLabel = "Send message",
  onSubmit,
  ...props
}: HelixChildSendMessageProps) {
  const send = useHelixChildSendMessage(store);
  const { key, title } = useItemChild(store, "HelixChild.SendMessage");
  const [draft, setDraft] = useState("");
  const id = useId();
  const pending = key !== undefined && store.getSnapshot().pending.has(key);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!send || draft.trim() === "") return;
    send(draft.trim());
    setDraft("");
  };
  return renderPart("form", {
    "data-rb-part": "HelixChild.SendMessage",
    "aria-label": `Message to ${title}`,
    "data-disabled": dataFlag(send === null),
    "data-pending": dataFlag(pending),
    onSubmit: composeEventHandlers(onSubmit, submit),
    children: (
      <>
        <input
          id={`${id}-message`}
          aria-label={inputLabel ?? `Message to ${title}`}
          value={draft}
          disabled={send === null}
          onChange={(e) => setDraft(e.target.value)}
          autoComplete="off"
        />
        <button type="submit" disabled={send === null || draft.trim() === ""}>
          {submitLabel}
        </button>
      </>
    ),
    ...props,
  });
}
SendMessage.displayName = "HelixChild.SendMessage";

/**
 * Actions on a helix persistent child, inside `RunTray.Item`.
 *
 * @example
 * ```tsx
 * const kids = useHelixChildren({ onSendMessage: (c, m) => askParent(c, m), onTerminate: (c) => stop(c) });
 * <RunTray.Root runs={kids.runs}>
 *   <RunTray.List>
 *     <RunTray.Item>
 *       <RunTray.Title /> <RunTray.Status /> <RunTray.Summary />
 *       <HelixChild.SendMessage store={kids.store} /> <HelixChild.Terminate store={kids.store} />
 *     </RunTray.Item>
 *   </RunTray.List>
 * </RunTray.Root>
 * ```
 */
export const HelixChild = { SendMessage, Terminate };
