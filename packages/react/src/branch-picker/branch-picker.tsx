/**
 * `BranchPicker`: Think keeps earlier answers when regenerating (docs/protocol.md#branches); this steps
 * between them ("2 of 3"). Data and the action come from `useAgentChat()` (`branches`, `selectBranch`).
 * A view of this tab only: the next turn continues from the newest answer.
 */
import type { MessageBranch } from "@runboard/protocol";
import { useCallback } from "react";
import {
  createActionButton,
  createPartContext,
  type PrimitiveProps,
  renderPart,
  usePartContext,
} from "../primitives/index.ts";

/** What the picker reads: `useAgentChat()`'s result. */
export interface BranchSource {
  branches: ReadonlyMap<string, MessageBranch>;
  selectBranch(messageId: string, index: number): boolean;
}

interface PickerContextValue {
  chat: BranchSource;
  messageId: string;
  branch: MessageBranch;
}
const PickerContext = createPartContext<PickerContextValue>("BranchPicker.Root");

/** Props of `BranchPicker.Root`. */
export interface BranchPickerRootProps extends PrimitiveProps<"div"> {
  /** `useAgentChat()`'s result. */
  chat: BranchSource;
  /** The shown answer's id. */
  messageId: string;
}

/**
 * The picker (`role="group"`, named `Answer 2 of 3`): `data-index` (0-based), `data-count`. Renders nothing
 * for an answer without siblings.
 */
function Root({ chat, messageId, ...props }: BranchPickerRootProps) {
  const branch = chat.branches.get(messageId);
  if (!branch) return null;
  return (
    <PickerContext.Context.Provider value={{ chat, messageId, branch }}>
      {renderPart("div", {
        "data-rb-part": "BranchPicker.Root",
        role: "group",
        "aria-label": `Answer ${branch.index + 1} of ${branch.count}`,
        "data-index": branch.index,
        "data-count": branch.count,
        ...props,
      })}
    </PickerContext.Context.Provider>
  );
}
Root.displayName = "BranchPicker.Root";

/**
 * The action that shows the sibling `step` away (-1 the older, +1 the newer answer), or `null` when there is
 * none: the button is disabled then.
 */
export function useBranchStep(chat: BranchSource, messageId: string, step: -1 | 1): (() => void) | null {
  const branch = chat.branches.get(messageId);
  const target = branch ? branch.index + step : -1;
  const go = useCallback(() => {
    chat.selectBranch(messageId, target);
  }, [chat, messageId, target]);
  return branch && target >= 0 && target < branch.count ? go : null;
}

/** The older answer (`Previous answer`); disabled on the first. */
const Previous = createActionButton("BranchPicker.Previous", () => {
  const { chat, messageId } = usePartContext(PickerContext, "BranchPicker.Previous");
  return {
    action: useBranchStep(chat, messageId, -1),
    label: "‹",
    attributes: { "aria-label": "Previous answer" },
  };
});

/** The newer answer (`Next answer`); disabled on the newest. */
const Next = createActionButton("BranchPicker.Next", () => {
  const { chat, messageId } = usePartContext(PickerContext, "BranchPicker.Next");
  return {
    action: useBranchStep(chat, messageId, 1),
    label: "›",
    attributes: { "aria-label": "Next answer" },
  };
});

/** Props of `BranchPicker.Count`. */
export type BranchPickerCountProps = PrimitiveProps<"span">;

/** `2 of 3`. */
function Count(props: BranchPickerCountProps) {
  const { branch } = usePartContext(PickerContext, "BranchPicker.Count");
  return renderPart("span", {
    "data-rb-part": "BranchPicker.Count",
    children: `${branch.index + 1} of ${branch.count}`,
    ...props,
  });
}
Count.displayName = "BranchPicker.Count";

/**
 * Steps between the answers a regeneration kept (Think).
 *
 * @example
 * ```tsx
 * <BranchPicker.Root chat={chat} messageId={message.id}>
 *   <BranchPicker.Previous /> <BranchPicker.Count /> <BranchPicker.Next />
 * </BranchPicker.Root>
 * ```
 */
export const BranchPicker = { Root, Previous, Count, Next };
