/**
 * The public surface is a reviewed list: `api/exports.json` names every runtime and type-only export of each
 * entry point, and this test fails when an entry's source index exports anything else (issue 25 §1). Growing
 * the surface is then a visible change in review; `npm run exports:update` rewrites the list.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script without declarations
import { ENTRIES, readExports, readList, root } from "./exports.mjs";

type Lists = Record<string, { runtime: string[]; types: string[] }>;

const UPDATE =
  "If the change is deliberate, run `npm run exports:update`, commit api/exports.json with it and say in " +
  "CHANGELOG.md what an app gains or loses.";

/** Targets for the main entries' runtime names (issue 25 §1). */
const MAX_RUNTIME: Record<string, number> = { "@runboard/protocol": 60, "@runboard/react": 45 };

/**
 * Names two packages export with different declarations, each with why it stays. Anything else exported by two
 * packages must be one declaration re-exported (the same meaning).
 */
const SHARED_NAMES: Record<string, string> = {
  AgentToolRun:
    "the run's data (type, @runboard/protocol) and the component that shows it (@runboard/react); a value and a type, never confused by the compiler",
  HelixChild:
    "a helix child's data (type, @runboard/protocol/helix, re-exported by @runboard/client/helix) and its parts (@runboard/react)",
  ChatStatus:
    "the official hooks' status union (type, @runboard/client, named as `ai` names it) and the component that words it (@runboard/react)",
  getToolApproval:
    "the official helper's signature in @runboard/react over the same rule in @runboard/protocol",
  getToolCallId:
    "the official helper's signature in @runboard/react over the same rule in @runboard/protocol",
  getToolInput: "the official helper's signature in @runboard/react over the same rule in @runboard/protocol",
  getToolOutput:
    "the official helper's signature in @runboard/react over the same rule in @runboard/protocol",
  getToolPartState:
    "the official helper's signature in @runboard/react over the same rule in @runboard/protocol",
};

const origins = new Map<string, string>();
const current: Lists = readExports(origins);
const listed: Lists = readList();

function difference(now: string[], before: string[]): string {
  const added = now.filter((n) => !before.includes(n));
  const removed = before.filter((n) => !now.includes(n));
  return [
    added.length ? `added: ${added.join(", ")}` : "",
    removed.length ? `removed: ${removed.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

describe("the public surface matches api/exports.json", () => {
  it("lists exactly the package entry points", () => {
    expect(Object.keys(listed).sort(), `api/exports.json entries differ. ${UPDATE}`).toEqual(
      Object.keys(ENTRIES).sort(),
    );
  });

  for (const [entry, file] of Object.entries(ENTRIES as Record<string, string>)) {
    it(`${entry}: runtime names`, () => {
      const diff = difference(current[entry]?.runtime ?? [], listed[entry]?.runtime ?? []);
      expect(diff, `${entry} (${file}) runtime exports changed: ${diff}. ${UPDATE}`).toBe("");
    });

    it(`${entry}: type-only names`, () => {
      const diff = difference(current[entry]?.types ?? [], listed[entry]?.types ?? []);
      expect(diff, `${entry} (${file}) type exports changed: ${diff}. ${UPDATE}`).toBe("");
    });

    it(`${entry}: the module loaded exports the runtime names the compiler reads`, async () => {
      const loaded = Object.keys(await import(/* @vite-ignore */ join(root, file))).sort();
      expect(loaded).toEqual(current[entry]?.runtime);
    });
  }

  it("the main entries stay within their targets", () => {
    for (const [entry, max] of Object.entries(MAX_RUNTIME))
      expect(listed[entry]?.runtime.length, `${entry}: at most ${max} runtime exports`).toBeLessThanOrEqual(
        max,
      );
  });

  it("no name is exported by two packages with different meanings", () => {
    const byName = new Map<string, Map<string, string>>();
    for (const [entry, { runtime, types }] of Object.entries(current))
      for (const name of [...runtime, ...types]) {
        const pkg = entry.split("/").slice(0, 2).join("/");
        const where = byName.get(name) ?? new Map<string, string>();
        where.set(pkg, `${where.get(pkg) ?? ""} ${origins.get(`${entry} ${name}`)}`);
        byName.set(name, where);
      }
    const clashes: string[] = [];
    for (const [name, where] of byName) {
      if (where.size < 2 || name in SHARED_NAMES) continue;
      const declarations = new Set([...where.values()].flatMap((w) => w.trim().split(" ")));
      if (declarations.size > 1) clashes.push(`${name} (${[...where.keys()].join(", ")})`);
    }
    expect(
      clashes,
      "a name exported by two packages is declared twice; rename one, re-export one declaration, or explain it in SHARED_NAMES",
    ).toEqual([]);
  });
});
