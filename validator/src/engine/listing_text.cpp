#include "listing_text.h"

#include <algorithm>
#include <array>
#include <bit>

#include "listing_words.h"
#include "text.h"

namespace dq::validator::listing {

using detail::Case;
using detail::CaseOf;
using detail::Decode;
using detail::IsDecorative;
using detail::IsWordChar;
using detail::kWordBytes;
using detail::PhraseAt;
using detail::PriceAt;

namespace {

bool IsWordByte(char c) { return text::IsAsciiAlpha(c) || text::IsDigit(c); }

}  // namespace

const std::span<const std::string_view> kPromotionalPhrases = detail::kPhrases;

bool ExcessiveCapitals(std::string_view s) {
  // Two shouting words hold at least eight capitals, each an ASCII capital or a non-ASCII
  // letter (one lead byte each): a text with fewer such bytes cannot shout.
  size_t capitals = 0;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    capitals += (c >= 'A' && c <= 'Z') || c >= 0xC0;
  }
  if (capitals < 8) return false;
  size_t letters = 0, upper = 0, shouting_words = 0;
  size_t i = 0;
  while (i < s.size()) {
    size_t len;
    uint32_t cp = Decode(s, i, &len);
    if (!IsWordChar(cp)) {
      i += len;
      continue;
    }
    size_t w_letters = 0, w_upper = 0;
    while (i < s.size()) {
      cp = Decode(s, i, &len);
      if (!IsWordChar(cp)) break;
      const Case c = CaseOf(cp);
      if (c != Case::kNone) {
        ++w_letters;
        if (c == Case::kUpper) ++w_upper;
      }
      i += len;
    }
    if (w_letters >= 3) {
      letters += w_letters;
      upper += w_upper;
      if (w_letters >= 4 && w_upper == w_letters) ++shouting_words;
    }
  }
  return shouting_words >= 2 && upper * 5 >= letters * 4;
}

namespace detail {

std::string_view PhraseAt(std::string_view s, size_t i, uint32_t candidates, bool in_title) {
  const size_t n = s.size();
  for (uint32_t left = candidates; left != 0; left &= left - 1) {
    const std::string_view phrase = kPhrases[std::countr_zero(left)];
    if (!in_title && phrase == "sale") continue;
    const size_t m = phrase.size();
    if (i + m > n) continue;
    size_t k = 1;
    while (k < m && text::ToLower(s[i + k]) == phrase[k]) ++k;
    if (k < m) continue;
    if (kWordBytes[static_cast<unsigned char>(phrase[m - 1])] && i + m < n &&
        kWordBytes[static_cast<unsigned char>(s[i + m])]) {
      continue;
    }
    return s.substr(i, m);
  }
  return {};
}

std::string_view PriceAt(std::string_view s, size_t i, size_t* len) {
  const size_t n = s.size();
  *len = 1;
  uint32_t cp = static_cast<unsigned char>(s[i]);
  if (cp >= 0x80) cp = Decode(s, i, len);
  const bool sign = cp == '$' || cp == 0xA3 || cp == 0xA5 || cp == 0x20AC;
  if (!sign || i + *len >= n || !text::IsDigit(s[i + *len])) return {};
  size_t end = i + *len;
  while (end < n && (text::IsDigit(s[end]) || s[end] == '.' || s[end] == ',')) ++end;
  return s.substr(i, end - i);
}

}  // namespace detail

