/**
 * The one element every headless part renders. `asChild` hands the part's props, ref and handlers to the
 * single child instead, so a user can make a part their own `<a>`, router link or design-system button
 * without a wrapper element.
 */
import { Slot } from "@radix-ui/react-slot";
import {
  type ComponentPropsWithRef,
  cloneElement,
  createElement,
  type ElementType,
  isValidElement,
  type ReactElement,
} from "react";

/** The `asChild` switch every part accepts. */
export interface AsChildProp {
  /** Render the single child element with this part's props instead of the default element. */
  asChild?: boolean;
}

/** Props of a part rendered as `Tag`, plus `asChild`. */
export type PrimitiveProps<Tag extends ElementType> = ComponentPropsWithRef<Tag> & AsChildProp;

/** `data-*` state attributes, which JSX allows but an object literal of `PrimitiveProps` would reject. */
export type DataAttributes = { [name: `data-${string}`]: string | number | boolean | undefined };

/**
 * Renders `tag`, or the child through a Slot when `asChild` is set. `policy` holds attributes no prop may
 * override (a Live View frame's sandbox, a link's `rel`): they win over the part's props and, with `asChild`,
 * over the child's own props too (a Slot lets the child's props win, so they are set on the child itself).
 */
export function renderPart<Tag extends ElementType>(
  tag: Tag,
  props: PrimitiveProps<Tag> & DataAttributes,
  policy?: Record<string, unknown>,
): ReactElement {
  const { asChild, ...rest } = props;
  if (!policy) return createElement(asChild ? Slot : tag, rest);
  if (!asChild) return createElement(tag, { ...rest, ...policy });
  const child = (rest as { children?: unknown }).children;
  return createElement(
    Slot,
    { ...rest, ...policy },
    isValidElement(child) ? cloneElement(child, policy) : (child as ReactElement),
  );
}

/** `data-*` attributes take strings; booleans become present-or-absent as in Radix. */
export function dataFlag(on: boolean | undefined): "" | undefined {
  return on ? "" : undefined;
}
