#!/usr/bin/env node
/**
 * Repository hygiene checks. Fails with a list of findings when any of these hold:
 *
 * - an import cycle among the published source modules (packages/*\/src, mock-server/src; tests, stories and
 *   build output excluded), following relative imports;
 * - a published source file over 600 lines;
 * - an exported symbol of a published source file without a TSDoc comment directly before it (or before the
 *   declaration an `export { x }` names); re-exports from another module and index.ts barrels are exempt;
 * - a file anywhere in the repository (not dependencies or build output) that cites a document outside it;
 * - byte-identical tracked files (empty files, lockfiles and the licence each published package carries aside).
 *
 * Usage: node scripts/check-hygiene.mjs [--root <dir>] [--only cycles,lines,tsdoc,citations,duplicates]
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

/** Longest a published source file may be. */
export const MAX_LINES = 600;

/** Strings that cite a document outside the repository (case-insensitive). */
export const OUTSIDE_CITATIONS = [
  "reference \u00a7",
  "../shared",
  "/work/shared",
  "cloudflare-agents-protocol.md",
  "reference/real-server.md",
];

/** Files whose job is to name those strings: the citation rewriter, its map, and this check with its test. */
const CITATION_TOOLS = new Set([
  "scripts/check-hygiene.mjs",
  "scripts/check-hygiene.test.ts",
  "scripts/replace-citations.mjs",
  "docs/citation-map.json",
]);

const LOCKFILES = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lockb",
]);
/** Every published package must ship its own licence text, so identical copies of it are expected. */
const LICENCES = /^(LICEN[CS]E|COPYING)(\.(md|txt))?$/i;
const SOURCE_EXT = /\.(ts|tsx|mts)$/;
/** Test, story and type-test files, and folders that only hold test material. */
const NOT_PUBLISHED =
  /(\.test\.|\.test-d\.|\.stories\.|\.d\.ts$)|(^|\/)(test|tests|__tests__|__screenshots__|fixtures|dist)\//;

const toPosix = (p) => p.split(sep).join("/");

function walk(dir, out) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** Published source files under `root`, repository-relative: packages/*\/src and mock-server/src. */
export function sourceFiles(root) {
  const dirs = [join(root, "mock-server/src")];
  const packages = join(root, "packages");
  if (existsSync(packages))
    for (const p of readdirSync(packages, { withFileTypes: true }))
      if (p.isDirectory()) dirs.push(join(packages, p.name, "src"));
  return dirs
    .flatMap((d) => walk(d, []))
    .map((f) => toPosix(relative(root, f)))
    .filter((f) => SOURCE_EXT.test(f) && !NOT_PUBLISHED.test(f))
    .sort();
}

/** Files git tracks under `root`; with `untracked`, also new files it would track (ignored ones never). */
export function repoFiles(root, { untracked = false } = {}) {
  const args = ["ls-files", "-z", "--cached", ...(untracked ? ["--others", "--exclude-standard"] : [])];
  const listed = execFileSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
  return [...new Set(listed.split("\0").filter(Boolean))]
    .filter((f) => !/(^|\/)(node_modules|dist)\//.test(f))
    .sort();
}

function parse(root, file) {
  const text = readFileSync(join(root, file), "utf8");
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** The module a relative specifier names, among `known` files, or undefined. */
function resolveImport(from, spec, known) {
  const base = toPosix(join(dirname(from), spec));
  const stem = base.replace(/\.(m?js|jsx)$/, "");
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${base}/index.ts`,
    `${base}/index.tsx`,
  ];
  return candidates.find((c) => known.has(c));
}

/** Relative static imports and re-exports of each file, to other files of the set. */
export function importGraph(root, files) {
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const edges = new Set();
    for (const st of parse(root, file).statements) {
      const spec =
        (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) &&
        st.moduleSpecifier &&
        ts.isStringLiteral(st.moduleSpecifier)
          ? st.moduleSpecifier.text
          : undefined;
      if (!spec?.startsWith(".")) continue;
      const target = resolveImport(file, spec, known);
      if (target) edges.add(target);
    }
    graph.set(file, [...edges].sort());
  }
  return graph;
}

/** Strongly connected components (Tarjan), each sorted; only those that hold a cycle. */
function cyclicComponents(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) !== idx.get(v)) return;
    const comp = [];
    for (let w = stack.pop(); ; w = stack.pop()) {
      onStack.delete(w);
      comp.push(w);
      if (w === v) break;
    }
    if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/** The shortest cycle through `start` inside `members`, as a path that ends where it starts. */
function shortestCycle(graph, start, members) {
  const prev = new Map();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i];
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0]));
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return undefined;
}

/**
 * Import cycles among `files`: for every module caught in one, the shortest cycle through it, each distinct
 * cycle once, written as the path of files from its alphabetically first file back to that file.
 */
export function findImportCycles(root, files) {
  const graph = importGraph(root, files);
  const seen = new Set();
  const cycles = [];
  for (const comp of cyclicComponents(graph)) {
    const members = new Set(comp);
    for (const start of comp) {
      const path = shortestCycle(graph, start, members);
      if (!path) continue;
      // The same cycle seen from another of its modules: compare it rotated to start at its smallest file.
      const ring = path.slice(0, -1);
      const at = ring.indexOf([...ring].sort()[0]);
      const rotated = [...ring.slice(at), ...ring.slice(0, at)];
      const key = rotated.join(" -> ");
      if (seen.has(key)) continue;
      seen.add(key);
      cycles.push([...rotated, rotated[0]]);
    }
  }
  return cycles;
}

/** Files of `files` longer than `max` lines. */
export function findLongFiles(root, files, max = MAX_LINES) {
  const out = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const lines = text.length === 0 ? 0 : text.replace(/\n$/, "").split("\n").length;
    if (lines > max) out.push({ file, lines });
  }
  return out;
}

const hasExport = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;

/** True when the comment right before `node` (nothing between them but whitespace) is a `/** … *\/` block. */
function hasTsdoc(node, text) {
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  const last = ranges.at(-1);
  if (!last || last.kind !== ts.SyntaxKind.MultiLineCommentTrivia) return false;
  const comment = text.slice(last.pos, last.end);
  return comment.startsWith("/**") && comment !== "/**/";
}

function boundNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : boundNames(e.name)));
}

