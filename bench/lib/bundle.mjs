// One way to bundle an entry for the bundle-size bench and the tree-shaking test: rolldown (the bundler vite 8
// uses), one ESM entry given as source, tree-shaken, for the browser, `process.env.NODE_ENV` = "production";
// `react`, `react-dom` and `ai` (and their subpaths) external, everything else bundled. Our packages are bundled
// from source (`packages/*/src`), so no build is needed and the figure is the checkout's.
import { gzipSync } from "node:zlib";
import { rolldown } from "rolldown";
import { repo } from "./build.mjs";

const src = (p) => `${repo}/packages/${p}`;
const external = /^(react|react-dom|ai)(\/.*)?$/;

/** Our packages by name, pointed at source. Subpaths first: a prefix alias would otherwise swallow them. */
export const SOURCE_ALIAS = {
  "@runboard/protocol/view": src("protocol/src/view.ts"),
  "@runboard/protocol/helix": src("protocol/src/helix/index.ts"),
  "@runboard/protocol": src("protocol/src/index.ts"),
  "@runboard/client/helix": src("client/src/helix/index.ts"),
  "@runboard/client": src("client/src/index.ts"),
  "@runboard/react": src("react/src/index.ts"),
};

/**
 * Bundles `code` (an ESM module, e.g. `export { useAgent } from "@runboard/react";`). Returns the chunk count,
 * and the minified and gzip -9 sizes summed over chunks: `min` / `gzip` for every chunk, `initial` for what
 * loads with the entry (the entry chunk and the chunks it imports statically; the rest is loaded by `import()`
 * when a feature is first used); `modules`: every module with code left in the initial chunks after
 * tree-shaking, as paths from the repo root, and `lazyModules` for the other chunks.
 */
export async function bundleEntry(code, { minify = true } = {}) {
  const ENTRY = "\0bench-entry";
  const bundle = await rolldown({
    input: ENTRY,
    cwd: repo,
    platform: "browser",
    external: (id) => external.test(id),
    resolve: { alias: SOURCE_ALIAS },
    transform: { define: { "process.env.NODE_ENV": '"production"' } },
    treeshake: true,
    // As an app's entry (which exports nothing anyone imports): the bundler may add exports to it, so shared
    // code a lazily loaded chunk also needs stays in the entry chunk instead of a chunk of its own (vite builds
    // an app so); the entry's own exports are still kept.
    preserveEntrySignatures: "allow-extension",
    logLevel: "silent",
    plugins: [
      {
        name: "bench-entry",
        resolveId: (id) => (id === ENTRY ? id : null),
        load: (id) => (id === ENTRY ? code : null),
      },
    ],
  });
  const { output } = await bundle.generate({ format: "esm", minify });
  await bundle.close();
  const chunks = output.filter((o) => o.type === "chunk");
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const initial = new Set();
  const visit = (c) => {
    if (!c || initial.has(c)) return;
    initial.add(c);
    for (const f of c.imports) visit(byName.get(f));
  };
  for (const c of chunks) if (c.isEntry) visit(c);
  const modulesIn = (list) =>
    list
      .flatMap((c) => Object.entries(c.modules))
      .filter(([id, m]) => m.renderedLength > 0 && id !== ENTRY)
      .map(([id]) => (id.startsWith(repo) ? id.slice(repo.length).replace(/^\//, "") : id));
  const sum = (list) => ({
    min: list.reduce((n, c) => n + Buffer.byteLength(c.code), 0),
    gzip: list.reduce((n, c) => n + gzipSync(c.code, { level: 9 }).length, 0),
  });
  return {
    chunks: chunks.length,
    ...sum(chunks),
    initial: sum([...initial]),
    modules: modulesIn([...initial]),
    lazyModules: modulesIn(chunks.filter((c) => !initial.has(c))),
  };
}

/** An entry re-exporting `names` from `from`. */
export const reexport = (names, from) => `export { ${names.join(", ")} } from ${JSON.stringify(from)};`;
