// Scan() (listing_text.h): every fact the channel packs ask of a title or a description in one
// pass, word by word. It reads the text as each fact's own function (listing_text.cpp) does:
// - promotional phrases: words are runs of ASCII letters and digits, a phrase is looked for at
//   each word start and each '%'; in a title, a character past ASCII is read whole (a currency
//   sign before a digit is a price);
// - capitals: words are runs of characters that belong to words (ASCII letters and digits, and
//   most characters past ASCII), letters those of a case (detail::CaseOf);
// - repeated words: a word starts at an ASCII letter and runs on over letters and bytes past
//   ASCII; used-item words start at an ASCII letter after anything else;
// - gimmicks, HTML and links: single bytes ('!', '<', "://", ...), and decorative characters.
// A character past ASCII is decoded once, at its first byte. Where its UTF-8 is broken (a
// byte of the sequence is ASCII: the functions would read over it) the text goes to ScanEach.
// Tests compare Scan with ScanEach on texts of every kind
// (tests/unit/validator/listing_scan_test.cpp).
#include <array>
#include <cstdint>
#include <bit>
#include <cstring>

#include "listing_text.h"

#include "dq/common/utf8_sequence.h"
#include "listing_words.h"

namespace dq::validator::listing {
namespace {

// A byte's classes, from one table.
enum Class : uint8_t {
  kUpper = 1 << 0,  // A-Z (bit 0: added up as a count)
  kAlpha = 1 << 1,  // A-Z a-z
  kAlnum = 1 << 2,  // A-Z a-z 0-9
  kMark = 1 << 3,   // a byte some fact looks at between words: the gimmicks, '<', '&', '%',
                    // '$', ':' and '.'
  kHigh = 1 << 4,   // past ASCII
};

constexpr std::array<uint8_t, 256> Classes() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    if (c >= 'A' && c <= 'Z') t[c] = kUpper | kAlpha | kAlnum;
    if (c >= 'a' && c <= 'z') t[c] = kAlpha | kAlnum;
    if (c >= '0' && c <= '9') t[c] = kAlnum;
    if (c >= 0x80) t[c] = kHigh;
  }
  for (char c : detail::kRepeatSymbols) t[static_cast<unsigned char>(c)] = kMark;
  t[':'] = kMark;
  t['.'] = kMark;
  return t;
}
constexpr std::array<uint8_t, 256> kClass = Classes();

uint8_t ClassAt(std::string_view s, size_t i) { return kClass[static_cast<unsigned char>(s[i])]; }

// What the scan gathers as it goes.
struct State {
  explicit State(const ScanRequest& r)
      : phrase_open((r.facts & kPromotionalFact) != 0),
        prices(r.in_title && phrase_open),
        in_title(r.in_title),
        gimmicks((r.facts & kGimmicksFact) != 0),
        repeated((r.facts & kRepeatedFact) != 0),
        used((r.facts & kUsedWordFact) != 0),
        html((r.facts & kHtmlFact) != 0),
        link((r.facts & kLinkFact) != 0),
        wanted_gimmicks(r.wanted_gimmicks) {}

  bool phrase_open;  // promotional phrases asked for, none found yet
  const bool prices, in_title, gimmicks, repeated, used, html, link;
  const uint8_t wanted_gimmicks;
  // Capitals: letters and capitals of the words of 3+ letters, words of 4+ all in capitals.
  size_t letters = 0, upper = 0, shouting = 0;
  std::array<detail::Word, 64> words;
  size_t word_count = 0;
  detail::UsedWordPlaces used_places;
  // The capitals' word being read (it may run on over characters past ASCII).
  size_t word_letters = 0, word_upper = 0;
  bool in_word = false;
  // The repeated words' word being read (from an ASCII letter over letters and bytes past
  // ASCII).
  size_t repeat_begin = 0;
  bool in_repeat = false;
  size_t markup = SIZE_MAX;  // the first '<' or '&'
  bool may_link = false;     // "://", or "www." with the dot at 3 or later
  TextFacts facts;

  void EndWord() {
    if (word_letters >= 3) {
      letters += word_letters;
      upper += word_upper;
      if (word_letters >= 4 && word_upper == word_letters) ++shouting;
    }
    word_letters = word_upper = 0;
    in_word = false;
  }
  void EndRepeat(size_t end) {
    in_repeat = false;
    if (!repeated || word_count >= words.size() || repeat_begin >= 0xFFFF ||
        end - repeat_begin >= 0xFFFF) {
      return;
    }
    words[word_count++] = {static_cast<uint16_t>(repeat_begin),
                           static_cast<uint16_t>(end - repeat_begin)};
  }

