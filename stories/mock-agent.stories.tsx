import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, waitFor, within } from "storybook/test";
import { useStoryAgent } from "./support/mock-agent.tsx";

/** How every story connects: the real hooks against the mock agent running in the page. */
function Connection() {
  const agent = useStoryAgent<{ counter: number }>({ agent: "ChatAgent" });
  return (
    <dl>
      <dt>Connection</dt>
      <dd data-testid="status">{agent.status}</dd>
      <dt>State</dt>
      <dd data-testid="state">{JSON.stringify(agent.state ?? null)}</dd>
    </dl>
  );
}

const meta: Meta<typeof Connection> = { title: "Mock agent/Connection", component: Connection };
export default meta;

export const Open: StoryObj<typeof Connection> = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(c.getByTestId("status")).toHaveTextContent("open"), { timeout: 30_000 });
    await waitFor(() => expect(c.getByTestId("state")).toHaveTextContent('{"counter":0}'));
  },
};
