import { Progress, type ProgressRootProps } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { useId } from "react";
import { expect, within } from "storybook/test";
import "./support/progress.css";

interface BarProps extends Pick<ProgressRootProps, "value" | "phase" | "message" | "complete"> {
  /** The visible caption, which also names the bar. */
  label: string;
}

/** A captioned bar: the caption names it, the text under it repeats what the bar speaks. */
function Bar({ label, phase, message, ...props }: BarProps) {
  const id = useId();
  return (
    <figure className="rb-progress-card">
      <figcaption id={id}>{label}</figcaption>
      <Progress.Root aria-labelledby={id} phase={phase} message={message} className="rb-progress" {...props}>
        <Progress.Indicator className="rb-progress-indicator" />
      </Progress.Root>
      {phase || message ? (
        <p className="rb-progress-text">{[phase, message].filter(Boolean).join(": ")}</p>
      ) : null}
    </figure>
  );
}

const meta: Meta<typeof Bar> = { title: "Components/Progress", component: Bar };
export default meta;
type Story = StoryObj<typeof Bar>;

const bar = (canvasElement: HTMLElement, name: string) =>
  within(canvasElement).getByRole("progressbar", { name });

/** No fraction yet: the bar claims no value (no `aria-valuenow`) and animates instead. */
export const Indeterminate: Story = {
  args: { label: "Connecting", message: "Waiting for the first update" },
  play: async ({ canvasElement }) => {
    const b = bar(canvasElement, "Connecting");
    await expect(b).toHaveAttribute("data-state", "indeterminate");
    await expect(b).not.toHaveAttribute("aria-valuenow");
    await expect(b).toHaveAttribute("aria-valuetext", "Waiting for the first update");
  },
};

/** 40% with the phase and message spoken as the value text. */
export const Loading: Story = {
  args: { label: "Fact check", value: 0.4, phase: "comparing", message: "Comparing 3 sources" },
  play: async ({ canvasElement }) => {
    const b = bar(canvasElement, "Fact check");
    await expect(b).toHaveAttribute("data-state", "loading");
    await expect(b).toHaveAttribute("aria-valuenow", "40");
    await expect(b).toHaveAttribute("aria-valuetext", "comparing: Comparing 3 sources, 40%");
    const indicator = b.firstElementChild as HTMLElement;
    await expect(indicator.style.getPropertyValue("--rb-progress")).toBe("0.4");
    await expect(within(canvasElement).getByText("comparing: Comparing 3 sources")).toBeVisible();
  },
};

/** Done: full and marked complete, whatever the last fraction was. */
export const Complete: Story = {
  args: { label: "Summary", value: 0.75, complete: true, message: "Written" },
  play: async ({ canvasElement }) => {
    const b = bar(canvasElement, "Summary");
    await expect(b).toHaveAttribute("data-state", "complete");
    await expect(b).toHaveAttribute("aria-valuenow", "100");
    await expect(b).toHaveAttribute("aria-valuetext", "Written, 100%");
  },
};

/** Every state at once, for visual review. */
export const AllStates: Story = {
  name: "All states",
  render: () => (
    <div style={{ display: "grid", gap: "1rem" }}>
      <Bar label="Indeterminate" message="Waiting for the first update" />
      <Bar label="Just started" value={0} phase="searching" message="Searching for sources" />
      <Bar label="Loading" value={0.4} phase="comparing" message="Comparing 3 sources" />
      <Bar label="Almost done" value={0.95} phase="writing" message="Writing the summary" />
      <Bar label="Complete" value={1} message="Written" />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const states = within(canvasElement)
      .getAllByRole("progressbar")
      .map((b) => [b.getAttribute("data-state"), b.getAttribute("aria-valuenow")]);
    await expect(states).toEqual([
      ["indeterminate", null],
      ["loading", "0"],
      ["loading", "40"],
      ["loading", "95"],
      ["complete", "100"],
    ]);
  },
};
