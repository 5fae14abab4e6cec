import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import "./playground.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    {/* useAgentChat suspends while the first transcript loads, as the official hook does. */}
    <Suspense fallback={<p className="hint">Loading the conversation…</p>}>
      <App />
    </Suspense>
  </StrictMode>,
);
