/// <reference types="vite/client" />

/** Variables `npm run dev` (or you) pass to the page. */
interface ImportMetaEnv {
  /** host:port of the agent server, e.g. `127.0.0.1:8787` or `my-app.example.workers.dev`. */
  readonly VITE_AGENT_HOST?: string;
  /** Agent class to talk to. Default `ChatAgent`. */
  readonly VITE_AGENT?: string;
  /** Instance name. Default `playground`. */
  readonly VITE_AGENT_NAME?: string;
  /** Extra origins the Live View may embed, comma-separated (e.g. your Browser Run live view origin). */
  readonly VITE_LIVE_VIEW_ORIGINS?: string;
}
