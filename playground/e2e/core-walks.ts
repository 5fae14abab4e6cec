/**
 * The core walks through the playground: hello, a payment approved and one denied, a research run beside its
 * tool call, and background runs (one opened and cancelled while it runs, one finished). The same code runs
 * against the mock agent server and against the real `agents` runtime (workerd, offline, scripted model); only
 * the limits of the waits and the screenshots' names depend on the target. Every wait is for a state the page
 * shows, never for time to pass.
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openTab, type Playground, press, say, shot } from "./harness.ts";

/** The last agent answer's text. */
export const lastAnswer = (page: Page) => page.getByRole("article", { name: "Agent" }).last();
/** The turn is over: nothing streams, so Stop is off again. */
export const turnOver = (page: Page) => page.getByRole("button", { name: "Stop" }).isDisabled();
/** The tray of background runs. */
export const tray = (page: Page) => page.getByRole("region", { name: "Background runs" });

/**
 * A decided approval card has collapsed to its outcome: one line saying what happened and to which tool, and
 * nothing left to press or type in (no disabled Approve/Deny, no empty reason box).
 */
export async function decidedCardSays(card: Locator, outcome: string) {
  await expect.poll(() => card.getByRole("status").textContent()).toBe(outcome);
  expect(await card.getByRole("button").count()).toBe(0);
  expect(await card.getByRole("textbox").count()).toBe(0);
  expect(await card.getByRole("status").isVisible()).toBe(true);
  expect(await card.getByText("processPayment").first().isVisible()).toBe(true);
  // One line: no taller than two lines of its text.
  const box = await card.boundingBox();
  expect(box?.height ?? 0).toBeLessThan(60);
}