std::string_view PromotionalPhrase(std::string_view s, bool in_title) {
  // One pass: at each word start (and each '%'), only the phrases that begin with that
  // character are compared. The first match is the earliest one.
  const size_t n = s.size();
  bool after_word = false;  // s[i - 1] is a word byte
  for (size_t i = 0; i < n; ++i) {
    const auto byte = static_cast<unsigned char>(s[i]);
    // A word start (a phrase starts with a letter, or with '%') that begins some phrase.
    if (const uint32_t starts = detail::PhraseCandidates(s, i);
        starts != 0 && (!after_word || byte == '%')) {
      if (const std::string_view phrase = PhraseAt(s, i, starts, in_title); !phrase.empty()) {
        return phrase;
      }
    }
    if (kWordBytes[byte]) {
      // The rest of the word starts nothing (nor is it a currency sign): skipped.
      while (i + 1 < n && kWordBytes[static_cast<unsigned char>(s[i + 1])]) ++i;
      after_word = true;
      continue;
    }
    after_word = false;
    // Neither a title nor a currency sign's first byte ('$', or one past ASCII).
    if (!in_title || (byte < 0x80 && byte != '$')) continue;
    size_t len;
    if (const std::string_view price = PriceAt(s, i, &len); !price.empty()) return price;
    i += len - 1;
    after_word = kWordBytes[static_cast<unsigned char>(s[i])];
  }
  return {};
}

GimmickFound Gimmicks(std::string_view s, uint8_t wanted) {
  GimmickFound found;
  auto note = [&](uint8_t kind, std::string_view ch) {
    found.kinds |= kind;
    if ((kind & wanted) && found.first.empty()) found.first = ch;
  };
  for (size_t i = 0; i < s.size();) {
    const auto byte = static_cast<unsigned char>(s[i]);
    if (byte < 0x80 && !detail::kRepeatSymbol[byte]) {  // letters, digits, spaces, most punctuation
      ++i;
      continue;
    }
    size_t len;
    const uint32_t cp = Decode(s, i, &len);
    const std::string_view ch = s.substr(i, len);
    if (cp == '!') note(kExclamation, ch);
    if (cp == '?') note(kQuestionMark, ch);
    if (cp == '*') note(kAsterisk, ch);
    if (cp < 0x80 && detail::IsSymbolForRepeat(static_cast<char>(cp)) && i + 1 < s.size() &&
        s[i + 1] == s[i]) {
      note(kRepeatedSymbol, s.substr(i, 2));
    }
    if (IsDecorative(cp)) note(kDecorative, ch);
    i += len;
  }
  return found;
}

std::string_view RepeatedWord(std::string_view s) {
  std::array<detail::Word, 64> words;
  size_t n = 0;
  for (size_t i = 0; i < s.size() && n < words.size() && i < 0xFFFF;) {
    if (!text::IsAsciiAlpha(s[i])) {
      ++i;
      continue;
    }
    const size_t b = i;
    while (i < s.size() && (text::IsAsciiAlpha(s[i]) || static_cast<unsigned char>(s[i]) >= 0x80))
      ++i;
    if (i - b < 0xFFFF) words[n++] = {static_cast<uint16_t>(b), static_cast<uint16_t>(i - b)};
  }
  return detail::RepeatedAmong(s, words.data(), n);
}

namespace {

// A mark that ends one part of a title and starts the next (a name in quotes, then "- Color
// Blue"; "Brand | Model"): a word on each side of it is not written twice in a row.
bool IsTitlePartSeparator(char c) {
  return std::string_view("-|/:;\"()[]").find(c) != std::string_view::npos;
}

}  // namespace

