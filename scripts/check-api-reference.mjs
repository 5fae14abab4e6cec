#!/usr/bin/env node
/**
 * Fails when a part on the API reference page has no props table. Opens the built page
 * (storybook-static, so run it after `npm run build-storybook`) in headless Chromium and reads, under each
 * heading, the table Storybook drew for `<ArgTypes of={…} />`, or its "has no controls" notice: the notice is
 * what a part gets when the docgen found no props for it (a namespace part or a factory-made one it could
 * not attach its table to, see .storybook/main.ts). Prints the rows that have no description.
 *
 * Usage: node scripts/check-api-reference.mjs [--dir storybook-static]
 */
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve } from "node:path";
import { chromium } from "playwright-core";

const root = resolve(import.meta.dirname, "..");
const dirArg = process.argv.indexOf("--dir");
const dir = resolve(dirArg > 0 ? (process.argv[dirArg + 1] ?? "") : join(root, "storybook-static"));
if (!existsSync(join(dir, "iframe.html"))) {
  console.error(`check-api-reference: no built Storybook in ${dir}; run npm run build-storybook first`);
  process.exit(1);
}
const page = readFileSync(join(root, "stories/docs/api-reference.mdx"), "utf8");
const expected = [...page.matchAll(/<ArgTypes of=\{([\w.]+)\} \/>/g)].map((m) => m[1]);

const types = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
  ".png": "image/png",
};
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(
    /^(\.\.[/\\])+/,
    "",
  );
  const file = join(dir, path);
  if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
  createReadStream(file).pipe(res);
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
let failed = false;
try {
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${port}/iframe.html?viewMode=docs&id=docs-api-reference--docs`);
  // Every ArgTypes block has drawn its table or its notice (bounded only against a hang).
  await tab.waitForFunction(
    (n) =>
      document.querySelectorAll("table.docblock-argstable").length +
        [...document.querySelectorAll("h3, h2, div")].filter(
          (e) =>
            e.tagName === "DIV" && e.children.length === 0 && /has no controls/i.test(e.textContent ?? ""),
        ).length >=
      n,
    expected.length,
    { timeout: 120_000 },
  );
  const sections = await tab.evaluate(() =>
    [...document.querySelectorAll("h2, h3")].map((h) => {
      let rows = 0;
      let table = false;
      let none = false;
      const undescribed = [];
      for (let n = h.nextElementSibling; n && !/^H[23]$/.test(n.tagName); n = n.nextElementSibling) {
        if (/has no controls/i.test(n.textContent ?? "")) none = true;
        const t = n.matches("table.docblock-argstable") ? n : n.querySelector("table.docblock-argstable");
        if (!t) continue;
        table = true;
        for (const tr of t.querySelectorAll("tbody tr")) {
          rows++;
          const described = (tr.children[1]?.firstElementChild?.textContent ?? "").trim();
          if (!described) undescribed.push((tr.children[0]?.textContent ?? "").replace(/\*$/, "").trim());
        }
      }
      return { name: (h.textContent ?? "").trim(), table, none, rows, undescribed };
    }),
  );
  const byName = new Map(sections.map((s) => [s.name, s]));
  const missing = expected.filter((p) => {
    const s = byName.get(p);
    return !s || s.none || !s.table || s.rows === 0;
  });
  for (const s of sections)
    if (s.undescribed.length)
      console.warn(`check-api-reference: ${s.name}: no description for ${s.undescribed.join(", ")}`);
  if (missing.length) {
    failed = true;
    console.error(`check-api-reference: no props table for ${missing.length} part(s): ${missing.join(", ")}`);
  } else console.log(`check-api-reference: ${expected.length} parts, each with a props table`);
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
