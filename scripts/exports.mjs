#!/usr/bin/env node
/**
 * The public surface, entry point by entry point: every name each package entry exports, runtime values and
 * type-only names apart, read with the TypeScript compiler from the entry's source index. `api/exports.json`
 * holds the reviewed list; `scripts/exports.test.ts` (in `npm test`) fails when an entry's names differ from it.
 *
 * Usage: node scripts/exports.mjs            print the current lists
 *        node scripts/exports.mjs --write    rewrite api/exports.json (npm run exports:update)
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const root = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
export const listFile = join(root, "api/exports.json");

/** Each published entry point (the `exports` maps of the packages) and its source index. */
export const ENTRIES = {
  "@runboard/protocol": "packages/protocol/src/index.ts",
  "@runboard/protocol/view": "packages/protocol/src/view.ts",
  "@runboard/protocol/helix": "packages/protocol/src/helix/index.ts",
  "@runboard/client": "packages/client/src/index.ts",
  "@runboard/client/helix": "packages/client/src/helix/index.ts",
  "@runboard/react": "packages/react/src/index.ts",
  "@runboard/mock-server": "mock-server/src/index.ts",
  "@runboard/mock-server/msw": "mock-server/src/msw.ts",
};

/**
 * `{ [entry]: { runtime: string[], types: string[] } }`, names sorted; a name is runtime when it has a value.
 * `origins`, when given, is filled with `entry name` → where the name is declared (`file:position`), so two
 * entries exporting one name can be told apart from two re-exporting one declaration.
 */
export function readExports(origins) {
  const files = Object.values(ENTRIES).map((f) => join(root, f));
  const paths = Object.fromEntries(Object.entries(ENTRIES).map(([k, f]) => [k, [join(root, f)]]));
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    paths,
  });
  const checker = program.getTypeChecker();
  const out = {};
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(join(root, file));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`exports: cannot read ${file}`);
    const runtime = [];
    const types = [];
    for (const s of checker.getExportsOfModule(moduleSymbol)) {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      // `export type { X }` / `export { type X }` of a value is still type-only for an importer.
      const typeOnly = s.declarations?.some(
        (d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly),
      );
      (target.flags & ts.SymbolFlags.Value && !typeOnly ? runtime : types).push(s.name);
      const decl = target.declarations?.[0];
      if (origins && decl)
        origins.set(
          `${entry} ${s.name}`,
          `${decl.getSourceFile().fileName.slice(root.length + 1)}:${decl.pos}`,
        );
    }
    out[entry] = { runtime: runtime.sort(), types: types.sort() };
  }
  return out;
}

/** The checked-in list. */
export function readList() {
  return JSON.parse(readFileSync(listFile, "utf8"));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const current = readExports();
  if (process.argv.includes("--write")) {
    writeFileSync(listFile, `${JSON.stringify(current, null, 2)}\n`);
    // In the repository's JSON style, so `biome check .` in `npm test` passes on the rewritten file.
    const biome = spawnSync(join(root, "node_modules/.bin/biome"), ["format", "--write", listFile], {
      cwd: root,
    });
    if (biome.status !== 0) console.warn(`exports: biome format failed:\n${biome.stderr}`);
    for (const [entry, { runtime, types }] of Object.entries(current))
      console.log(`${entry}: ${runtime.length} runtime, ${types.length} type-only`);
  } else console.log(JSON.stringify(current, null, 2));
}
