/**
 * Swapping the imports type-checks (issue 30 §2). The files in `apps/` are app code written against the
 * official hooks (`agents/react`, `@cloudflare/ai-chat/react`, `@cloudflare/think/react`): every option and
 * type argument their docs and examples use, with the official tsconfig (`agents/tsconfig`, strict). They are
 * compiled twice, unchanged: against the official packages (the control: it proves the files are right), and
 * with those three specifiers mapped to `@runboard/react` (tsconfig.runboard.json), which is all an app
 * changes when it switches. Both must compile without a single error, `@ts-expect-error` lines included (a
 * typed agent must refuse what the official typing refuses).
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../../..");

/** Source files parsed once and shared by both compilations (the `agents` declarations are large). */
const parsed = new Map<string, ts.SourceFile | undefined>();

function compile(config: string): { program: ts.Program; errors: string[] } {
  const path = join(here, config);
  const cfg = ts.getParsedCommandLineOfConfigFile(
    path,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!cfg) throw new Error(`cannot read ${config}`);
  const host = ts.createCompilerHost(cfg.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, version, onError) => {
    const key = `${typeof version === "object" ? version.languageVersion : version}:${file}`;
    if (!parsed.has(key)) parsed.set(key, read(file, version, onError));
    return parsed.get(key);
  };
  const program = ts.createProgram({ rootNames: cfg.fileNames, options: cfg.options, host });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n  ");
    if (!d.file || d.start === undefined) return `TS${d.code}: ${text}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${relative(root, d.file.fileName)}(${line + 1},${character + 1}): TS${d.code}: ${text}`;
  });
  return { program, errors };
}

/** Where `specifier`, imported by the app file `app`, resolves to under `program`'s options. */
function resolvedFrom(program: ts.Program, app: string, specifier: string): string | undefined {
  const file = join(here, "apps", app);
  if (!program.getSourceFile(file)) return undefined;
  const r = ts.resolveModuleName(specifier, file, program.getCompilerOptions(), ts.sys);
  return r.resolvedModule ? relative(root, r.resolvedModule.resolvedFileName) : undefined;
}

const SPECIFIERS = [
  ["counter.tsx", "agents/react"],
  ["chat.tsx", "@cloudflare/ai-chat/react"],
  ["think-chat.tsx", "@cloudflare/think/react"],
] as const;

describe("app code written for the official hooks", () => {
  it("compiles against the official packages (the control)", () => {
    const { program, errors } = compile("tsconfig.official.json");
    for (const [app, specifier] of SPECIFIERS)
      expect(resolvedFrom(program, app, specifier), specifier).toMatch(/node_modules\//);
    if (errors.length)
      expect.fail(`${errors.length} errors against the official packages:\n${errors.join("\n")}`);
  });

  it("compiles unchanged against @runboard/react", () => {
    const { program, errors } = compile("tsconfig.runboard.json");
    for (const [app, specifier] of SPECIFIERS)
      expect(resolvedFrom(program, app, specifier), specifier).toBe(
        "packages/react/test/drop-in-types/runboard.ts",
      );
    if (errors.length) expect.fail(`${errors.length} errors against @runboard/react:\n${errors.join("\n")}`);
  });
});
