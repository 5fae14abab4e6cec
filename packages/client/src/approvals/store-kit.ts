/** What every approval store is made of: listeners, and a snapshot kept until one of its inputs changes. */

/** Subscribers of a store. */
export class Listeners {
  private readonly fns = new Set<() => void>();

  /** Adds `fn`; returns the unsubscribe. */
  subscribe = (fn: () => void): (() => void) => {
    this.fns.add(fn);
    return () => {
      this.fns.delete(fn);
    };
  };

  /** Calls every subscriber. */
  emit = (): void => {
    for (const fn of [...this.fns]) fn();
  };
}

/**
 * A value computed from inputs, kept while the inputs are the same objects: a view asking for the snapshot
 * twice gets the identical array, so it re-renders only when something changed.
 */
export class Cached<T> {
  private inputs: readonly unknown[] | undefined;
  private value: T | undefined;

  /** The value for `inputs`, computed by `compute` when they differ from the last call's. */
  get(inputs: readonly unknown[], compute: () => T): T {
    const last = this.inputs;
    if (last && last.length === inputs.length && last.every((v, i) => Object.is(v, inputs[i])))
      return this.value as T;
    this.value = compute();
    this.inputs = inputs;
    return this.value;
  }
}
