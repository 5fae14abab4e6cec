import type { Preview } from "@storybook/react-vite";
import { type ReactNode, Suspense, useLayoutEffect } from "react";
// The optional theme, imported as an app would; the stories' CSS only lays out their demos.
import { configure } from "storybook/test";
import { StoryRunProvider, startMockAgents } from "../stories/support/mock-agent.tsx";
import "@runboard/react/styles.css";
import "../stories/support/stories.css";

// Play functions wait on the page, not on the clock: Testing Library gives up after 1 s by default, less than a
// render after a mock frame can take when the machine is busy (the suite runs every story twice, light and dark).
configure({ asyncUtilTimeout: 30_000 });

/** Puts the toolbar's choice on <html> as `data-theme`; "system" leaves it to `prefers-color-scheme`. */
function ThemeScope({ theme, children }: { theme: string; children: ReactNode }) {
  useLayoutEffect(() => {
    const root = document.documentElement;
    if (theme === "light" || theme === "dark") root.dataset.theme = theme;
    else delete root.dataset.theme;
  }, [theme]);
  return children;
}

const preview: Preview = {
  // Every story runs against the scripted mock agent in the page (MSW); start it before the first render.
  loaders: [async () => ({ mock: await startMockAgents() })],
  globalTypes: {
    theme: {
      description: "Colour scheme of the theme (data-theme on <html>)",
      toolbar: {
        title: "Theme",
        icon: "contrast",
        items: [
          { value: "system", title: "System" },
          { value: "light", title: "Light" },
          { value: "dark", title: "Dark" },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: "system" },
  // `useAgentChat` suspends while the first transcript loads, as the official hook does: every story has the
  // boundary an app would put around its chat.
  decorators: [
    (Story, { globals }) => (
      <ThemeScope theme={String(globals.theme ?? "system")}>
        <StoryRunProvider>
          <Suspense fallback={<p>Loading the conversation…</p>}>
            <Story />
          </Suspense>
        </StoryRunProvider>
      </ThemeScope>
    ),
  ],
  parameters: {
    // Any axe-core violation fails the story's test (Vitest addon), not just the panel.
    a11y: { test: "error" },
    controls: { expanded: true },
  },
};
export default preview;
