/**
 * Text a person approves must read the way it will act. A bidi override reorders what is shown (the file name
 * "invoice" + U+202E + "exe.txt" displays as "invoicetxt.exe"), invisible characters hide differences between
 * names ("pay" + soft hyphen + "pal"), and control characters can hide or rewrite text in some renderers.
 * Approval cards and tool inputs therefore show each of them as a visible marker.
 *
 * Marked: every code point Unicode says a renderer may draw as nothing (`Default_Ignorable_Code_Point`: soft
 * hyphen, combining grapheme joiner, Hangul fillers, variation selectors, tag characters, invisible operators,
 * …), every format character (`Cf`: bidi controls, zero-width characters, …), control characters (`Cc`) except
 * tab and newline, lone surrogates, and three more that draw as blank or break lines without being either: the
 * line and paragraph separators U+2028/U+2029 and the braille blank U+2800 (issue 26 §4: a fixed list missed 12
 * of 20 such characters). Properties, not a list, so a character added to Unicode is covered by the engine.
 *
 * Kept where they build one emoji, since marking them there breaks the emoji and hides nothing: the joiner
 * between pictographs (woman + ZWJ + laptop), a presentation selector right after an emoji (❤️, the keycap
 * 1️⃣), and the tag sequences of the three subdivision flags (England, Scotland, Wales).
 */

/** A pictograph with its optional presentation selector or skin tone. */
const PICTO = String.raw`\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?`;
/** 🏴 + the tag letters of gbeng, gbsct or gbwls + cancel tag. */
const SUBDIVISION_FLAG = String.raw`\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}`;
const KEEP = String.raw`${PICTO}(?:\u200D${PICTO})+|\p{Emoji}[\uFE0E\uFE0F]\u20E3?|${SUBDIVISION_FLAG}`;
const HIDDEN = String.raw`\p{Default_Ignorable_Code_Point}|\p{Cf}|(?![\t\n])\p{Cc}|\p{Cs}|[\u2028\u2029\u2800]`;
const PATTERN = new RegExp(`(${KEEP})|${HIDDEN}`, "gu");

/**
 * Replaces every invisible, format or control character (other than newline and tab) with a visible marker
 * such as `⟨U+202E⟩`. For display only: data sent back to the server keeps its original text.
 */
export function revealHiddenCharacters(text: string): string {
  return text.replace(
    PATTERN,
    (ch, keep: string | undefined) =>
      keep ?? `⟨U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟩`,
  );
}