/** Names a top-level statement declares, whether or not it exports them. */
function declaredNames(st) {
  if (ts.isVariableStatement(st)) return st.declarationList.declarations.flatMap((d) => boundNames(d.name));
  if (
    (ts.isFunctionDeclaration(st) ||
      ts.isClassDeclaration(st) ||
      ts.isInterfaceDeclaration(st) ||
      ts.isTypeAliasDeclaration(st) ||
      ts.isEnumDeclaration(st) ||
      ts.isModuleDeclaration(st)) &&
    st.name &&
    ts.isIdentifier(st.name)
  )
    return [st.name.text];
  return [];
}

/** Names an import statement binds: re-exporting them is a re-export, documented where they are declared. */
function importedNames(st) {
  const clause = st.importClause;
  if (!clause) return [];
  const names = clause.name ? [clause.name.text] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
  if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) names.push(el.name.text);
  return names;
}

/** Exported symbols of one parsed file that lack a TSDoc comment. */
export function undocumentedExports(source) {
  const text = source.text;
  const out = [];
  const line = (node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const declarations = new Map();
  const imported = new Set();
  for (const st of source.statements) {
    if (ts.isImportDeclaration(st)) for (const n of importedNames(st)) imported.add(n);
    for (const n of declaredNames(st)) if (!declarations.has(n)) declarations.set(n, st);
  }
  const overloadsSeen = new Set();
  for (const st of source.statements) {
    if (ts.isExportDeclaration(st)) {
      // `export … from "…"` re-exports a symbol checked in its own module.
      if (st.moduleSpecifier || !st.exportClause || !ts.isNamedExports(st.exportClause)) continue;
      for (const el of st.exportClause.elements) {
        const local = (el.propertyName ?? el.name).text;
        if (imported.has(local)) continue;
        const decl = declarations.get(local);
        if (hasTsdoc(st, text) || (decl && hasTsdoc(decl, text))) continue;
        out.push({ name: el.name.text, line: line(el) });
      }
      continue;
    }
    if (ts.isExportAssignment(st)) {
      if (!hasTsdoc(st, text)) out.push({ name: "default", line: line(st) });
      continue;
    }
    if (!hasExport(st)) continue;
    const names = declaredNames(st);
    if (ts.isFunctionDeclaration(st) && names[0]) {
      // Overloads are one symbol: the first signature carries the doc.
      if (overloadsSeen.has(names[0])) continue;
      overloadsSeen.add(names[0]);
    }
    if (hasTsdoc(st, text)) continue;
    const isDefault = st.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    for (const name of names.length ? names : isDefault ? ["default"] : [])
      out.push({ name, line: line(st) });
  }
  return out;
}

/** Exported symbols without a TSDoc comment in `files`; index.ts barrels are exempt. */
export function findUndocumentedExports(root, files) {
  const out = [];
  for (const file of files) {
    if (/(^|\/)index\.(ts|tsx|mts)$/.test(file)) continue;
    for (const found of undocumentedExports(parse(root, file))) out.push({ file, ...found });
  }
  return out;
}

/** Lines of text files in `files` that cite a document outside the repository. */
export function findOutsideCitations(root, files) {
  const needles = OUTSIDE_CITATIONS.map((s) => s.toLowerCase());
  const out = [];
  for (const file of files) {
    if (CITATION_TOOLS.has(file)) continue;
    let buf;
    try {
      buf = readFileSync(join(root, file));
    } catch {
      continue; // listed but deleted in the work tree
    }
    if (buf.subarray(0, 8000).includes(0)) continue; // binary
    const lower = buf.toString("utf8").toLowerCase();
    if (!needles.some((n) => lower.includes(n))) continue;
    const lines = buf.toString("utf8").split("\n");
    lines.forEach((text, i) => {
      const l = text.toLowerCase();
      const hit = needles.find((n) => l.includes(n));
      if (hit)
        out.push({ file, line: i + 1, cites: OUTSIDE_CITATIONS[needles.indexOf(hit)], text: text.trim() });
    });
  }
  return out;
}

/** Groups of byte-identical files among `files`, ignoring empty files, lockfiles and licence copies. */
export function findDuplicateFiles(root, files) {
  const bySize = new Map();
  for (const file of files) {
    if (LOCKFILES.has(basename(file)) || LICENCES.test(basename(file))) continue;
    let size;
    try {
      const st = statSync(join(root, file));
      if (!st.isFile()) continue;
      size = st.size;
    } catch {
      continue;
    }
    if (size === 0) continue;
    bySize.set(size, [...(bySize.get(size) ?? []), file]);
  }
  const groups = new Map();
  for (const same of bySize.values()) {
    if (same.length < 2) continue;
    for (const file of same) {
      const hash = createHash("sha256")
        .update(readFileSync(join(root, file)))
        .digest("hex");
      groups.set(hash, [...(groups.get(hash) ?? []), file]);
    }
  }
  return [...groups.values()].filter((g) => g.length > 1).map((g) => g.sort());
}

/** Every check by its command-line name: what it looks at, how to find, and how to print one finding. */
const CHECKS = {
  cycles: {
    title: "import cycles",
    run: (root, src) => findImportCycles(root, src),
    show: (c) => c.join(" -> "),
  },
  lines: {
    title: `source files over ${MAX_LINES} lines`,
    run: (root, src) => findLongFiles(root, src),
    show: (f) => `${f.file}: ${f.lines} lines`,
  },
  tsdoc: {
    title: "exports without TSDoc",
    run: (root, src) => findUndocumentedExports(root, src),
    show: (f) => `${f.file}:${f.line}: ${f.name}`,
  },
  citations: {
    title: "citations of documents outside the repository",
    run: (root) => findOutsideCitations(root, repoFiles(root, { untracked: true })),
    show: (f) => `${f.file}:${f.line}: ${f.cites} — ${f.text.slice(0, 120)}`,
  },
  duplicates: {
    title: "byte-identical tracked files",
    run: (root) => findDuplicateFiles(root, repoFiles(root)),
    show: (g) => g.join(" = "),
  },
};

/** Runs the checks named in `only` (all by default); returns each one's findings. */
export function runChecks(root, only = Object.keys(CHECKS)) {
  const src = sourceFiles(root);
  return Object.fromEntries(only.map((name) => [name, CHECKS[name].run(root, src)]));
}

function main(argv) {
  const rootAt = argv.indexOf("--root");
  const root = resolve(rootAt >= 0 ? argv[rootAt + 1] : process.cwd());
  const onlyAt = argv.indexOf("--only");
  const only = onlyAt >= 0 ? argv[onlyAt + 1].split(",") : Object.keys(CHECKS);
  const unknown = only.filter((n) => !CHECKS[n]);
  if (unknown.length) {
    console.error(`unknown check(s): ${unknown.join(", ")}; known: ${Object.keys(CHECKS).join(", ")}`);
    process.exit(2);
  }
  const started = performance.now();
  const results = runChecks(root, only);
  let total = 0;
  for (const name of only) {
    const found = results[name];
    if (!found.length) continue;
    total += found.length;
    console.log(`\n${CHECKS[name].title} (${found.length}):`);
    for (const f of found) console.log(`  ${CHECKS[name].show(f)}`);
  }
  console.log(`\nhygiene summary (${Math.round(performance.now() - started)} ms):`);
  for (const name of only)
    console.log(`  ${String(results[name].length).padStart(5)}  ${CHECKS[name].title}`);
  if (total > 0) {
    console.log(`\nhygiene: ${total} finding(s)`);
    process.exit(1);
  }
  console.log("\nhygiene: clean");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main(process.argv.slice(2));
