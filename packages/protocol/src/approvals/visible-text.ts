/**
 * Text a person approves must read the way it will act. A bidi override reorders what is shown (the file name
 * "invoice" + U+202E + "exe.txt" displays as "invoicetxt.exe"), zero-width characters hide differences between
 * names, and control characters can hide or rewrite text in some renderers. Approval cards therefore show each
 * of them as a visible marker.
 */

// Bidi embeddings/overrides U+202A–U+202E, isolates U+2066–U+2069, marks U+200E, U+200F, U+061C; zero-width
// U+200B, U+200C, U+2060, U+FEFF; control characters (Cc: C0, DEL, C1) except \t and \n. The zero-width
// joiner U+200D too, except between two pictographs: there it builds one emoji (woman + ZWJ + laptop), and
// marking it would break every such emoji while hiding nothing.
const HIDDEN =
  /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B\u200C\u2060\uFEFF]|(?![\t\n])\p{Cc}|(?<!\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D|\u200D(?!\p{Extended_Pictographic})/gu;

/**
 * Replaces bidi controls, zero-width characters and control characters (other than newline and tab) with a
 * visible marker such as `⟨U+202E⟩`. For display only: data sent back to the server keeps its original text.
 */
export function revealHiddenCharacters(text: string): string {
  return text.replace(
    HIDDEN,
    (ch) => `⟨U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟩`,
  );
}
