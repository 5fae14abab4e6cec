/**
 * The "Done, continue" round: `onContinue` is called once however often the button is pressed; a returned
 * promise keeps the round pending, a rejection (or a throw) allows another try, and `onContinue` going away
 * ends the round so the next one starts fresh.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useLatest } from "../lifetime.ts";
import { warnOnce } from "../primitives/index.ts";
import type { LiveViewContinueStatus } from "./context.ts";

/** The round's status, whether there is a round at all, and the function the button calls. */
export function useContinueRound(
  onContinue: (() => unknown) | undefined,
  handBack: () => void,
): { status: LiveViewContinueStatus; canContinue: boolean; run: () => void } {
  const [status, setStatus] = useState<LiveViewContinueStatus>("idle");
  const continuing = useRef(false);
  const latest = useLatest({ onContinue, handBack });
  const canContinue = onContinue !== undefined;
  useEffect(() => {
    // `onContinue` went away: the request it answered is settled, and the next one starts a new round.
    if (!canContinue) {
      continuing.current = false;
      setStatus("idle");
    }
  }, [canContinue]);
  const run = useCallback(() => {
    const fn = latest.current.onContinue;
    if (!fn || continuing.current) return;
    continuing.current = true;
    setStatus("pending");
    const done = () => {
      setStatus("done");
      latest.current.handBack();
    };
    const retry = () => {
      continuing.current = false;
      setStatus("idle");
    };
    let result: unknown;
    try {
      result = fn();
    } catch {
      retry();
      warnOnce(
        "LiveView.Continue:threw",
        "LiveView.Continue: onContinue threw; the button is enabled again.",
      );
      return;
    }
    if (result && typeof (result as PromiseLike<unknown>).then === "function")
      (result as PromiseLike<unknown>).then(done, retry);
    else done();
  }, [latest]);
  return { status, canContinue, run };
}
