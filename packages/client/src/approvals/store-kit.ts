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

/**
 * One stable `decide` callback per request id, so a card holding `request.decide` keeps the same function across
 * snapshots (a new function every snapshot would re-render every card on every change).
 */
export class Deciders<D> {
  private readonly fns = new Map<string, (decision: D) => boolean>();

  constructor(private readonly decide: (id: string, decision: D) => boolean) {}

  /** The callback deciding request `id`. */
  for(id: string): (decision: D) => boolean {
    let fn = this.fns.get(id);
    if (!fn) {
      fn = (decision: D) => this.decide(id, decision);
      this.fns.set(id, fn);
    }
    return fn;
  }
}
