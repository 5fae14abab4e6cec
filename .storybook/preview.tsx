import type { Preview } from "@storybook/react-vite";
import { Suspense } from "react";
import { startMockAgents } from "../stories/support/mock-agent.tsx";
import "../stories/support/stories.css";

const preview: Preview = {
  // Every story runs against the scripted mock agent in the page (MSW); start it before the first render.
  loaders: [async () => ({ mock: await startMockAgents() })],
  // `useAgentChat` suspends while the first transcript loads, as the official hook does: every story has the
  // boundary an app would put around its chat.
  decorators: [
    (Story) => (
      <Suspense fallback={<p>Loading the conversation…</p>}>
        <Story />
      </Suspense>
    ),
  ],
  parameters: {
    // Any axe-core violation fails the story's test (Vitest addon), not just the panel.
    a11y: { test: "error" },
    controls: { expanded: true },
  },
};
export default preview;
