/** The hygiene checks on tiny fixture trees: the cycle finder, the TSDoc rule, outside citations, duplicates. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  findDuplicateFiles,
  findImportCycles,
  findLongFiles,
  findOutsideCitations,
  findUndocumentedExports,
  sourceFiles,
} from "./check-hygiene.mjs";

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** Writes `files` (path → text) under a fresh temporary root and returns it. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "hygiene-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const cyclesOf = (files: Record<string, string>) => {
  const root = tree(files);
  return findImportCycles(root, sourceFiles(root));
};

describe("import cycles", () => {
  it("reports a cycle through re-exports, extensionless and .js specifiers and type imports, once", () => {
    const cycles = cyclesOf({
      "packages/a/src/x.ts": 'import { y } from "./y.ts";\nexport const x = y;\n',
      "packages/a/src/y.ts": 'export { z as y } from "./z.js";\n',
      "packages/a/src/z.ts": 'import type { X } from "./x";\nexport const z = 1 as unknown as X;\n',
      "packages/a/src/w.ts": 'import { x } from "./x.ts";\nexport const w = x;\n',
    });
    expect(cycles).toEqual([
      ["packages/a/src/x.ts", "packages/a/src/y.ts", "packages/a/src/z.ts", "packages/a/src/x.ts"],
    ]);
  });

  it("reports each distinct cycle of a tangle, a self-import, and folders through index.ts", () => {
    const cycles = cyclesOf({
      "mock-server/src/a.ts": 'import "./b.ts";\nimport "./c.ts";\n',
      "mock-server/src/b.ts": 'import "./a.ts";\n',
      "mock-server/src/c.ts": 'import "./a.ts";\n',
      "mock-server/src/self.ts": 'export * from "./self.ts";\n',
      "packages/p/src/dir/index.ts": 'import "../top.ts";\n',
      "packages/p/src/top.ts": 'import "./dir";\n',
    });
    expect(cycles).toEqual([
      ["mock-server/src/a.ts", "mock-server/src/b.ts", "mock-server/src/a.ts"],
      ["mock-server/src/a.ts", "mock-server/src/c.ts", "mock-server/src/a.ts"],
      ["mock-server/src/self.ts", "mock-server/src/self.ts"],
      ["packages/p/src/dir/index.ts", "packages/p/src/top.ts", "packages/p/src/dir/index.ts"],
    ]);
  });

  it("finds none in a tree without cycles, and ignores tests, stories and packages outside the source folders", () => {
    expect(
      cyclesOf({
        "packages/a/src/x.ts": 'import { y } from "./y.ts";\nexport const x = y;\n',
        "packages/a/src/y.ts": 'import { readFileSync } from "node:fs";\nexport const y = readFileSync;\n',
        "packages/a/src/x.test.ts": 'import "./y.ts";\n',
        "packages/a/src/y.stories.tsx": 'import "./x.ts";\n',
        "packages/a/test/helper.ts": 'import "../src/x.ts";\n',
      }),
    ).toEqual([]);
  });
});

describe("TSDoc on exports", () => {
  const undocumented = (files: Record<string, string>) => {
    const root = tree(files);
    return findUndocumentedExports(root, sourceFiles(root)).map((f) => `${f.file}:${f.line}: ${f.name}`);
  };

  it("needs a /** */ comment directly before each exported declaration", () => {
    const found = undocumented({
      "packages/a/src/mod.ts": [
        "/** Documented. */",
        "export function a() {}",
        "export function b() {}",
        "/** Separated from its export by a line comment. */",
        "// a line comment",
        "export const c = 1;",
        "/* not TSDoc */",
        "export const d = 1, e = 2;",
        "/** The first overload carries the doc. */",
        "export function o(x: string): string;",
        "export function o(x: number): number;",
        "export function o(x: unknown) {",
        "  return x;",
        "}",
        "export interface I {}",
        "/** Documented type. */ export type T = string;",
        "export default function () {}",
        "export class K {}",
        "/** Documented enum. */",
        "export enum E {",
        "  A,",
        "}",
      ].join("\n"),
    });
    expect(found).toEqual([
      "packages/a/src/mod.ts:3: b",
      "packages/a/src/mod.ts:6: c",
      "packages/a/src/mod.ts:8: d",
      "packages/a/src/mod.ts:8: e",
      "packages/a/src/mod.ts:15: I",
      "packages/a/src/mod.ts:17: default",
      "packages/a/src/mod.ts:18: K",
    ]);
  });

  it("reads `export { x }` at the declaration it names; re-exports and index barrels are exempt", () => {
    const found = undocumented({
      "packages/a/src/list.ts": [
        'import { imported } from "./other.ts";',
        "const plain = 1;",
        "/** Documented local. */",
        "const documented = 2;",
        "export { plain, documented as renamed, imported };",
        "/** The export statement's own doc covers its names. */",
        "export { plain as again };",
        'export * from "./other.ts";',
        'export { other } from "./other.ts";',
        "export = plain;",
      ].join("\n"),
      "packages/a/src/other.ts":
        "/** Documented. */\nexport const other = 1;\n/** Documented. */\nexport const imported = 2;\n",
      "packages/a/src/index.ts": 'export const undocumentedInBarrel = 1;\nexport * from "./list.ts";\n',
      "packages/a/src/list.test.ts": "export const inATest = 1;\n",
    });
    expect(found).toEqual(["packages/a/src/list.ts:5: plain", "packages/a/src/list.ts:10: default"]);
  });
});

describe("other checks", () => {
  it("finds citations of outside documents, in any text file, case-insensitively", () => {
    const root = tree({
      "a.ts": "// fine\n// see Reference \u00a73.7 for why\n",
      "b.md": "Read ../shared/notes.md first.\n",
      "c.txt": "nothing here\n",
      "bin.png": "\u0000reference \u00a71\n",
    });
    expect(
      findOutsideCitations(root, ["a.ts", "b.md", "c.txt", "bin.png"]).map((f) => `${f.file}:${f.line}`),
    ).toEqual(["a.ts:2", "b.md:1"]);
  });

  it("groups byte-identical files, but not empty files, lockfiles or licence copies", () => {
    const root = tree({
      "one.txt": "same\n",
      "dir/two.txt": "same\n",
      "three.txt": "other\n",
      "empty-a": "",
      "empty-b": "",
      "a/package-lock.json": "{}\n",
      "b/package-lock.json": "{}\n",
      LICENSE: "MIT\n",
      "packages/x/LICENSE": "MIT\n",
    });
    const files = [
      "one.txt",
      "dir/two.txt",
      "three.txt",
      "empty-a",
      "empty-b",
      "a/package-lock.json",
      "b/package-lock.json",
      "LICENSE",
      "packages/x/LICENSE",
    ];
    expect(findDuplicateFiles(root, files)).toEqual([["dir/two.txt", "one.txt"]]);
  });

  it("counts lines without the final newline", () => {
    const root = tree({ "a.ts": "x\n".repeat(600), "b.ts": "x\n".repeat(601) });
    expect(findLongFiles(root, ["a.ts", "b.ts"])).toEqual([{ file: "b.ts", lines: 601 }]);
  });
});
