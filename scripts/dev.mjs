// `npm run dev`: builds the packages, starts the mock agent server and the playground, prints the URLs.
// `npm run mock` (--mock-only) starts only the mock server.
import { execFileSync } from "node:child_process";
import { createServer as createNetServer } from "node:net";

const mockOnly = process.argv.includes("--mock-only");
execFileSync("npx", ["tsc", "-b"], { stdio: "inherit" });
const { createMockAgentServer } = await import("../mock-server/dist/index.js");

/** The wanted port if free on 127.0.0.1, else a free one. */
const freePort = (wanted) =>
  new Promise((resolve) => {
    const s = createNetServer();
    s.once("error", () => {
      const t = createNetServer().listen(0, "127.0.0.1", () => {
        const { port } = t.address();
        t.close(() => resolve(port));
      });
    });
    s.listen(wanted, "127.0.0.1", () => s.close(() => resolve(wanted)));
  });

const mock = await createMockAgentServer({
  port: await freePort(Number(process.env.PORT_MOCK ?? 8787)),
  agents: { ChatAgent: { host: "ai-chat", initialState: { counter: 0 } }, ThinkAgent: { host: "think" } },
});
console.log(`Mock agent server: ${mock.url}`);
const closers = [() => mock.close()];

if (!mockOnly) {
  process.env.VITE_AGENT_HOST ??= `127.0.0.1:${mock.port}`;
  const { createServer } = await import("vite");
  const vite = await createServer({
    root: new URL("../playground/", import.meta.url).pathname,
    server: { host: "127.0.0.1", port: await freePort(5173), strictPort: true },
  });
  await vite.listen();
  console.log(`Playground: ${vite.resolvedUrls.local[0]} (agent host ${process.env.VITE_AGENT_HOST})`);
  closers.push(() => vite.close());
}

const stop = async () => {
  await Promise.all(closers.map((c) => c()));
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