/** Registers the core walks; `pg()` is the started playground (its `target` names the server). */
export function coreWalks(pg: () => Playground) {
  // Room for several waits in a row on a busy machine; each wait has its own, shorter limit.
  const T = { timeout: 180_000 };
  // Every poll names this limit: `expect.poll`'s own default (1 s) is less than a render takes on a busy machine.
  const wait = () => ({ timeout: pg().waitMs });

  describe("core walks", () => {
    it("hello: the agent answers in text", T, async () => {
      const { target } = pg();
      const { page, errors } = await openTab(pg());
      await shot(page, "01-empty", target);
      // The empty chat offers the demo words; one press sends one.
      const suggestions = page.getByRole("list", { name: "Suggestions" });
      await press(suggestions.getByRole("button", { name: "hello", exact: true }));
      await expect.poll(() => lastAnswer(page).textContent(), wait()).toContain("How can I help you today?");
      expect(await page.getByRole("article", { name: "You" }).first().textContent()).toBe("hello");
      expect(await suggestions.count()).toBe(0);
      await shot(page, "02-hello", target);
      expect(errors).toEqual([]);
      await page.close();
    });

    it("pay, approved: the payment runs once and the agent reports it", T, async () => {
      const { target } = pg();
      const { page, errors } = await openTab(pg());
      await say(page, "pay ACME 250");
      const card = page.getByRole("article", { name: /processPayment/ }).first();
      await card.waitFor(wait());
      await expect.poll(() => card.textContent(), wait()).toContain("ACME");
      await shot(page, "08-pay-asked", target);
      const approve = card.getByRole("button", { name: "Approve", exact: true });
      await press(approve);
      // A second press is impossible: the decision is on its way (the button disabled) or applied (the card
      // collapsed, the button hidden), so the button is looked up in the DOM, not among the visible ones.
      expect(await card.locator('[data-rb-part="ApprovalCard.Approve"]').isDisabled()).toBe(true);
      await page.locator('[data-tool="processPayment"][data-status="output-available"]').waitFor(wait());
      await expect
        .poll(() => page.locator('[data-tool="processPayment"] summary').first().textContent(), wait())
        .toMatch(/^Pay 250 to ACME.*Done$/);
      await expect.poll(() => lastAnswer(page).textContent(), wait()).toContain("tx_123");
      expect(await card.getAttribute("data-status")).toBe("approved");
      await decidedCardSays(card, "Approved");
      await expect.poll(() => turnOver(page), wait()).toBe(true);
      await shot(page, "10-pay-approved", target);
      expect(errors).toEqual([]);
      await page.close();
    });

    it(
      "pay, denied with a reason: the tool says why, and the next payment can still be approved",
      T,
      async () => {
        const { target } = pg();
        const { page, errors } = await openTab(pg());
        await say(page, "pay ACME 250");
        const card = page.getByRole("article", { name: /processPayment/ }).first();
        await card.waitFor(wait());
        await card.getByRole("textbox").fill("Wrong amount");
        await press(card.getByRole("button", { name: "Deny with this reason" }));
        await page.locator('[data-tool="processPayment"][data-status="output-error"]').waitFor(wait());
        await expect
          .poll(() => page.locator('[data-tool="processPayment"]').first().textContent(), wait())
          .toContain("Wrong amount");
        await decidedCardSays(card, "Denied: Wrong amount");
        await shot(page, "09-pay-denied", target);

        await say(page, "pay ACME 99");
        const conversation = page.getByRole("region", { name: "Conversation" });
        const second = conversation.locator('[data-tool="processPayment"]').nth(1).getByRole("article");
        await second.waitFor(wait());
        await press(second.getByRole("button", { name: "Approve", exact: true }));
        await expect.poll(() => lastAnswer(page).textContent(), wait()).toContain("tx_123");
        expect(await second.getAttribute("data-status")).toBe("approved");
        await decidedCardSays(second, "Approved");
        // The first payment stays denied.
        expect(await page.locator('[data-tool="processPayment"]').first().getAttribute("data-status")).toBe(
          "output-error",
        );
        expect(errors).toEqual([]);
        await page.close();
      },
    );

    it("research: a child run beside its tool call, with progress and milestones, then done", T, async () => {
      const { target } = pg();
      const { page, errors } = await openTab(pg());
      await say(page, "research durable objects");
      const run = page.getByRole("group", { name: /research/i }).first();
      await run.waitFor(wait());
      await shot(page, "06-research-running", target);
      await page.locator('.run-card[data-status="completed"]').waitFor(wait());
      await expect.poll(() => lastAnswer(page).textContent(), wait()).toContain("research");
      await expect.poll(() => turnOver(page), wait()).toBe(true);
      // The tool call is one line in words, and the helper is named once ("Researcher", not "Researcher Researcher").
      const line = page.locator('[data-tool="research"] > details > summary').first();
      await expect.poll(() => line.textContent(), wait()).toMatch(/^Research — .+Done$/);
      expect(await run.locator(".run-header").textContent()).toMatch(/^Researcher(?!.*Researcher)/);
      // The result reads as the child's two paragraphs, not glued ("Researching now.Summary: …").
      expect(await run.locator(".run-result pre").textContent()).toMatch(/^Researching now\.\n\nSummary: /);
      // The run closed itself on completion: its progress and milestones wait behind Details.
      const details = run.getByRole("button", { name: "Details" });
      await expect.poll(() => details.getAttribute("aria-expanded"), wait()).toBe("false");
      expect(await run.locator(".timeline").count()).toBe(0);
      await shot(page, "07-research-done", target);
      await press(details);
      expect(await details.getAttribute("aria-expanded")).toBe("true");
      await expect.poll(() => page.locator(".timeline li").count(), wait()).toBeGreaterThan(0);
      await expect.poll(() => page.locator(".timeline").textContent(), wait()).toContain("sources-gathered");
      // The last progress report stays readable after the run completes.
      await expect.poll(() => run.textContent(), wait()).toContain("Reading 2 sources");
      await expect.poll(() => run.textContent(), wait()).toContain("gatherSources");
      await shot(page, "07b-research-expanded", target);
      expect(errors).toEqual([]);
      await page.close();
    });

    it(
      "background: a detached run in the tray, its chat opened and the run cancelled while it runs",
      T,
      async () => {
        const { target } = pg();
        const { page, errors } = await openTab(pg());
        // "until cancelled": the run stays open after its summary until someone cancels it (both servers), so
        // the chat is opened and the cancel sent while it is surely still going, however slow the machine is.
        await say(page, "start background research on websockets until cancelled");
        const item = tray(page).getByRole("listitem").first();
        await item.waitFor(wait());
        await expect.poll(() => item.getAttribute("data-status"), wait()).toBe("running");
        // The person opens the helper's own chat while it works and reads everything it has written, however
        // early the chat was opened: the helper writes its first line and its summary, then waits for the
        // cancel, so both show whether they came in the chat's replay or live after it. (A chat opened in the
        // helper's first second used to stay at its first word: its resume probe, read by the server after its
        // ACK, stopped the stream for that socket; docs/protocol.md#probe-after-ack.)
        await press(item.getByRole("button", { name: /^Open/ }));
        const child = page.getByRole("region", { name: /chat$/ });
        await child.waitFor(wait());
        await expect.poll(() => child.textContent(), wait()).toContain("Summary: found 2 sources");
        expect(await child.textContent()).toContain("Researching now.");
        expect(await item.getAttribute("data-status")).toBe("running");
        await shot(page, "16-background-running", target);
        const cancel = item.getByRole("button", { name: /^Cancel/ });
        await press(cancel);
        // One press is one cancel: the button is disabled while the cancel is on its way (the run reads
        // cancelling until its end arrives), and the run ends.
        expect(await cancel.isDisabled()).toBe(true);
        expect(["cancelling", "aborted"]).toContain(await item.getAttribute("data-tray-status"));
        await expect.poll(() => item.getAttribute("data-status"), wait()).toBe("aborted");
        await expect.poll(() => item.textContent(), wait()).toContain("Cancelled");
        await shot(page, "17-background-cancelled", target);
        expect(errors).toEqual([]);
        await page.close();
      },
    );

    it(
      "background: a detached run in the tray runs to completion with its milestones, the agent is told, the person opens the helper's chat and dismisses the run",
      T,
      async () => {
        const { target } = pg();
        const { page, errors } = await openTab(pg());
        await say(page, "start background research on queues");
        const item = tray(page).getByRole("listitem").first();
        await item.waitFor(wait());
        // The dispatch's answer ({ runId, status }) reads as what happened, with the way to the run.
        const dispatch = page.locator('[data-tool="startBackgroundResearch"]').first();
        await expect
          .poll(() => dispatch.locator("summary").textContent(), wait())
          .toContain("Started Researcher in the background");
        expect(await dispatch.getByRole("button", { name: "Show in background runs" }).count()).toBe(1);
        await expect
          .poll(() => tray(page).locator("[data-count]").first().getAttribute("data-count"), wait())
          .toBe("1");
        await expect.poll(() => item.getAttribute("data-status"), wait()).toBe("completed");
        await expect.poll(() => item.locator(".chips li").count(), wait()).toBeGreaterThan(0);
        // The finished run is reported to the agent as an event (not as the person's words), and it answers.
        await expect
          .poll(() => page.locator(".agent-event").last().textContent(), wait())
          .toContain("Researcher");
        await expect.poll(() => lastAnswer(page).textContent(), wait()).toContain("Noted");
        await press(item.getByRole("button", { name: /^Open/ }));
        const child = page.getByRole("region", { name: /chat$/ });
        await child.waitFor(wait());
        await expect.poll(() => child.textContent(), wait()).toContain("Summary: found 2 sources");
        await shot(page, "18-background-done-drilled-in", target);
        await press(item.getByRole("button", { name: /^Dismiss/ }));
        await expect.poll(() => tray(page).getByRole("listitem").count(), wait()).toBe(0);
        await expect.poll(() => tray(page).textContent(), wait()).toContain("No background runs");
        await shot(page, "19-background-dismissed", target);
        expect(errors).toEqual([]);
        await page.close();
      },
    );
  });
}
