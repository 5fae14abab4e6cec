/// <reference types="vite/client" />
import "@runboard/react/styles.css";
import "./chat.css";
import { createRoot } from "react-dom/client";
import { App } from "./chat-app.tsx";

// The mock agent on your machine; set VITE_AGENT_HOST to your deployed Worker's host to use the real one.
const host = import.meta.env.VITE_AGENT_HOST ?? "127.0.0.1:8787";

const root = document.getElementById("root");
if (root) createRoot(root).render(<App host={host} />);
