#!/usr/bin/env node
/**
 * Rewrites the code's citations of the old protocol reading (a document outside the repository) into citations
 * of docs/protocol.md, with the mapping in docs/citation-map.json: "reference §3.7 rule C" becomes
 * "docs/protocol.md#resume-handshake, rule C", "(§3.10, §4.4)" becomes
 * "(docs/protocol.md#host-differences, docs/protocol.md#approvals)". Section signs that cite an issue
 * ("issue 13 §1") are left alone. Prints every change; exits 1 when a citation it cannot map is left, or when
 * the map names an anchor docs/protocol.md lacks.
 *
 * Usage: node scripts/replace-citations.mjs [--root <dir>] [--dry-run]
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

/** Files that name the old citations on purpose: this tool, its map and the hygiene check that looks for them. */
export const TOOL_FILES = new Set([
  "scripts/replace-citations.mjs",
  "docs/citation-map.json",
  "scripts/check-hygiene.mjs",
  "scripts/check-hygiene.test.ts",
]);

/** Section number, optionally with a list item (`8.2-2`) or a lettered part (`3.4(c)`). */
const SECTION = String.raw`(\d+(?:\.\d+)?(?:-\d+)?(?:\([a-z]\))?)`;
/** Suffixes that name a rule, step or file inside a section; consumed only when `forms` knows the result. */
const SUFFIX = String.raw`( ACK rule \d+| rule [A-E]'?| step \d+| [A-E]'?(?![\w'])| gap\b| slug-parity\.test\.ts)?`;
const SIGN = "\u00a7";
/** One citation or a comma-separated list of them, with the word that introduces it. */
const CITATION = new RegExp(
  `([Rr]eference )?${SIGN}${SECTION}${SUFFIX}((?:, ${SIGN}${SECTION}${SUFFIX})*)`,
  "g",
);
const LIST_ITEM = new RegExp(`, ${SIGN}${SECTION}${SUFFIX}`, "g");
/** A section sign that belongs to an issue's own numbering. */
const ISSUE_BEFORE = /issue\s+#?\d+\s*$/i;

/** Reads the map and checks every anchor it names exists in the doc. */
export function loadMap(root) {
  const map = JSON.parse(readFileSync(join(root, "docs/citation-map.json"), "utf8"));
  const doc = readFileSync(join(root, map.doc), "utf8");
  const anchors = new Set([...doc.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));
  const named = [
    ...Object.values(map.sections),
    ...Object.values(map.forms).map((f) => f.split(",")[0]),
    ...map.phrases.flatMap((p) => [...p.to.matchAll(/protocol\.md#([\w-]+)/g)].map((m) => m[1])),
  ];
  const missing = [...new Set(named.filter((a) => !anchors.has(a)))];
  // Longest first, so a phrase that contains another one wins.
  map.phrases.sort((a, b) => b.from.length - a.from.length);
  return { map, anchors, missing };
}

/** The replacement text for one cited section with its suffix, or undefined when the map has none. */
function target(map, section, suffix) {
  const key = `${section}${suffix ?? ""}`;
  if (suffix && map.forms[key]) return { text: `${map.doc}#${map.forms[key]}`, used: suffix };
  if (map.forms[section]) return { text: `${map.doc}#${map.forms[section]}`, used: "" };
  if (map.sections[section]) return { text: `${map.doc}#${map.sections[section]}`, used: "" };
  return undefined;
}

/** Rewrites the citations in one text. Returns the new text and the unmapped citations it left. */
export function rewrite(text, map) {
  let out = text;
  for (const p of map.phrases) out = out.split(p.from).join(p.to);
  const unmapped = [];
  out = out.replace(CITATION, (...args) => {
    // The list's inner groups come after the named ones; offset and input are always the last two.
    const [whole, lead, section, suffix, rest] = args;
    const offset = args.at(-2);
    const all = args.at(-1);
    if (!lead && ISSUE_BEFORE.test(all.slice(Math.max(0, offset - 24), offset))) return whole;
    const items = [[section, suffix]];
    for (const m of (rest ?? "").matchAll(LIST_ITEM)) items.push([m[1], m[2]]);
    const parts = [];
    for (const [sec, suf] of items) {
      const t = target(map, sec, suf);
      if (!t) {
        unmapped.push(`${SIGN}${sec}${suf ?? ""}`);
        return whole;
      }
      // A suffix the map did not consume stays after the citation as prose.
      parts.push(t.text + (suf && !t.used ? suf : ""));
    }
    const intro = lead === "Reference " ? "See " : "";
    return intro + parts.join(", ");
  });
  return { text: out, unmapped };
}

/** Text files under `root` that git tracks or would track, minus dependencies, build output and the tools. */
export function candidateFiles(root) {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  return [...new Set(listed.split("\0").filter(Boolean))].filter(
    (f) => !/(^|\/)(node_modules|dist)\//.test(f) && !TOOL_FILES.has(f),
  );
}

function main(argv) {
  const rootAt = argv.indexOf("--root");
  const root = rootAt >= 0 ? argv[rootAt + 1] : process.cwd();
  const dryRun = argv.includes("--dry-run");
  const { map, missing } = loadMap(root);
  if (missing.length) {
    console.error(`citation map names anchors ${map.doc} lacks: ${missing.join(", ")}`);
    process.exit(1);
  }
  let changedFiles = 0;
  let changedLines = 0;
  const left = [];
  for (const file of candidateFiles(root)) {
    let before;
    try {
      before = readFileSync(join(root, file));
    } catch {
      continue; // listed but deleted in the work tree
    }
    if (before.includes(0)) continue; // binary
    const text = before.toString("utf8");
    if (!text.includes(SIGN) && !/real-server\.md|cloudflare-agents-protocol\.md/.test(text)) continue;
    const { text: after, unmapped } = rewrite(text, map);
    for (const u of unmapped) left.push(`${file}: ${u}`);
    if (after === text) continue;
    const a = text.split("\n");
    const b = after.split("\n");
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      changedLines++;
      console.log(`${file}:${i + 1}\n  - ${a[i].trim()}\n  + ${b[i]?.trim()}`);
    }
    changedFiles++;
    if (!dryRun) writeFileSync(join(root, file), after);
  }
  const verb = dryRun ? "would change" : "changed";
  console.log(
    `\n${verb} ${changedLines} lines in ${changedFiles} files under ${relative(process.cwd(), root) || "."}`,
  );
  if (left.length) {
    console.error(`\n${left.length} citations have no mapping (edit by hand or extend the map):`);
    for (const l of left) console.error(`  ${l}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main(process.argv.slice(2));
