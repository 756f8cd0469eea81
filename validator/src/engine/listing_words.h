// What listing_text.cpp (one function per fact) and listing_scan.cpp (every fact in one pass)
// share: UTF-8 decoding, the promotional phrases by their first two bytes, the used-item words
// of a title, and the steps both make at a word start. Internal to the listing_* files.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "text.h"

namespace dq::validator::listing::detail {

// One code point of UTF-8 text at s[i]; sets *len (at least 1, even for a broken sequence).
inline uint32_t Decode(std::string_view s, size_t i, size_t* len) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    *len = 1;
    return c;
  }
  uint32_t cp;
  size_t n;
  if ((c & 0xE0) == 0xC0) {
    cp = c & 0x1F, n = 2;
  } else if ((c & 0xF0) == 0xE0) {
    cp = c & 0x0F, n = 3;
  } else if ((c & 0xF8) == 0xF0) {
    cp = c & 0x07, n = 4;
  } else {
    *len = 1;
    return 0xFFFD;
  }
  if (i + n > s.size()) {
    *len = s.size() - i;
    return 0xFFFD;
  }
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  *len = n;
  return cp;
}

enum class Case { kNone, kUpper, kLower };

// Letter case of the scripts a catalogue title is written in (Latin, Greek, Cyrillic); other
// letters and everything else have none.
inline Case CaseOf(uint32_t cp) {
  if (cp < 0x80) {
    if (cp >= 'A' && cp <= 'Z') return Case::kUpper;
    if (cp >= 'a' && cp <= 'z') return Case::kLower;
    return Case::kNone;
  }
  if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return Case::kUpper;
  if (cp >= 0xDF && cp <= 0xFF && cp != 0xF7) return Case::kLower;
  if (cp >= 0x100 && cp <= 0x17F) return (cp % 2 == 0) ? Case::kUpper : Case::kLower;
  if (cp >= 0x391 && cp <= 0x3A9) return Case::kUpper;
  if (cp >= 0x3B1 && cp <= 0x3C9) return Case::kLower;
  if (cp >= 0x400 && cp <= 0x42F) return Case::kUpper;
  if (cp >= 0x430 && cp <= 0x45F) return Case::kLower;
  return Case::kNone;
}

inline bool IsDecorative(uint32_t cp) {
  return (cp >= 0x2190 && cp <= 0x21FF) ||  // arrows
         (cp >= 0x2300 && cp <= 0x23FF) ||  // miscellaneous technical
         (cp >= 0x2460 && cp <= 0x24FF) ||  // enclosed alphanumerics
         (cp >= 0x2500 && cp <= 0x27BF) ||  // box drawing, blocks, shapes, symbols, dingbats
         (cp >= 0x2900 && cp <= 0x2BFF) ||  // arrows, mathematical and other symbols
         (cp >= 0x1F000 && cp <= 0x1FAFF);  // emoji and pictographs
}

// A character that belongs to a word: ASCII letters and digits, and every non-ASCII code point
// that is not punctuation, a symbol or a space.
inline bool IsWordChar(uint32_t cp) {
  if (cp < 0x80)
    return text::IsAsciiAlpha(static_cast<char>(cp)) || text::IsDigit(static_cast<char>(cp));
  if (cp == 0xA0 || (cp >= 0x2000 && cp <= 0x206F) || cp == 0x3000) return false;  // spaces
  if (cp >= 0xA1 && cp <= 0xBF) return false;  // Latin-1 punctuation and signs
  if (cp == 0xD7 || cp == 0xF7) return false;
  return !IsDecorative(cp) && !(cp >= 0x20A0 && cp <= 0x20CF);  // currency signs
}

inline constexpr std::string_view kPhrases[] = {
    // The channels' own examples.
    "free shipping", "free delivery", "sale",
    // The same promotions, spelled as feeds spell them.
    "free postage", "free returns", "best price", "lowest price", "cheapest", "buy now",
    "order now", "shop now", "limited time", "limited offer", "special offer", "hot deal",
    "on sale", "clearance", "discount", "% off", "best seller", "bestseller"};

