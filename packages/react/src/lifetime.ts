/**
 * Objects a hook owns (a connection, a store) outlive React StrictMode's mount → unmount → mount: the
 * cleanup only schedules the disposal, and the next mount cancels it. A real unmount disposes on the next tick.
 */
import { useEffect, useRef } from "react";

export function useOwned<T>(key: string, create: () => T, dispose: (value: T) => void): T {
  const ref = useRef<{ key: string; value: T; timer?: ReturnType<typeof setTimeout> } | null>(null);
  if (ref.current === null || ref.current.key !== key) {
    if (ref.current) dispose(ref.current.value);
    ref.current = { key, value: create() };
  }
  const current = ref.current;
  useEffect(() => {
    if (current.timer) clearTimeout(current.timer);
    current.timer = undefined;
    return () => {
      current.timer = setTimeout(() => dispose(current.value), 0);
    };
  }, [current, dispose]);
  return current.value;
}

/** A ref that always holds the latest value, for callbacks that must not go stale. */
export function useLatest<T>(value: T) {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}

const ids = new WeakMap<object, number>();
let nextId = 0;
/** A stable number per object (an agent connection), to key what a hook owns on it. */
export function idOf(o: object): number {
  let id = ids.get(o);
  if (id === undefined) {
    id = ++nextId;
    ids.set(o, id);
  }
  return id;
}