namespace detail {

std::string_view RepeatedAmong(std::string_view s, const Word* words, size_t n) {
  // A word twice in a row has the size of the next one; a word three times, the size of two
  // others: a title where no size comes so (most) repeats nothing.
  {
    bool maybe = false;
    uint8_t of_size[64] = {};
    for (size_t a = 0; a < n && !maybe; ++a) {
      const size_t size = words[a].size;
      maybe = (++of_size[std::min<size_t>(size, 63)] >= 3 && size >= 3) ||
              (a + 1 < n && size >= 2 && words[a + 1].size == size);
    }
    if (!maybe) return {};
  }
  auto same = [&](const Word& a, const Word& b) {
    if (a.size != b.size) return false;
    for (size_t k = 0; k < a.size; ++k) {
      if (text::ToLower(s[a.begin + k]) != text::ToLower(s[b.begin + k])) return false;
    }
    return true;
  };
  auto text_of = [&](const Word& w) { return s.substr(w.begin, w.size); };
  auto is_small_word = [&](const Word& w) {
    if (w.size != 3 && w.size != 4) return false;
    static constexpr std::string_view kStop[] = {"and", "for", "the", "with"};
    for (std::string_view stop : kStop) {
      if (w.size != stop.size()) continue;
      bool eq = true;
      for (size_t k = 0; k < w.size && eq; ++k) eq = text::ToLower(s[w.begin + k]) == stop[k];
      if (eq) return true;
    }
    return false;
  };
  for (size_t a = 0; a < n; ++a) {
    // Twice in a row: the next word starts after only spaces or punctuation, not a digit, and
    // not a mark that separates the parts of a title ("Mug \"Good Morning\" - Morning Blue":
    // the name, then an attribute).
    if (a + 1 < n && words[a].size >= 2 && same(words[a], words[a + 1])) {
      bool adjacent = true;
      for (size_t k = words[a].begin + words[a].size; k < words[a + 1].begin; ++k) {
        if (text::IsDigit(s[k]) || static_cast<unsigned char>(s[k]) >= 0x80 ||
            IsTitlePartSeparator(s[k])) {
          adjacent = false;
        }
      }
      if (adjacent) return text_of(words[a]);
    }
    if (words[a].size < 3 || is_small_word(words[a])) continue;
    size_t count = 1;
    for (size_t b = a + 1; b < n; ++b) count += same(words[a], words[b]);
    if (count >= 3) return text_of(words[a]);
  }
  return {};
}

void UsedWordPlaces::NoteAt(std::string_view title, size_t at) {
  const char c = text::ToLower(title[at]);
  for (size_t j = 0; j < std::size(kUsedWords); ++j) {
    const std::string_view w = kUsedWords[j];
    if (first[j] != SIZE_MAX || w[0] != c || at + w.size() > title.size()) continue;
    bool eq = true;
    for (size_t k = 1; k < w.size() && eq; ++k) eq = text::ToLower(title[at + k]) == w[k];
    if (!eq) continue;
    if (at + w.size() < title.size() && text::IsAsciiAlpha(title[at + w.size()])) continue;
    first[j] = at;
    ++found;
  }
}

std::string_view UsedWordPlaces::First(std::string_view title) const {
  for (size_t j = 0; j < std::size(kUsedWords); ++j) {
    if (first[j] != SIZE_MAX) return title.substr(first[j], kUsedWords[j].size());
  }
  return {};
}

}  // namespace detail

std::string_view UsedWord(std::string_view title) {
  // One pass over the title's word starts ('r', 'p' or 's' after no letter), noting each word's
  // first place.
  detail::UsedWordPlaces places;
  for (size_t at = 0; at < title.size() && !places.done(); ++at) {
    const char c = text::ToLower(title[at]);
    if ((c != 'r' && c != 'p' && c != 's') || (at > 0 && text::IsAsciiAlpha(title[at - 1]))) {
      continue;
    }
    places.NoteAt(title, at);
  }
  return places.First(title);
}

