/**
 * Rendering for tests of components that call `useAgentChat`. Like the official hook, it suspends while the
 * first transcript loads; React only resumes a tree that suspended inside `act()` when that `act()` is
 * awaited, so a plain synchronous `render()` would leave it suspended for good.
 */
import { act, type RenderResult, render } from "@testing-library/react";
import type { ReactElement } from "react";

export async function renderSettled(ui: ReactElement): Promise<RenderResult> {
  let view: RenderResult | undefined;
  await act(async () => {
    view = render(ui);
  });
  return view as RenderResult;
}
