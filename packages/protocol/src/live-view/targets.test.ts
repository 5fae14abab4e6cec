/** Which targets become tabs, and their names. */
import { describe, expect, it } from "vitest";
import type { LiveViewTarget } from "./session.ts";
import { isBlankPage, targetLabel, visibleTargets } from "./targets.ts";

const t = (targetId: string, pageUrl: string, extra: Partial<LiveViewTarget> = {}): LiveViewTarget => ({
  targetId,
  url: `https://live.browser.run/${targetId}`,
  pageUrl,
  title: "",
  type: "page",
  ...extra,
});

describe("visibleTargets", () => {
  it("hides workers, background pages, blank and internal pages, and duplicate ids", () => {
    const shown = visibleTargets([
      t("A", "https://shop.example/login", { title: "Sign in" }),
      t("SW", "https://shop.example/sw.js", { type: "service_worker" }),
      t("BG", "chrome-extension://abc/background.html", { type: "background_page" }),
      t("BLANK", "about:blank"),
      t("NEW", "chrome://newtab/"),
      t("DEV", "devtools://devtools/bundled/inspector.html"),
      t("EMPTY", ""),
      t("A", "https://shop.example/other"),
      t("B", "https://shop.example/orders"),
      { targetId: "NOURL", pageUrl: "https://x.example" } as unknown as LiveViewTarget,
      null as unknown as LiveViewTarget,
    ]);
    expect(shown.map((x) => x.targetId)).toEqual(["A", "B"]);
  });

  it("keeps targets without a type (only typed non-pages are hidden)", () => {
    // The wire shape has a type, but a session read by parseLiveViewSession is not checked target by target.
    const { type: _, ...untyped } = t("U", "https://shop.example/");
    expect(visibleTargets([untyped as LiveViewTarget]).map((x) => x.targetId)).toEqual(["U"]);
  });
});

describe("isBlankPage", () => {
  it("is true for nothing at all and browser-internal schemes", () => {
    expect(
      [undefined, "", "  ", "about:blank", "about:srcdoc", "chrome://settings", "edge://newtab"].map(
        isBlankPage,
      ),
    ).toEqual([true, true, true, true, true, true, true]);
    expect(["https://shop.example/", "http://localhost:3000", "not a url"].map(isBlankPage)).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe("targetLabel", () => {
  it("uses the title, else the host of the page, else the tab's number", () => {
    expect(targetLabel({ title: " Sign in · Shop ", pageUrl: "https://shop.example/login" }, 0)).toBe(
      "Sign in · Shop",
    );
    expect(targetLabel({ title: "", pageUrl: "https://shop.example:8443/login" }, 0)).toBe(
      "shop.example:8443",
    );
    // Browsers report an untitled page's address as its title.
    expect(targetLabel({ title: "https://shop.example/a", pageUrl: "https://shop.example/a" }, 0)).toBe(
      "shop.example",
    );
    expect(targetLabel({ pageUrl: "not a url" }, 2)).toBe("Tab 3");
  });
});
