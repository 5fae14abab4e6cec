/**
 * How a hook owns an object (a connection, a store). The object is made during render without any IO, so a
 * server render or a render React throws away (Suspense, StrictMode, concurrent rendering) leaves nothing
 * behind; it is started in an effect. StrictMode's mount → unmount → mount keeps it: the cleanup only
 * schedules the disposal and the next mount cancels it. A real unmount, or a new key, disposes it on the
 * next tick.
 */
import { useEffect, useRef } from "react";

interface Lifecycle<T> {
  /** Starts the object (open the socket, attach listeners). Called once, after mount. */
  start: (value: T) => void;
  /** Stops it for good. */
  dispose: (value: T) => void;
}

/**
 * Owns the object `create` makes for `key`. `lifecycle` is `{ start, dispose }`, or only the `dispose` function
 * for objects that start themselves (those must do no IO in `create`).
 */
export function useOwned<T>(key: string, create: () => T, lifecycle: Lifecycle<T> | ((value: T) => void)): T {
  const ref = useRef<{ key: string; value: T; timer?: ReturnType<typeof setTimeout> } | null>(null);
  if (ref.current === null || ref.current.key !== key) ref.current = { key, value: create() };
  const current = ref.current;
  const life = useLatest(
    typeof lifecycle === "function" ? { start: () => {}, dispose: lifecycle } : lifecycle,
  );
  useEffect(() => {
    if (current.timer !== undefined) clearTimeout(current.timer);
    current.timer = undefined;
    life.current.start(current.value);
    return () => {
      current.timer = setTimeout(() => life.current.dispose(current.value), 0);
    };
  }, [current, life]);
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
