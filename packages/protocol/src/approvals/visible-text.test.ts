import { describe, expect, it } from "vitest";
import { revealHiddenCharacters } from "./visible-text.ts";

describe("revealHiddenCharacters", () => {
  it("shows a right-to-left override, so a disguised file name reads as what it is", () => {
    expect(revealHiddenCharacters("invoice\u202Eexe.txt")).toBe("invoice⟨U+202E⟩exe.txt");
  });

  it("marks every bidi embedding, override, isolate and mark", () => {
    const bidi = [
      0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c,
    ];
    for (const cp of bidi) {
      const hex = cp.toString(16).toUpperCase().padStart(4, "0");
      expect(revealHiddenCharacters(`a${String.fromCharCode(cp)}b`)).toBe(`a⟨U+${hex}⟩b`);
    }
  });

  it("marks zero-width characters", () => {
    expect(revealHiddenCharacters("pay\u200Bpal\u200C\u200D\u2060\uFEFF")).toBe(
      "pay⟨U+200B⟩pal⟨U+200C⟩⟨U+200D⟩⟨U+2060⟩⟨U+FEFF⟩",
    );
  });

  it("marks C0 and C1 control characters but keeps newline and tab", () => {
    expect(revealHiddenCharacters("a\u0000b\rc\u001Bd\u007Fe\u0085f\u009Bg")).toBe(
      "a⟨U+0000⟩b⟨U+000D⟩c⟨U+001B⟩d⟨U+007F⟩e⟨U+0085⟩f⟨U+009B⟩g",
    );
    expect(revealHiddenCharacters("line one\n\tline two")).toBe("line one\n\tline two");
  });

  it("keeps the joiner inside an emoji sequence, and marks one anywhere else", () => {
    for (const emoji of ["👩\u200D💻", "🏳\uFE0F\u200D🌈", "👩🏽\u200D💻", "👨\u200D👩\u200D👧"]) {
      expect(revealHiddenCharacters(emoji)).toBe(emoji);
    }
    expect(revealHiddenCharacters("a\u200D💻")).toBe("a⟨U+200D⟩💻");
    expect(revealHiddenCharacters("💻\u200Da")).toBe("💻⟨U+200D⟩a");
  });

  it("marks every invisible or reordering character the review found, by property not by list (issue 26 §4)", () => {
    const found = [
      0x00ad, // soft hyphen
      0x034f, // combining grapheme joiner
      0x115f, // Hangul choseong filler
      0x3164, // Hangul filler
      0xffa0, // halfwidth Hangul filler
      0x180e, // Mongolian vowel separator
      0x2062, // invisible times
      0x2800, // braille pattern blank
      0xfe0f, // variation selector 16 after a letter
      0xe0100, // variation selector 17
      0xe0041, // tag latin capital A
      0x2028, // line separator
      0x2029, // paragraph separator
      0x2061, // function application
      0x1d173, // musical symbol begin beam
      0xfff9, // interlinear annotation anchor
      0x17b4, // Khmer vowel inherent aq
      0x1160, // Hangul jungseong filler
      0x206a, // inhibit symmetric swapping
      0xe007f, // cancel tag
    ];
    for (const cp of found) {
      const hex = cp.toString(16).toUpperCase().padStart(4, "0");
      expect(revealHiddenCharacters(`a${String.fromCodePoint(cp)}b`)).toBe(`a⟨U+${hex}⟩b`);
    }
    expect(revealHiddenCharacters("x\ud800y")).toBe("x⟨U+D800⟩y");
  });

  it("keeps emoji presentation selectors, keycaps and subdivision flags whole, and marks tags hiding text", () => {
    const england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
    for (const emoji of ["❤\uFE0F", "1\uFE0F\u20E3", "☺\uFE0E", england, "🏳\uFE0F\u200D🌈"]) {
      expect(revealHiddenCharacters(emoji)).toBe(emoji);
    }
    // The black flag with tags that are no flag: the tags spell hidden text ("ok").
    expect(revealHiddenCharacters("\u{1F3F4}\u{E006F}\u{E006B}\u{E007F}")).toBe(
      "\u{1F3F4}⟨U+E006F⟩⟨U+E006B⟩⟨U+E007F⟩",
    );
  });

  it("leaves ordinary text alone: emoji, CJK, Arabic and Hebrew letters", () => {
    for (const text of [
      "Pay €250 to Zoë",
      "🚀👍🏽",
      "請求書.pdf",
      "فاتورة",
      "חשבונית",
      '{\n  "amount": 5\n}',
      "",
    ]) {
      expect(revealHiddenCharacters(text)).toBe(text);
    }
  });
});
