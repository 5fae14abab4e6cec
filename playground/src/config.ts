/**
 * Where the playground points: `VITE_AGENT_HOST` (and `VITE_AGENT`, `VITE_AGENT_NAME`) from the environment,
 * overridable per tab with `?agent=ThinkAgent&name=demo` so two agents can be tried side by side.
 */
const params = new URLSearchParams(window.location.search);

export const AGENT_HOST = import.meta.env.VITE_AGENT_HOST || "127.0.0.1:8787";
export const AGENT_CLASS = params.get("agent") || import.meta.env.VITE_AGENT || "ChatAgent";
export const AGENT_NAME = params.get("name") || import.meta.env.VITE_AGENT_NAME || "playground";

/** The demo words of the mock agents, as suggestions. */
export const WORDS = [
  "hello",
  "weather in Lisbon",
  "pay ACME 250",
  "locate me",
  "research durable objects",
  "fanout",
  "background research on queues",
  "browse my orders",
  "expense 120",
  "deploy",
  "fail",
  "nested",
  "slow",
  "delegate",
  "recover",
  "give up",
  "compact",
  "idea",
];
