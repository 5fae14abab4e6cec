/**
 * The one element every headless part renders. `asChild` hands the part's props, ref and handlers to the
 * single child instead, so a user can make a part their own `<a>`, router link or design-system button
 * without a wrapper element.
 */
import { Slot } from "@radix-ui/react-slot";
import { type ComponentPropsWithRef, createElement, type ElementType, type ReactElement } from "react";

/** The `asChild` switch every part accepts. */
export interface AsChildProp {
  /** Render the single child element with this part's props instead of the default element. */
  asChild?: boolean;
}

/** Props of a part rendered as `Tag`, plus `asChild`. */
export type PrimitiveProps<Tag extends ElementType> = ComponentPropsWithRef<Tag> & AsChildProp;

/** `data-*` state attributes, which JSX allows but an object literal of `PrimitiveProps` would reject. */
export type DataAttributes = { [name: `data-${string}`]: string | number | boolean | undefined };

/** Renders `tag`, or the child through a Slot when `asChild` is set. */
export function renderPart<Tag extends ElementType>(
  tag: Tag,
  props: PrimitiveProps<Tag> & DataAttributes,
): ReactElement {
  const { asChild, ...rest } = props;
  return createElement(asChild ? Slot : tag, rest);
}

/** `data-*` attributes take strings; booleans become present-or-absent as in Radix. */
export function dataFlag(on: boolean | undefined): "" | undefined {
  return on ? "" : undefined;
}
