/**
 * A context per compound component. A part used outside its root fails with an error that names both,
 * instead of an undefined-property crash deep inside the part.
 */
import { type Context, createContext, useContext } from "react";

/** A compound component's context, remembering the root's name for the error message. */
export interface PartContext<T> {
  Context: Context<T | null>;
  root: string;
}

/** Creates the context of the compound component `root` (its name goes into misuse errors). */
export function createPartContext<T>(root: string): PartContext<T> {
  const ctx = createContext<T | null>(null);
  ctx.displayName = `${root}Context`;
  return { Context: ctx, root };
}

/** Reads the compound component's context; throws a message naming the part and the fix outside the root. */
export function usePartContext<T>(ctx: PartContext<T>, part: string): T {
  const value = useContext(ctx.Context);
  if (value === null)
    throw new Error(`<${part}> must be rendered inside <${ctx.root}>. Wrap it in <${ctx.root}>.`);
  return value;
}
