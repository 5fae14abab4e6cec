#!/usr/bin/env node
// CLI: runboard-mock [--port 8787] [--host 127.0.0.1]. Needs the built package (npm run build).
import { createMockAgentServer } from "../dist/index.js";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const server = await createMockAgentServer({
  port: Number(arg("port", "8787")),
  host: arg("host", "127.0.0.1"),
  agents: { ChatAgent: { host: "ai-chat", initialState: { counter: 0 } }, ThinkAgent: { host: "think" } },
});
console.log(`Mock agent server: ${server.url} (agents: ChatAgent, ThinkAgent)`);
const stop = () => server.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
