import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { Boundary } from "./boundary.tsx";
import { HelixView } from "./helix-view.tsx";
import "@runboard/react/styles.css";
import "./playground.css";
import "./shell.css";
import { applyTheme, readTheme } from "./theme.ts";

// The stored colour scheme before the first paint, so a dark page does not flash light.
applyTheme(readTheme(), false);

/** `?view=helix` shows the mock's helix-agents stream instead of the chat. */
const view = new URLSearchParams(window.location.search).get("view");
const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root, {
  // The playground's boundaries log what they catch themselves; React would log it a second time.
  onCaughtError: (error, info) => {
    if (!(info.errorBoundary instanceof Boundary)) console.error(error, info.componentStack ?? "");
  },
}).render(
  <StrictMode>
    <Boundary what="The playground">
      {/* useAgentChat suspends while the first transcript loads, as the official hook does. */}
      {view === "helix" ? (
        <HelixView />
      ) : (
        <Suspense fallback={<p className="hint">Loading the conversation…</p>}>
          <App />
        </Suspense>
      )}
    </Boundary>
  </StrictMode>,
);
