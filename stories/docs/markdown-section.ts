/**
 * The part of a markdown document under one heading (up to the next heading of the same or a higher level),
 * so a docs page can show a README section as the README has it. Undefined when the heading is not there.
 */
export function markdownSection(markdown: string, heading: string): string | undefined {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, "").trim() === heading);
  if (start < 0) return undefined;
  const level = /^#+/.exec(lines[start] ?? "")?.[0].length ?? 1;
  const end = lines.findIndex((l, i) => i > start && new RegExp(`^#{1,${level}} `).test(l));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

/** Drops the document's first `# ` title, which the docs page gives itself. */
export function withoutTitle(markdown: string): string {
  return markdown.replace(/^# .*\n/, "");
}
