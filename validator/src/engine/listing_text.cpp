#include "listing_text.h"

#include <algorithm>
#include <array>
#include <bit>

#include "text.h"

namespace dq::validator::listing {
namespace {

// One code point of UTF-8 text at s[i]; sets *len (at least 1, even for a broken sequence).
uint32_t Decode(std::string_view s, size_t i, size_t* len) {
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
Case CaseOf(uint32_t cp) {
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

bool IsDecorative(uint32_t cp) {
  return (cp >= 0x2190 && cp <= 0x21FF) ||  // arrows
         (cp >= 0x2300 && cp <= 0x23FF) ||  // miscellaneous technical
         (cp >= 0x2460 && cp <= 0x24FF) ||  // enclosed alphanumerics
         (cp >= 0x2500 && cp <= 0x27BF) ||  // box drawing, blocks, shapes, symbols, dingbats
         (cp >= 0x2900 && cp <= 0x2BFF) ||  // arrows, mathematical and other symbols
         (cp >= 0x1F000 && cp <= 0x1FAFF);  // emoji and pictographs
}

// A character that belongs to a word: ASCII letters and digits, and every non-ASCII code point
// that is not punctuation, a symbol or a space.
bool IsWordChar(uint32_t cp) {
  if (cp < 0x80)
    return text::IsAsciiAlpha(static_cast<char>(cp)) || text::IsDigit(static_cast<char>(cp));
  if (cp == 0xA0 || (cp >= 0x2000 && cp <= 0x206F) || cp == 0x3000) return false;  // spaces
  if (cp >= 0xA1 && cp <= 0xBF) return false;  // Latin-1 punctuation and signs
  if (cp == 0xD7 || cp == 0xF7) return false;
  return !IsDecorative(cp) && !(cp >= 0x20A0 && cp <= 0x20CF);  // currency signs
}

bool IsWordByte(char c) { return text::IsAsciiAlpha(c) || text::IsDigit(c); }

constexpr std::string_view kPhrases[] = {
    // The channels' own examples.
    "free shipping", "free delivery", "sale",
    // The same promotions, spelled as feeds spell them.
    "free postage", "free returns", "best price", "lowest price", "cheapest", "buy now",
    "order now", "shop now", "limited time", "limited offer", "special offer", "hot deal",
    "on sale", "clearance", "discount", "% off", "best seller", "bestseller"};

bool IsSymbolForRepeat(char c) {
  switch (c) {
    case '!':
    case '?':
    case '*':
    case '$':
    case '#':
    case '@':
    case '~':
    case '^':
    case '+':
    case '=':
    case '%':
    case '&':
    case '|':
    case '<':
    case '>':
    case '_':
      return true;
    default:
      return false;
  }
}

}  // namespace

const std::span<const std::string_view> kPromotionalPhrases = kPhrases;

namespace {

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
constexpr std::array<uint32_t, 256> kByStart = PhrasesWith(0);
// The same by second character: a word start is compared only with the phrases whose first two
// characters it has (every phrase has at least four).
constexpr std::array<uint32_t, 256> kBySecond = PhrasesWith(1);

// ASCII bytes Gimmicks() must look at: the marks and the symbols that count when repeated.
// Every other ASCII byte is no gimmick (IsDecorative is false below 0x80).
constexpr std::array<bool, 128> GimmickBytes() {
  std::array<bool, 128> bytes{};
  for (char c : std::string_view("!?*$#@~^+=%&|<>_")) bytes[static_cast<unsigned char>(c)] = true;
  return bytes;
}
constexpr std::array<bool, 128> kGimmickBytes = GimmickBytes();

// Where the URL's query or fragment starts ('?' or '#'), or url.size(). (string_view's
// find_first_of calls memchr once per byte of the URL.)
size_t QueryOrFragment(std::string_view url) {
  for (size_t i = 0; i < url.size(); ++i) {
    if (url[i] == '?' || url[i] == '#') return i;
  }
  return url.size();
}

}  // namespace

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

namespace {

// By byte: a word byte (IsWordByte) as a table, for the scans below.
constexpr std::array<bool, 256> WordBytes() {
  std::array<bool, 256> bytes{};
  for (int c = 0; c < 256; ++c) {
    bytes[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
  return bytes;
}
constexpr std::array<bool, 256> kWordBytes = WordBytes();

// The promotional phrase of kPhrases that starts at s[i] (one of `candidates`, by kByStart), as
// written there, or empty.
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

// The price at s[i] (a currency sign, $ £ ¥ €, before a digit), or empty; *len is the length of
// the character at s[i].
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

}  // namespace

std::string_view PromotionalPhrase(std::string_view s, bool in_title) {
  // One pass: at each word start (and each '%'), only the phrases that begin with that
  // character are compared. The first match is the earliest one.
  const size_t n = s.size();
  bool after_word = false;  // s[i - 1] is a word byte
  for (size_t i = 0; i < n; ++i) {
    const auto byte = static_cast<unsigned char>(s[i]);
    // A word start (a phrase starts with a letter, or with '%') that begins some phrase.
    if (const uint32_t starts =
            kByStart[byte] & (i + 1 < n ? kBySecond[static_cast<unsigned char>(s[i + 1])] : 0);
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
    if (byte < 0x80 && !kGimmickBytes[byte]) {  // letters, digits, spaces, most punctuation
      ++i;
      continue;
    }
    size_t len;
    const uint32_t cp = Decode(s, i, &len);
    const std::string_view ch = s.substr(i, len);
    if (cp == '!') note(kExclamation, ch);
    if (cp == '?') note(kQuestionMark, ch);
    if (cp == '*') note(kAsterisk, ch);
    if (cp < 0x80 && IsSymbolForRepeat(static_cast<char>(cp)) && i + 1 < s.size() &&
        s[i + 1] == s[i]) {
      note(kRepeatedSymbol, s.substr(i, 2));
    }
    if (IsDecorative(cp)) note(kDecorative, ch);
    i += len;
  }
  return found;
}

std::string_view RepeatedWord(std::string_view s) {
  struct Word {
    uint16_t begin, size;
  };
  std::array<Word, 64> words;
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
  auto same = [&](const Word& a, const Word& b) {
    if (a.size != b.size) return false;
    for (size_t k = 0; k < a.size; ++k) {
      if (text::ToLower(s[a.begin + k]) != text::ToLower(s[b.begin + k])) return false;
    }
    return true;
  };
  auto text_of = [&](const Word& w) { return s.substr(w.begin, w.size); };
  auto is_small_word = [&](const Word& w) {
    for (std::string_view stop : {"and", "for", "the", "with"}) {
      if (w.size != stop.size()) continue;
      bool eq = true;
      for (size_t k = 0; k < w.size && eq; ++k) eq = text::ToLower(s[w.begin + k]) == stop[k];
      if (eq) return true;
    }
    return false;
  };
  for (size_t a = 0; a < n; ++a) {
    // Twice in a row: the next word starts after only spaces or punctuation, not a digit.
    if (a + 1 < n && words[a].size >= 2 && same(words[a], words[a + 1])) {
      bool adjacent = true;
      for (size_t k = words[a].begin + words[a].size; k < words[a + 1].begin; ++k) {
        if (text::IsDigit(s[k]) || static_cast<unsigned char>(s[k]) >= 0x80) adjacent = false;
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

FileType FileTypeOf(std::string_view url) {
  std::string_view path = url.substr(0, QueryOrFragment(url));
  const size_t scheme = path.find("://");
  if (scheme != std::string_view::npos) {
    const size_t slash = path.find('/', scheme + 3);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash);
  }
  const size_t last = path.rfind('/');
  const std::string_view segment = last == std::string_view::npos ? path : path.substr(last + 1);
  const size_t dot = segment.rfind('.');
  FileType t;
  if (dot == std::string_view::npos) return t;
  const std::string_view ext = segment.substr(dot + 1);
  if (ext.size() < 2 || ext.size() > 5) return t;
  char low[5];
  for (size_t k = 0; k < ext.size(); ++k) {
    if (!IsWordByte(ext[k])) return t;
    low[k] = text::ToLower(ext[k]);
  }
  const std::string_view e(low, ext.size());
  t.extension = ext;
  auto any = [&](std::initializer_list<std::string_view> list) {
    for (std::string_view x : list) {
      if (e == x) return true;
    }
    return false;
  };
  if (any({"jpg", "jpeg", "png", "gif", "webp", "bmp", "tif", "tiff"})) {
    t.kind = FileKind::kImage;
  } else if (any({"svg", "avif", "heic", "heif", "ico", "jfif", "psd"})) {
    t.kind = FileKind::kOtherImage;
  } else if (any({"html", "htm", "xhtml", "shtml", "php", "pdf", "txt", "xml", "json"})) {
    t.kind = FileKind::kPage;
  } else if (any({"asp", "aspx", "ashx", "jsp", "cgi"})) {
    t.kind = FileKind::kScript;
  } else if (text::IsAllDigits(e)) {
    t = FileType{};  // "/v/1.2" or "/image.0": a version or a number, not a file type
  } else {
    t.kind = FileKind::kOther;
  }
  return t;
}

std::string_view HostOf(std::string_view url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  const size_t begin = scheme + 3;
  size_t end = begin;
  while (end < url.size() && url[end] != '/' && url[end] != '?' && url[end] != '#') ++end;
  std::string_view host = url.substr(begin, end - begin);
  if (const size_t at = host.rfind('@'); at != std::string_view::npos) host.remove_prefix(at + 1);
  if (!host.empty() && host.front() == '[') {
    const size_t close = host.find(']');
    return close == std::string_view::npos ? host : host.substr(0, close + 1);
  }
  if (const size_t colon = host.find(':'); colon != std::string_view::npos) {
    host = host.substr(0, colon);
  }
  return host;
}

namespace {

bool EndsWithLabel(std::string_view host, std::string_view suffix) {
  if (host.size() < suffix.size()) return false;
  for (size_t k = 0; k < suffix.size(); ++k) {
    if (text::ToLower(host[host.size() - suffix.size() + k]) != suffix[k]) return false;
  }
  return host.size() == suffix.size() || host[host.size() - suffix.size() - 1] == '.';
}

// a.b.c.d with each part 0-255; the parts in *out.
bool ParseIpv4(std::string_view s, int out[4]) {
  int part = 0;
  size_t digits = 0;
  int value = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '.') {
      if (digits == 0 || value > 255 || part > 3) return false;
      out[part++] = value;
      value = 0, digits = 0;
    } else if (text::IsDigit(s[i]) && digits < 3) {
      value = value * 10 + (s[i] - '0');
      ++digits;
    } else {
      return false;
    }
  }
  return part == 4;
}

}  // namespace

const char* PlaceholderHost(std::string_view url) { return PlaceholderHostName(HostOf(url)); }

const char* PlaceholderHostName(std::string_view host) {
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (host.empty()) return nullptr;
  if (EndsWithLabel(host, "localhost")) return "localhost is not reachable from the channel";
  if (host == "[::1]") return "a loopback address is not reachable from the channel";
  int ip[4];
  if (ParseIpv4(host, ip)) {
    if (ip[0] == 127) return "a loopback address is not reachable from the channel";
    if (ip[0] == 10 || (ip[0] == 172 && ip[1] >= 16 && ip[1] <= 31) ||
        (ip[0] == 192 && ip[1] == 168) || ip[0] == 0) {
      return "a private network address is not reachable from the channel";
    }
    return nullptr;
  }
  for (std::string_view reserved :
       {"example.com", "example.net", "example.org", "example", "test", "invalid"}) {
    if (EndsWithLabel(host, reserved)) {
      return "the host is a name reserved for examples and tests (RFC 2606), not a live site";
    }
  }
  return nullptr;
}

bool PlaceholderImageName(std::string_view url) {
  const std::string_view path = url.substr(0, QueryOrFragment(url));
  const size_t last = path.rfind('/');
  std::string_view segment = last == std::string_view::npos ? path : path.substr(last + 1);
  if (const size_t dot = segment.rfind('.'); dot != std::string_view::npos) {
    segment = segment.substr(0, dot);
  }
  char buf[48];
  size_t n = 0;
  for (char c : segment) {
    if (c == '-' || c == '_' || c == ' ' || c == '+') continue;
    if (n == sizeof(buf)) return false;
    buf[n++] = text::ToLower(c);
  }
  const std::string_view name(buf, n);
  for (std::string_view p :
       {"placeholder", "noimage", "noimageavailable", "imagecomingsoon", "comingsoon",
        "imagenotavailable", "notavailable", "nophoto", "nopicture", "defaultimage",
        "imageplaceholder", "productplaceholder"}) {
    if (name == p) return true;
  }
  return false;
}

}  // namespace dq::validator::listing
