/**
 * A person approves what they read, so a bidi override or a zero-width character from the agent must not
 * reorder or hide what a card shows: "invoice" + U+202E + "exe.txt" would read as "invoicetxt.exe".
 */
import type { ApprovalRequest } from "@runboard/protocol";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, it } from "vitest";
import { ApprovalCard } from "./approval-card.tsx";

afterEach(cleanup);

const RLO = "\u202E";
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF]/;

const request = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id: "chat:a1",
  source: "chat",
  key: "a1",
  toolCallId: "call-1",
  name: `send${RLO}File`,
  summary: `Email invoice${RLO}exe.txt to the client`,
  risk: "medium",
  permissions: [`files:read${RLO}`, "mail:\u200Bsend"],
  arguments: { file: `invoice${RLO}exe.txt`, to: "a@example.com" },
  argumentsComplete: true,
  status: "requested",
  online: true,
  decide: () => true,
  ...over,
});

function Card({ r }: { r: ApprovalRequest }) {
  return (
    <ApprovalCard.Root request={r}>
      <ApprovalCard.Title />
      <ApprovalCard.Summary />
      <ApprovalCard.Risk />
      <ApprovalCard.Permissions />
      <ApprovalCard.Arguments />
      <ApprovalCard.Approve />
      <ApprovalCard.Confirm />
      <ApprovalCard.Status />
    </ApprovalCard.Root>
  );
}

it("shows a bidi override in the tool's input as a marker, and no raw override anywhere on the card", () => {
  render(<Card r={request()} />);
  const card = screen.getByRole("article");
  const text = card.textContent ?? "";
  expect(text).not.toMatch(HIDDEN);
  expect(within(card).getByRole("heading").textContent).toBe("send⟨U+202E⟩File");
  expect(text).toContain("Email invoice⟨U+202E⟩exe.txt to the client");
  expect(card.querySelector("pre")?.textContent).toContain('"file": "invoice⟨U+202E⟩exe.txt"');
  expect([...card.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
    "files:read⟨U+202E⟩",
    "mail:⟨U+200B⟩send",
  ]);
});

it("shows hidden characters in a denial's echoed reason as markers", () => {
  const r = request({
    status: "denied",
    outcome: { approved: false, reason: `not\u2066 this`, by: "elsewhere" },
  });
  render(<Card r={r} />);
  const card = screen.getByRole("article");
  expect(card.textContent).not.toMatch(HIDDEN);
  expect(card.textContent).toContain("Denied: not⟨U+2066⟩ this.");
});

it("shows them as markers in the confirm dialog too", async () => {
  const user = userEvent.setup();
  render(<Card r={request({ risk: "high" })} />);
  await user.click(screen.getByRole("button", { name: "Approve" }));
  const dialog = await screen.findByRole("alertdialog");
  expect(dialog.textContent).not.toMatch(HIDDEN);
  expect(dialog.textContent).toContain("Approve send⟨U+202E⟩File?");
  expect(dialog.textContent).toContain("Email invoice⟨U+202E⟩exe.txt to the client High risk.");
});

it("shows none of the 20 invisible characters the review slipped past the card raw (issue 26 §4)", () => {
  // Soft hyphen, CGJ, Hangul fillers, Mongolian vowel separator, invisible times, braille blank, variation
  // selectors after a letter, tag characters, line separator, and more of each kind.
  const sneaky = [
    "\u00AD",
    "\u034F",
    "\u115F",
    "\u3164",
    "\uFFA0",
    "\u180E",
    "\u2062",
    "\u2800",
    "\uFE0F",
    "\u{E0100}",
    "\u{E0041}",
    "\u2028",
    "\u2029",
    "\u2061",
    "\u{1D173}",
    "\uFFF9",
    "\u17B4",
    "\u1160",
    "\u206A",
    "\u{E007F}",
  ];
  render(
    <Card
      r={request({
        name: `pay${sneaky.join("")}`,
        summary: sneaky.join("x"),
        arguments: { to: sneaky.join("") },
      })}
    />,
  );
  const text = screen.getByRole("article").textContent ?? "";
  for (const ch of sneaky) expect(text.includes(ch), `U+${ch.codePointAt(0)?.toString(16)}`).toBe(false);
  expect(text.match(/⟨U\+[0-9A-F]{4,6}⟩/g)?.length).toBeGreaterThanOrEqual(sneaky.length * 3);
});