  void Gimmick(uint8_t kind, std::string_view ch) {
    facts.gimmicks.kinds |= kind;
    if ((kind & wanted_gimmicks) && facts.gimmicks.first.empty()) facts.gimmicks.first = ch;
  }
};

constexpr uint64_t kOnes = 0x0101010101010101ULL;
constexpr uint64_t kHighBits = 0x8080808080808080ULL;

// The run of ASCII letters that starts at s[i], i + 8 <= s.size(), within the next eight bytes:
// its length (0-8), and in *upper how many of them are capitals. Eight bytes at once: bit 7 of
// each byte of `alpha` says it is a letter (ASCII only), of `caps` a capital.
size_t LetterRun8(std::string_view s, size_t i, size_t* upper) {
  uint64_t x;
  std::memcpy(&x, s.data() + i, 8);
  const uint64_t ascii = ~x & kHighBits;
  const uint64_t low7 = x & ~kHighBits;
  const uint64_t folded = low7 | (0x20 * kOnes);  // A-Z to a-z; no byte outgrows 0x7F
  const uint64_t alpha = (folded + (0x80 - 'a') * kOnes) & ~(folded + (0x80 - 'z' - 1) * kOnes) &
                         ascii;
  const uint64_t caps = (low7 + (0x80 - 'A') * kOnes) & ~(low7 + (0x80 - 'Z' - 1) * kOnes) & alpha;
  const uint64_t others = ~alpha & kHighBits;
  const size_t run = others == 0 ? 8 : static_cast<size_t>(std::countr_zero(others)) / 8;
  const uint64_t in_run = run == 8 ? ~uint64_t{0} : (uint64_t{1} << (run * 8)) - 1;
  *upper = static_cast<size_t>((((caps & in_run) >> 7) * kOnes) >> 56);
  return run;
}

// The word (a run of ASCII letters and digits) at s[i]; returns where it ends.
size_t ScanWord(std::string_view s, size_t i, State& st) {
  const size_t n = s.size();
  if (st.phrase_open) {
    if (const uint32_t candidates = detail::PhraseCandidates(s, i)) {
      if (const std::string_view p = detail::PhraseAt(s, i, candidates, st.in_title);
          !p.empty()) {
        st.facts.promotional = p;
        st.phrase_open = false;
      }
    }
  }
  size_t letters = 0, upper = 0;
  do {
    if (!(ClassAt(s, i) & kAlpha)) {  // a digit: it ends a repeated words' word
      if (st.in_repeat) st.EndRepeat(i);
      ++i;
      continue;
    }
    // A run of letters: a word of UsedWord, and of RepeatedWord unless it goes on after bytes
    // past ASCII.
    const size_t a = i;
    if (st.used && !st.used_places.done()) {
      const char lower = static_cast<char>(s[a] | 0x20);
      if (lower == 'r' || lower == 'p' || lower == 's') st.used_places.NoteAt(s, a);
    }
    size_t up = 0;
    for (;;) {
      if (i + 8 <= n) {
        size_t run_upper;
        const size_t run = LetterRun8(s, i, &run_upper);
        i += run;
        up += run_upper;
        if (run == 8) continue;
        break;
      }
      while (i < n && (ClassAt(s, i) & kAlpha)) {
        up += ClassAt(s, i) & kUpper;
        ++i;
      }
      break;
    }
    letters += i - a;
    upper += up;
    if (!st.in_repeat) st.repeat_begin = a;
    if (i < n && (ClassAt(s, i) & kHigh)) {
      st.in_repeat = true;  // the repeated words' word goes on over bytes past ASCII
    } else {
      st.EndRepeat(i);
    }
  } while (i < n && (ClassAt(s, i) & kAlnum));
  if (i < n && (ClassAt(s, i) & kHigh)) {  // the next character may belong to the word
    st.word_letters += letters;
    st.word_upper += upper;
    st.in_word = true;
  } else if (st.in_word) {
    st.word_letters += letters;
    st.word_upper += upper;
    st.EndWord();
  } else if (letters >= 3) {  // most words: all ASCII
    st.letters += letters;
    st.upper += upper;
    if (letters >= 4 && upper == letters) ++st.shouting;
  }
  return i;
}

