import type { Preview } from "@storybook/react-vite";
import { Suspense } from "react";
import { StoryRunProvider, startMockAgents } from "../stories/support/mock-agent.tsx";
import "../stories/support/stories.css";

const preview: Preview = {
  // Every story runs against the scripted mock agent in the page (MSW); start it before the first render.
  loaders: [async () => ({ mock: await startMockAgents() })],
  // `useAgentChat` suspends while the first transcript loads, as the official hook does: every story has the
  // boundary an app would put around its chat.
  decorators: [
    (Story) => (
      <StoryRunProvider>
        <Suspense fallback={<p>Loading the conversation…</p>}>
          <Story />
        </Suspense>
      </StoryRunProvider>
    ),
  ],
  parameters: {
    // Any axe-core violation fails the story's test (Vitest addon), not just the panel.
    a11y: { test: "error" },
    controls: { expanded: true },
  },
};
export default preview;
