/**
 * The optional theme as a user installs it: shipped in the packed package under `@runboard/react/styles.css`,
 * small, and written only against the documented contract (docs/data-attributes.md), so a part's look never
 * hangs on a class name or an undocumented attribute.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const pkgDir = fileURLToPath(new URL("..", import.meta.url));
const css = readFileSync(new URL("../styles.css", import.meta.url), "utf8");
const docs = readFileSync(new URL("../../../docs/data-attributes.md", import.meta.url), "utf8");
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

/** The CSS without comments, and every `[attr op "value"]` in its selectors. */
const code = css.replace(/\/\*[\s\S]*?\*\//g, "");
const selectors = [...code.matchAll(/([^{}]+)\{/g)]
  .map((m) => (m[1] ?? "").trim())
  .filter((s) => !s.startsWith("@"));
const attributes = selectors.flatMap((s) =>
  [...s.matchAll(/\[([a-z-]+)(?:([$^*]?=)"([^"]*)")?\]/g)].map(([, name = "", op, value]) => ({
    name,
    op,
    value,
  })),
);

/** Part names documented in the tables' first column (`AgentToolRun.Title`, …). */
const documentedParts = new Set([...docs.matchAll(/^\| `([A-Za-z]+\.[A-Za-z]+)`/gm)].map((m) => m[1] ?? ""));
/** MessageParts pieces documented as `data-part` values. */
const messagePieces = new Set(
  [...(docs.split("## MessageParts")[1] ?? "").matchAll(/^\| `([a-z-]+)`/gm)].map((m) => m[1]),
);

describe("@runboard/react/styles.css", () => {
  it("ships in the packed package and resolves through the exports map, kept by bundlers", () => {
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: pkgDir,
        encoding: "utf8",
      }),
    );
    expect(packed.files.map((f: { path: string }) => f.path)).toContain("styles.css");
    expect(pkg.exports["./styles.css"]).toBe("./styles.css");
    const resolved = createRequire(import.meta.url).resolve("@runboard/react/styles.css");
    expect(readFileSync(resolved, "utf8")).toBe(css);
    // `sideEffects: false` would let a bundler drop `import "@runboard/react/styles.css"`.
    expect(pkg.sideEffects).toContain("*.css");
  });

  it("is at most 6 kB gzipped", () => {
    expect(gzipSync(css).length).toBeLessThanOrEqual(6 * 1024);
  });

  it("selects only attributes the contract documents", () => {
    const theme = new Set(["data-theme"]); // the theme's own switch, set by the app
    const undocumented = attributes
      .map((a) => a.name)
      .filter((name) => !theme.has(name) && !docs.includes(`\`${name}\``));
    expect([...new Set(undocumented)]).toEqual([]);
    expect(attributes.some((a) => a.name === "data-rb-part")).toBe(true);
  });

  it("names only documented parts, states and message pieces", () => {
    const parts = [...documentedParts];
    const wrong = attributes.filter(({ name, op, value }) => {
      if (value === undefined) return false;
      if (name === "data-rb-part") {
        if (op === "=") return !documentedParts.has(value);
        if (op === "$=") return !parts.some((p) => p.endsWith(value));
        if (op === "^=") return !parts.some((p) => p.startsWith(value));
        return true;
      }
      if (name === "data-part") return !messagePieces.has(value);
      if (name === "data-theme") return value !== "light" && value !== "dark";
      return !docs.includes(`\`${value}\``);
    });
    expect(wrong).toEqual([]);
  });

  it("has light, dark (system and data-theme), reduced-motion and forced-colors blocks", () => {
    const block = (start: string) => {
      const at = code.indexOf(start);
      expect(at, start).toBeGreaterThanOrEqual(0);
      let depth = 0;
      for (let i = code.indexOf("{", at); i < code.length; i++) {
        if (code[i] === "{") depth++;
        else if (code[i] === "}" && --depth === 0) return code.slice(at, i + 1);
      }
      return "";
    };
    const vars = (text: string) => new Set([...text.matchAll(/(--rb-color-[a-z-]+):/g)].map((m) => m[1]));
    const light = vars(block(':root,\n[data-theme="light"]'));
    expect(light.size).toBeGreaterThan(10);
    // Both ways to ask for dark redefine every colour the light block sets.
    expect(vars(block("@media (prefers-color-scheme: dark)"))).toEqual(light);
    expect(vars(block('[data-theme="dark"] {'))).toEqual(light);
    // CSS cannot share one block between a media query and a selector: the two dark palettes must not drift.
    const declarations = (text: string) => [...text.matchAll(/--rb-[a-z-]+:[^;]+;/g)].map((m) => m[0]);
    expect(declarations(block('[data-theme="dark"] {'))).toEqual(
      declarations(block("@media (prefers-color-scheme: dark)")),
    );
    expect(block("@media (prefers-reduced-motion: reduce)")).toMatch(/animation: none/);
    expect(block("@media (forced-colors: active)")).toMatch(/Highlight/);
  });
});
