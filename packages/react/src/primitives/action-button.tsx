/**
 * One factory for every action button (Approve, Deny, Cancel, Retry, Dismiss, Open chat, …), after
 * assistant-ui's action buttons: the part's hook returns the action or `null`, and `null` means the button
 * is disabled (`disabled` and `data-disabled`). The user's `onClick` runs first and can cancel the action
 * with `preventDefault()`.
 */
import type { MouseEvent, ReactElement, ReactNode } from "react";
import { composeEventHandlers } from "./compose-event-handlers.ts";
import { type DataAttributes, dataFlag, type PrimitiveProps, renderPart } from "./primitive.tsx";

/** Props of an action button part. */
export type ActionButtonProps = PrimitiveProps<"button">;

/** What the part's hook decided: the action (or `null`), and attributes the part adds. */
export interface ActionButtonState {
  action: (() => void) | null;
  /** Default content when the user passes no children. */
  label: ReactNode;
  /** Extra attributes (`aria-label`, `data-*`); the user's props still win. */
  attributes?: Record<string, unknown> & DataAttributes;
  /**
   * Render nothing at all instead of a disabled button, for actions that make no sense in the state at hand
   * (Dismiss while a run still runs, Open without anything to open).
   */
  absent?: boolean;
}

/**
 * Builds a button part named `displayName`. `useState(props)` runs as a hook inside the part, so it can
 * read the part's context.
 */
export function createActionButton<P extends ActionButtonProps = ActionButtonProps>(
  displayName: string,
  useState: (props: P) => ActionButtonState,
): ((props: P) => ReactElement | null) & { displayName: string } {
  // biome-ignore lint/correctness/noComponentHookFactories: each part is made once, at module load, never during a render.
  const Part = (props: P): ReactElement | null => {
    const { action, label, attributes, absent } = useState(props);
    if (absent) return null;
    const { onClick, children, ...rest } = props as ActionButtonProps;
    return renderPart("button", {
      "data-rb-part": displayName,
      type: "button",
      disabled: action === null,
      "data-disabled": dataFlag(action === null),
      children: children ?? label,
      ...attributes,
      ...rest,
      onClick: composeEventHandlers(onClick, (_e: MouseEvent<HTMLButtonElement>) => action?.()),
    });
  };
  Part.displayName = displayName;
  return Part;
}
