#!/usr/bin/env node
/**
 * Fails when a documentation link points nowhere. Checked:
 *
 * - in every Storybook MDX page (stories/**\/*.mdx): each `?path=/docs/<id>` and `?path=/story/<id>` names an
 *   entry of the built Storybook's index (storybook-static/index.json, so run it after `npm run
 *   build-storybook`), and a `#anchor` after a docs id is a heading of that page (its own headings and those
 *   of the markdown files it imports with `?raw`);
 * - every `?raw` import of an MDX page resolves to a file;
 * - in the repository's markdown (README.md, docs/*.md, the package READMEs, CHANGELOG.md, stories and
 *   .storybook READMEs): each relative link names an existing file, and its `#anchor` a heading (or an
 *   `<a id>`) of that file.
 *
 * Usage: node scripts/check-docs-links.mjs [--root <dir>] [--index <storybook index.json>]
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** GitHub's and Storybook's heading anchor: lower case, punctuation dropped, spaces to dashes. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[`*_~[\]()]/g, "")
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a markdown text defines: heading slugs and explicit `<a id="…">`. */
export function anchorsOf(markdown) {
  const out = new Set();
  let fence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h?.[1]) out.add(slug(h[1]));
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  }
  return out;
}

function walk(dir, keep, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, keep, out);
    else if (keep(p)) out.push(p);
  }
  return out;
}

/** Markdown links outside code: `[text](target)`, `target` without a scheme. */
function linksOf(markdown) {
  const out = [];
  let fence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const text = line.replace(/`[^`]*`/g, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) out.push(m[1]);
  }
  return out;
}

/** Every broken link under `root`, as "file: target (why)". */
export function findBrokenLinks(root, indexPath = join(root, "storybook-static/index.json")) {
  const broken = [];
  const entries = JSON.parse(readFileSync(indexPath, "utf8")).entries;
  const mdxFiles = walk(join(root, "stories"), (p) => p.endsWith(".mdx"));
  const pageAnchors = new Map();
  for (const file of mdxFiles) {
    const src = readFileSync(file, "utf8");
    const anchors = anchorsOf(src);
    for (const m of src.matchAll(/from\s+"([^"]+)\?raw"/g)) {
      const target = resolve(dirname(file), m[1]);
      if (!existsSync(target)) {
        broken.push(`${relative(root, file)}: ${m[1]}?raw (no such file)`);
        continue;
      }
      if (target.endsWith(".md")) for (const a of anchorsOf(readFileSync(target, "utf8"))) anchors.add(a);
    }
    pageAnchors.set(resolve(file), anchors);
  }
  const anchorsOfEntry = (entry) => pageAnchors.get(resolve(root, entry.importPath)) ?? new Set();
  for (const file of mdxFiles) {
    const src = readFileSync(file, "utf8");
    for (const m of src.matchAll(/\?path=\/(docs|story)\/([\w-]+)(?:#([\w-]+))?/g)) {
      const [, kind, id, anchor] = m;
      const entry = entries[id];
      const where = `${relative(root, file)}: ?path=/${kind}/${id}${anchor ? `#${anchor}` : ""}`;
      if (!entry || (kind === "docs") !== (entry.type === "docs"))
        broken.push(`${where} (no such ${kind} entry)`);
      else if (anchor && !anchorsOfEntry(entry).has(anchor)) broken.push(`${where} (no such heading)`);
    }
  }
  const markdownFiles = [
    "README.md",
    "CHANGELOG.md",
    "packages/protocol/README.md",
    "packages/client/README.md",
    "packages/react/README.md",
    "mock-server/README.md",
    "stories/README.md",
    ".storybook/README.md",
    ...walk(join(root, "docs"), (p) => p.endsWith(".md")).map((p) => relative(root, p)),
  ]
    .map((p) => join(root, p))
    .filter((p) => existsSync(p));
  for (const file of markdownFiles) {
    for (const target of linksOf(readFileSync(file, "utf8"))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("?")) continue;
      const [path, anchor] = target.split("#");
      const dest = path ? resolve(dirname(file), path) : file;
      const where = `${relative(root, file)}: ${target}`;
      if (!existsSync(dest)) broken.push(`${where} (no such file)`);
      else if (anchor && dest.endsWith(".md") && !anchorsOf(readFileSync(dest, "utf8")).has(anchor))
        broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i < 0 ? undefined : process.argv[i + 1];
  };
  const root = resolve(arg("--root") ?? ".");
  const broken = findBrokenLinks(root, arg("--index") ?? join(root, "storybook-static/index.json"));
  if (broken.length > 0) {
    console.error(
      `Broken documentation links (${broken.length}):\n${broken.map((b) => `  ${b}`).join("\n")}`,
    );
    process.exit(1);
  }
  console.log("docs links: every internal link resolves");
}
