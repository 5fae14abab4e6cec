import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { applyBranches, type BranchEntry, readBranchVersions } from "./branches.ts";

const msg = (id: string, role: UIMessage["role"], t = id): UIMessage => ({
  id,
  role,
  parts: [{ type: "text", text: t }],
});

// Think after one regeneration: the transcript shows the newest answer (a1b); a1a is its older sibling.
const transcript = [msg("u1", "user"), msg("a1b", "assistant"), msg("u2", "user"), msg("a2", "assistant")];
const versions = [msg("a1a", "assistant", "first answer"), msg("a1b", "assistant", "second answer")];

describe("applyBranches", () => {
  it("marks the answer with siblings and keeps the transcript when the newest is selected", () => {
    const branches = new Map<string, BranchEntry>([["u1", { versions, selectedIndex: 1 }]]);
    const r = applyBranches(transcript, branches);
    expect(r.messages).toBe(transcript);
    expect(r.byMessageId.get("a1b")).toEqual({
      userMessageId: "u1",
      index: 1,
      count: 2,
      ids: ["a1a", "a1b"],
    });
    expect(r.byMessageId.has("a2")).toBe(false);
  });

  it("shows an older answer in place and leaves out what continued the newest", () => {
    const r = applyBranches(transcript, new Map([["u1", { versions, selectedIndex: 0 }]]));
    expect(r.messages.map((m) => m.id)).toEqual(["u1", "a1a"]);
    expect(r.byMessageId.get("a1a")?.index).toBe(0);
  });

  it("keeps a regeneration the versions do not list yet", () => {
    const fresh = [msg("u1", "user"), msg("a1c", "assistant")];
    const r = applyBranches(fresh, new Map([["u1", { versions, selectedIndex: 0 }]]));
    expect(r.messages).toBe(fresh);
    expect(r.byMessageId.size).toBe(0);
  });
});

describe("readBranchVersions", () => {
  it("accepts the messages Think's getBranches returns", () => {
    expect(readBranchVersions(versions)).toEqual({ versions });
  });
  it.each([
    [null, "list"],
    [[{ id: "a" }], "role"],
    [[{ role: "assistant", parts: [] }], "id"],
    [[{ id: "a", role: "assistant", parts: "x" }], "parts"],
    [["a"], "not a message"],
  ])("reports %o", (raw, word) => {
    const r = readBranchVersions(raw);
    expect("problem" in r && r.problem).toContain(word);
  });
});
