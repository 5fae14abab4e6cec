// @vitest-environment jsdom
/** The API reference page shows a props table for every component part `@runboard/react` exports. */
import { readFileSync } from "node:fs";
import path from "node:path";
import * as kit from "@runboard/react";
import { expect, it } from "vitest";

const page = readFileSync(path.join(import.meta.dirname, "api-reference.mdx"), "utf8");

const isComponent = (v: unknown) =>
  typeof v === "function" || (typeof v === "object" && v !== null && "$$typeof" in v);

/** `MessageParts`, `ChatMessageList`, …, and `ApprovalCard.Root`, … for the compound components. */
function componentParts(): string[] {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(kit)) {
    if (!/^[A-Z]/.test(name)) continue;
    if (isComponent(value)) parts.push(name);
    else if (typeof value === "object" && value !== null)
      for (const [part, c] of Object.entries(value)) if (isComponent(c)) parts.push(`${name}.${part}`);
  }
  return parts;
}

it("has an ArgTypes table for every exported component part, and imports what it names", () => {
  const parts = componentParts();
  expect(parts.length).toBeGreaterThan(100);
  const tables = new Set([...page.matchAll(/<ArgTypes of=\{([\w.]+)\} \/>/g)].map((m) => m[1]));
  expect(parts.filter((p) => !tables.has(p))).toEqual([]);
  // A name the page uses but does not import would render nothing rather than fail the build.
  const imported = new Set(
    (page.match(/import \{([^}]*)\} from "@runboard\/react"/)?.[1] ?? "").split(",").map((s) => s.trim()),
  );
  const roots = new Set([...tables].map((t) => t?.split(".")[0]));
  expect([...roots].filter((r) => r && !imported.has(r))).toEqual([]);
});
