/**
 * LiveView with the hand-offs the docs show: a single URL (`getLiveViewUrl`, a tool's `{ needsHumanLogin }`),
 * a session the agent closed, and new tabs fetched on demand (Reload, `refreshKey`).
 */
import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { LiveView } from "./index.ts";
import {
  expectNoUrlLogged,
  frames,
  ORIGIN,
  root,
  session,
  target,
  urlsUsed,
  View,
  watchConsole,
} from "./live-view-fixtures.test.tsx";

const logged = watchConsole();
const flush = () => act(async () => {});

describe("hand-offs as the docs show them", () => {
  it("a tool's { needsHumanLogin: url } shows that page in one tab", () => {
    const url = `${ORIGIN}/ui/view?mode=tab&wss=hand-off-1`;
    urlsUsed.add(url);
    render(<View session={{ needsHumanLogin: url }} />);
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual(["Live view"]);
    expect(frames().map((f) => f.getAttribute("src"))).toEqual([url]);
  });

  it("a session the agent closed (liveView() answers null) says 'Session ended.' and stops asking", async () => {
    vi.useFakeTimers();
    const refresh = vi.fn(async () => null);
    render(<View refresh={refresh} />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(root().getAttribute("data-status")).toBe("ended");
    expect(screen.getByRole("status").textContent).toBe("Session ended.");
    expect(screen.queryByText(/Retrying/)).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600_000);
    });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(frames()).toHaveLength(0);
  });

  it("Reload fetches at once: a tab the agent opened shows before the expiry refresh; after an end it asks again", async () => {
    const first = session();
    const second = {
      ...session(),
      targets: [...session().targets, target("NEW", "https://docs.example/", "Docs")],
    };
    const answers: unknown[] = [null, second];
    const refresh = vi.fn(async () => answers.shift() as typeof second);
    render(
      <View session={first} refresh={refresh}>
        <LiveView.TabList />
        <LiveView.Reload />
        <LiveView.Status />
      </View>,
    );
    await flush();
    expect(refresh).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Reload" }));
    await flush();
    expect(root().getAttribute("data-status")).toBe("ended");
    fireEvent.click(screen.getByRole("button", { name: "Reload" }));
    await flush();
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toContain("Docs");
    expect(root().getAttribute("data-status")).not.toBe("ended");
  });

  it("Reload is absent without refresh; a new refreshKey fetches at once, the first one does not", async () => {
    const refresh = vi.fn(async () => session());
    const { rerender } = render(
      <View session={session()} refresh={refresh} refreshKey={0}>
        <LiveView.Reload />
      </View>,
    );
    await flush();
    expect(refresh).not.toHaveBeenCalled();
    rerender(
      <View session={session()} refresh={refresh} refreshKey={1}>
        <LiveView.Reload />
      </View>,
    );
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    rerender(
      <View session={session()}>
        <LiveView.Reload />
      </View>,
    );
    expect(screen.queryByRole("button", { name: "Reload" })).toBeNull();
  });

  it("never logs a URL", () => {
    expectNoUrlLogged(logged);
  });
});