// By byte, in either ASCII case: the phrases (bit j: kPhrases[j]) whose character at `at` it
// is. Most word starts begin none.
constexpr std::array<uint32_t, 256> PhrasesWith(size_t at) {
  static_assert(std::size(kPhrases) <= 32);
  std::array<uint32_t, 256> starts{};
  for (size_t j = 0; j < std::size(kPhrases); ++j) {
    const auto c = static_cast<unsigned char>(kPhrases[j][at]);
    starts[c] |= uint32_t{1} << j;
    if (c >= 'a' && c <= 'z') starts[c - 32] |= uint32_t{1} << j;
  }
  return starts;
}
inline constexpr std::array<uint32_t, 256> kByStart = PhrasesWith(0);
// The same by second character: a word start is compared only with the phrases whose first two
// characters it has (every phrase has at least four).
inline constexpr std::array<uint32_t, 256> kBySecond = PhrasesWith(1);

// The phrases that may start at s[i]: its first two bytes begin them.
inline uint32_t PhraseCandidates(std::string_view s, size_t i) {
  return kByStart[static_cast<unsigned char>(s[i])] &
         (i + 1 < s.size() ? kBySecond[static_cast<unsigned char>(s[i + 1])] : 0);
}

// By byte: an ASCII letter or digit (a word byte of the phrase and link scans).
constexpr std::array<bool, 256> WordBytes() {
  std::array<bool, 256> bytes{};
  for (int c = 0; c < 256; ++c) {
    bytes[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
  return bytes;
}
inline constexpr std::array<bool, 256> kWordBytes = WordBytes();

// The promotional phrase of kPhrases that starts at s[i] (one of `candidates`, by
// PhraseCandidates), as written there, or empty.
std::string_view PhraseAt(std::string_view s, size_t i, uint32_t candidates, bool in_title);

// The price at s[i] (a currency sign, $ £ ¥ €, before a digit), or empty; *len is the length of
// the character at s[i].
std::string_view PriceAt(std::string_view s, size_t i, size_t* len);

// The symbols that are gimmicky when repeated ("$$", "!!"); with '!', '?' and '*', every ASCII
// byte the gimmick scans look at.
inline constexpr std::string_view kRepeatSymbols = "!?*$#@~^+=%&|<>_";
constexpr std::array<bool, 256> RepeatSymbols() {
  std::array<bool, 256> bytes{};
  for (char c : kRepeatSymbols) bytes[static_cast<unsigned char>(c)] = true;
  return bytes;
}
inline constexpr std::array<bool, 256> kRepeatSymbol = RepeatSymbols();
inline bool IsSymbolForRepeat(char c) { return kRepeatSymbol[static_cast<unsigned char>(c)]; }

// A word of a title: where it starts and how many bytes it has (RepeatedWord).
struct Word {
  uint16_t begin, size;
};
// RepeatedWord's answer from the title's words (at most 64, in order).
std::string_view RepeatedAmong(std::string_view s, const Word* words, size_t n);

// The words of a title that say the item is not new, and the first place of each found so far.
inline constexpr std::string_view kUsedWords[] = {"refurbished", "renewed",     "pre-owned",
                                                  "preowned",    "second-hand", "secondhand"};
struct UsedWordPlaces {
  size_t first[std::size(kUsedWords)] = {SIZE_MAX, SIZE_MAX, SIZE_MAX,
                                         SIZE_MAX, SIZE_MAX, SIZE_MAX};
  size_t found = 0;
  bool done() const { return found == std::size(kUsedWords); }
  // Notes the used words that start at title[at], a word start (title[at - 1] is no ASCII
  // letter) whose byte is 'r', 'p' or 's' in either case.
  void NoteAt(std::string_view title, size_t at);
  // The first word of kUsedWords found, at its first place, or empty.
  std::string_view First(std::string_view title) const;
};

}  // namespace dq::validator::listing::detail
