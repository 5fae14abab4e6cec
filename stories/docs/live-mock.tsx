/**
 * Runs a docs page's live example against the mock agent in the page (MSW), the one the stories use: the
 * example connects to this page's own host, as an app served by its agent's Worker would.
 */
import { type ReactNode, Suspense, use } from "react";
import { startMockAgents } from "../support/mock-agent.tsx";

function WithHost({ children }: { children: (host: string) => ReactNode }) {
  const mock = use(startMockAgents());
  return <>{children(mock.host)}</>;
}

/** Renders `children(host)` once the in-page mock answers at `host`. */
export function LiveMock({ children }: { children: (host: string) => ReactNode }) {
  return (
    <div className="docs-live-example">
      <Suspense fallback={<p>Starting the mock agent…</p>}>
        <WithHost>{children}</WithHost>
      </Suspense>
    </div>
  );
}
