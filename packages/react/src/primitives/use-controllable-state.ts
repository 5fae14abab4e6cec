/**
 * Controlled and uncontrolled state in one hook: with `prop` defined the parent owns the value and only
 * hears about changes; without it the part keeps its own, starting from `defaultProp`.
 */
import { useCallback, useRef, useState } from "react";
import { useLatest } from "../lifetime.ts";
import { warnOnce } from "./dev-warning.ts";

/** The value prop (undefined = uncontrolled), its default, the change callback and the part's name. */
export interface ControllableStateOptions<T> {
  prop: T | undefined;
  defaultProp: T;
  onChange?: (value: T) => void;
  /** Part name for the dev warning when a part switches between controlled and uncontrolled. */
  part: string;
}

/** Returns `[value, setValue]`, owned by the parent when `prop` is defined, else by the part. */
export function useControllableState<T>({
  prop,
  defaultProp,
  onChange,
  part,
}: ControllableStateOptions<T>): [T, (next: T | ((prev: T) => T)) => void] {
  const [own, setOwn] = useState(defaultProp);
  const controlled = prop !== undefined;
  const wasControlled = useRef(controlled);
  if (wasControlled.current !== controlled) {
    warnOnce(
      `${part}:controlled`,
      `${part} switched from ${wasControlled.current ? "controlled" : "uncontrolled"} to ${controlled ? "controlled" : "uncontrolled"}. Pass the value prop always (controlled) or never (uncontrolled, use the default prop).`,
    );
    wasControlled.current = controlled;
  }
  const value = controlled ? prop : own;
  const latest = useLatest({ value, controlled, onChange });
  const set = useCallback(
    (next: T | ((prev: T) => T)) => {
      const { value: prev, controlled: isControlled, onChange: notify } = latest.current;
      const v = typeof next === "function" ? (next as (p: T) => T)(prev) : next;
      if (Object.is(v, prev)) return;
      if (!isControlled) setOwn(v);
      notify?.(v);
    },
    [latest],
  );
  return [value, set];
}