Html FindHtml(std::string_view s) {
  Html h;
  // The next '<' and '&' at or after i (npos: none), found by memchr: the bytes between them
  // are no markup.
  size_t lt = s.find('<'), amp = s.find('&');
  for (size_t i = 0; i < s.size(); ++i) {
    if (lt < i) lt = s.find('<', i);
    if (amp < i) amp = s.find('&', i);
    i = std::min(lt, amp);
    if (i >= s.size()) break;
    if (s[i] == '<' && (h.first_tag.empty() || h.unsafe.empty())) {
      size_t k = i + 1;
      if (k < s.size() && s[k] == '/') ++k;
      if (k >= s.size() || !text::IsAsciiAlpha(s[k])) continue;
      const size_t name_begin = k;
      while (k < s.size() && (text::IsAsciiAlpha(s[k]) || text::IsDigit(s[k]))) ++k;
      const std::string_view name = s.substr(name_begin, k - name_begin);
      size_t close = k;
      while (close < s.size() && s[close] != '>' && s[close] != '<') ++close;
      if (close >= s.size() || s[close] != '>') continue;
      const std::string_view tag = s.substr(i, close - i + 1);
      if (h.first_tag.empty()) h.first_tag = tag;
      bool attributes = false;
      for (size_t a = k; a < close; ++a) {
        if (s[a] != ' ' && s[a] != '/' && s[a] != '\t' && s[a] != '\n' && s[a] != '\r') {
          attributes = true;
        }
      }
      bool unsafe = false;
      static constexpr std::string_view kUnsafe[] = {"script", "style",  "canvas", "iframe",
                                                     "object", "embed",  "form",   "input",
                                                     "link",   "meta"};
      // The unsafe names have 4 to 6 letters: most tags (p, br, li, strong) are none of them.
      const std::span<const std::string_view> names =
          name.size() >= 4 && name.size() <= 6 ? std::span<const std::string_view>(kUnsafe)
                                               : std::span<const std::string_view>();
      for (std::string_view u : names) {
        if (name.size() != u.size()) continue;
        bool eq = true;
        for (size_t c = 0; c < u.size() && eq; ++c) eq = text::ToLower(name[c]) == u[c];
        unsafe = unsafe || eq;
      }
      if ((attributes || unsafe) && h.unsafe.empty()) h.unsafe = tag;
      i = close;
    } else if (s[i] == '&' && h.first_entity.empty()) {
      size_t k = i + 1;
      if (k < s.size() && s[k] == '#') {
        ++k;
        const bool hex = k < s.size() && (s[k] == 'x' || s[k] == 'X');
        if (hex) ++k;
        const size_t digits = k;
        while (k < s.size() && k - digits < 8 &&
               (text::IsDigit(s[k]) ||
                (hex && ((s[k] >= 'a' && s[k] <= 'f') || (s[k] >= 'A' && s[k] <= 'F'))))) {
          ++k;
        }
        if (k == digits) continue;
      } else {
        const size_t letters = k;
        while (k < s.size() && k - letters < 32 &&
               (text::IsAsciiAlpha(s[k]) || text::IsDigit(s[k]))) {
          ++k;
        }
        if (k == letters || !text::IsAsciiAlpha(s[letters])) continue;
      }
      if (k < s.size() && s[k] == ';') h.first_entity = s.substr(i, k - i + 1);
    }
  }
  return h;
}

namespace {

// Whether s holds "://" or "www." (either case): a link has one of them, most texts neither,
// and both are found by memchr's speed.
bool MayHoldLink(std::string_view s) {
  if (s.find("://") != std::string_view::npos) return true;
  for (size_t dot = s.find('.', 3); dot != std::string_view::npos; dot = s.find('.', dot + 1)) {
    if ((s[dot - 3] | 0x20) == 'w' && (s[dot - 2] | 0x20) == 'w' && (s[dot - 1] | 0x20) == 'w') {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string_view FindLink(std::string_view s) {
  if (!MayHoldLink(s)) return {};
  bool after_word = false;  // s[i - 1] is a word byte
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool starts = !after_word && ((c | 0x20) == 'h' || (c | 0x20) == 'w');  // either case
    after_word = kWordBytes[c];
    if (!starts) continue;
    for (std::string_view prefix : {"http://", "https://", "www."}) {
      const size_t next = i + prefix.size();
      if (next >= s.size() || !IsWordByte(s[next])) continue;
      bool match = true;
      for (size_t k = 0; k < prefix.size() && match; ++k) {
        match = text::ToLower(s[i + k]) == prefix[k];
      }
      if (!match) continue;
      size_t end = next;
      while (end < s.size() && !text::IsSpace(s[end]) && s[end] != '"' && s[end] != '<' &&
             s[end] != '>') {
        ++end;
      }
      return s.substr(i, end - i);
    }
  }
  return {};
}

}  // namespace dq::validator::listing
