/** The element both the server and the browser render, so the two trees match by construction. */
import { type ReactElement, StrictMode, Suspense } from "react";
import { Page } from "./page.tsx";
import type { PageProps } from "./props.ts";

export function createPage(props: PageProps): ReactElement {
  return (
    <StrictMode>
      <Suspense fallback={<p>Loading…</p>}>
        <Page {...props} />
      </Suspense>
    </StrictMode>
  );
}