// A mark at s[i] (kMark).
void ScanMark(std::string_view s, size_t i, State& st) {
  const size_t n = s.size();
  const char c = s[i];
  if (st.phrase_open && c == '%') {
    if (const uint32_t candidates = detail::PhraseCandidates(s, i)) {
      if (const std::string_view p = detail::PhraseAt(s, i, candidates, st.in_title);
          !p.empty()) {
        st.facts.promotional = p;
        st.phrase_open = false;
      }
    }
  }
  if (st.prices && st.phrase_open && c == '$') {
    size_t len;
    if (const std::string_view price = detail::PriceAt(s, i, &len); !price.empty()) {
      st.facts.promotional = price;
      st.phrase_open = false;
    }
  }
  if (st.gimmicks) {
    if (c == '!') st.Gimmick(kExclamation, s.substr(i, 1));
    if (c == '?') st.Gimmick(kQuestionMark, s.substr(i, 1));
    if (c == '*') st.Gimmick(kAsterisk, s.substr(i, 1));
    if (detail::IsSymbolForRepeat(c) && i + 1 < n && s[i + 1] == c) {
      st.Gimmick(kRepeatedSymbol, s.substr(i, 2));
    }
  }
  if (st.html && (c == '<' || c == '&') && st.markup == SIZE_MAX) st.markup = i;
  if (st.link && !st.may_link) {
    if (c == ':') st.may_link = i + 2 < n && s[i + 1] == '/' && s[i + 2] == '/';
    if (c == '.') {
      st.may_link = i >= 3 && (s[i - 3] | 0x20) == 'w' && (s[i - 2] | 0x20) == 'w' &&
                    (s[i - 1] | 0x20) == 'w';
    }
  }
}

// The character past ASCII at s[i] (code point cp, len bytes, all of its sequence).
void ScanCharacter(std::string_view s, size_t i, size_t len, uint32_t cp, State& st) {
  const auto lead = static_cast<unsigned char>(s[i]);
  if (st.prices && st.phrase_open && (lead == 0xC2 || lead == 0xE2)) {  // the leads of £ ¥ €
    size_t sign;
    if (const std::string_view price = detail::PriceAt(s, i, &sign); !price.empty()) {
      st.facts.promotional = price;
      st.phrase_open = false;
    }
  }
  if (st.gimmicks && detail::IsDecorative(cp)) st.Gimmick(kDecorative, s.substr(i, len));
  if (detail::IsWordChar(cp)) {
    const detail::Case c = detail::CaseOf(cp);
    st.word_letters += c != detail::Case::kNone;
    st.word_upper += c == detail::Case::kUpper;
    st.in_word = true;
  } else if (st.in_word) {
    st.EndWord();
  }
}

}  // namespace

TextFacts Scan(std::string_view s, const ScanRequest& request) {
  if (request.facts == 0) return {};
  State st(request);
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const uint8_t cls = ClassAt(s, i);
    if (cls & kAlnum) {
      i = ScanWord(s, i, st);
      continue;
    }
    if (cls & kHigh) {
      // A sequence that is not well-formed (cut short, overlong, a surrogate) sends the text to
      // the one-fact functions, whose answers are the reference.
      if (Utf8SequenceLength(s, i) == 0) return ScanEach(s, request);
      size_t len;
      const uint32_t cp = detail::Decode(s, i, &len);
      ScanCharacter(s, i, len, cp, st);
      i += len;
      // Before an ASCII byte other than a letter or digit, or at the end: the words that ran
      // on over characters past ASCII end (before a letter or digit, ScanWord goes on).
      if (i >= n || !(ClassAt(s, i) & (kAlnum | kHigh))) {
        if (st.in_word) st.EndWord();
        if (st.in_repeat) st.EndRepeat(i);
      }
      continue;
    }
    if (cls & kMark) ScanMark(s, i, st);
    ++i;
  }
  if (st.in_word) st.EndWord();
  if (st.in_repeat) st.EndRepeat(n);
  TextFacts& f = st.facts;
  if (request.facts & kCapitalsFact) f.capitals = st.shouting >= 2 && st.upper * 5 >= st.letters * 4;
  if (st.repeated) f.repeated_word = detail::RepeatedAmong(s, st.words.data(), st.word_count);
  if (st.used) f.used_word = st.used_places.First(s);
  if (st.html && st.markup != SIZE_MAX) f.html = FindHtml(s.substr(st.markup));
  if (st.link && st.may_link) f.link = FindLink(s);
  return f;
}

TextFacts ScanEach(std::string_view s, const ScanRequest& request) {
  TextFacts f;
  const uint8_t facts = request.facts;
  if (facts & kCapitalsFact) f.capitals = ExcessiveCapitals(s);
  if (facts & kPromotionalFact) f.promotional = PromotionalPhrase(s, request.in_title);
  if (facts & kGimmicksFact) f.gimmicks = Gimmicks(s, request.wanted_gimmicks);
  if (facts & kRepeatedFact) f.repeated_word = RepeatedWord(s);
  if (facts & kUsedWordFact) f.used_word = UsedWord(s);
  if (facts & kHtmlFact) f.html = FindHtml(s);
  if (facts & kLinkFact) f.link = FindLink(s);
  return f;
}

}  // namespace dq::validator::listing
