/**
 * The one way a part runs its own handler after the user's: the user's handler goes first and can opt out
 * with `event.preventDefault()`. Written once so every part honours that the same way (it was repeated by
 * hand in each part before).
 */

/** Calls `theirs`, then `ours` unless `theirs` called `preventDefault()`. */
export function composeEventHandlers<E extends { defaultPrevented: boolean }>(
  theirs: ((event: E) => void) | undefined,
  ours: (event: E) => void,
  { checkForDefaultPrevented = true }: { checkForDefaultPrevented?: boolean } = {},
): (event: E) => void {
  return (event: E) => {
    theirs?.(event);
    if (!checkForDefaultPrevented || !event.defaultPrevented) ours(event);
  };
}
