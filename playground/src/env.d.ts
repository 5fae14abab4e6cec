/// <reference types="vite/client" />

/** Variables `npm run dev` passes to the page. */
interface ImportMetaEnv {
  /** host:port of the agent server, e.g. `127.0.0.1:8787`. */
  readonly VITE_AGENT_HOST?: string;
}
