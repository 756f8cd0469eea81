// The hand-written JSON parser (json_text.h) that uploads and POST /v1/validate share, and the
// simdjson helpers that hand it the tokens of the fast path (json_fast.h): the grammar of one
// value, object or array of objects, and of a whole request body read by hand (ReadBodyByHand,
// the body reader's reference and fallback). An upload's records are walked in json_reader.cpp.
#include "dq/ingest/json_text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "dq/ingest/byte_scan.h"
#include "dq/ingest/json_body_reader.h"
#include "dq/ingest/json_fast.h"
#include "dq/ingest/utf8.h"

namespace dq::ingest::internal {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

void SkipSpace(std::string_view s, size_t& i) {
  while (i < s.size() && IsSpace(s[i])) ++i;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads the 4 hex digits after "\u" at s[i]; -1 when malformed.
long ReadHex4(std::string_view s, size_t i) {
  if (i + 4 > s.size()) return -1;
  long v = 0;
  for (size_t k = 0; k < 4; ++k) {
    const int h = HexValue(s[i + k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

void AppendUtf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

JsonError Err(size_t at, std::string message) { return JsonError{at, std::move(message)}; }

}  // namespace

std::string DescribeByte(std::string_view s, size_t i) {
  if (i >= s.size()) return "the end";
  const auto c = static_cast<unsigned char>(s[i]);
  if (c >= 0x20 && c < 0x7F) return std::string("'") + static_cast<char>(c) + "'";
  static constexpr char kDigits[] = "0123456789ABCDEF";
  return std::string("byte 0x") + kDigits[c >> 4] + kDigits[c & 15];
}

JsonError ExpectedAt(std::string_view s, size_t i, std::string_view what) {
  return JsonError{i, "expected " + std::string(what) + ", found " + DescribeByte(s, i)};
}

JsonError InvalidUtf8At(std::string_view s, size_t i) {
  return JsonError{i, InvalidUtf8Words(s, i)};
}

namespace {

// The position (0-7) of the first of the 8 bytes at p that is '"', '\\', a control character
// (< 0x20) or outside ASCII, the bytes a string scan must stop at; 8 when there is none
// (byte_scan.h).
size_t FirstStopInEight(const char* p) {
  const uint64_t v = bytes::Load8(p);
  const uint64_t stops = bytes::Equal(v, '"') | bytes::Equal(v, '\\') | bytes::Below(v, 0x20) |
                         bytes::NonAscii(v);
  return stops == 0 ? 8 : bytes::FirstFlagged(stops);
}

}  // namespace

std::optional<JsonError> JsonObjectParser::ScanString(std::string_view s, size_t& i) {
  // s[i] == '"'
  const size_t open = i++;
  while (true) {
    if (i + 8 <= s.size()) {
      const size_t plain = FirstStopInEight(s.data() + i);
      i += plain;
      if (plain == 8) continue;
    }
    if (i >= s.size()) return Err(open, "a string is not closed");
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"') {
      ++i;
      return std::nullopt;
    }
    if (c < 0x20) return Err(i, "a control character inside a string must be escaped");
    if (c >= 0x80) {  // the text's UTF-8 is checked here, where it is read
      const size_t len = Utf8SequenceLength(s, i);
      if (len == 0) return InvalidUtf8At(s, i);
      i += len;
      continue;
    }
    if (c != '\\') {
      ++i;
      continue;
    }
    if (i + 1 >= s.size()) return Err(open, "a string is not closed");
    const char e = s[i + 1];
    if (e == 'u') {
      const long cp = ReadHex4(s, i + 2);
      if (cp < 0) return Err(i, "invalid \\u escape");
      i += 6;
      if (cp >= 0xD800 && cp <= 0xDBFF) {  // high surrogate: a low one must follow
        if (i + 1 >= s.size() || s[i] != '\\' || s[i + 1] != 'u') {
          return Err(i - 6, "unpaired surrogate in \\u escape");
        }
        const long lo = ReadHex4(s, i + 2);
        if (lo < 0xDC00 || lo > 0xDFFF) return Err(i - 6, "unpaired surrogate in \\u escape");
        i += 6;
      } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        return Err(i - 6, "unpaired surrogate in \\u escape");
      }
      continue;
    }
    if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' &&
        e != 't') {
      return Err(i, "invalid escape in a string");
    }
    i += 2;
  }
}

std::optional<JsonError> JsonObjectParser::ParseString(std::string_view s, size_t& i,
                                                       std::string_view& out) {
  const size_t open = i;
  if (auto e = ScanString(s, i)) return e;
  const std::string_view raw = s.substr(open + 1, i - open - 2);
  if (raw.find('\\') == std::string_view::npos) {
    out = raw;
    return std::nullopt;
  }
  // Decoded text is never longer than the escaped text, and scratch_ was reserved for the whole
  // record, so appending cannot move earlier views.
  const size_t from = scratch_.size();
  for (size_t k = 0; k < raw.size(); ++k) {
    if (raw[k] != '\\') {
      scratch_.push_back(raw[k]);
      continue;
    }
    const char e = raw[++k];
    switch (e) {
      case 'b': scratch_.push_back('\b'); break;
      case 'f': scratch_.push_back('\f'); break;
      case 'n': scratch_.push_back('\n'); break;
      case 'r': scratch_.push_back('\r'); break;
      case 't': scratch_.push_back('\t'); break;
      case 'u': {
        unsigned long cp = static_cast<unsigned long>(ReadHex4(raw, k + 1));
        k += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          const auto lo = static_cast<unsigned long>(ReadHex4(raw, k + 3));
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          k += 6;
        }
        AppendUtf8(scratch_, cp);
        break;
      }
      default: scratch_.push_back(e); break;  // " \ /
    }
  }
  out = std::string_view(scratch_).substr(from);
  return std::nullopt;
}

std::optional<JsonError> JsonObjectParser::ScanNumber(std::string_view s, size_t& i) {
  const size_t start = i;
  auto digits = [&] {
    const size_t from = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    return i > from;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return Err(start, "invalid number");
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return Err(start, "invalid number");
  }
  bool exponent = false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    exponent = true;
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return Err(start, "invalid number");
  }
  // The grammar allows any magnitude, but most readers (nlohmann, Go, Java) refuse a number past
  // a double's range, such as 6e950, and answers echo numbers as sent. Only an exponent or over
  // 308 characters can get there, so a common number costs nothing more.
  if (exponent || i - start > 308) {
    const std::string text(s.substr(start, i - start));
    if (!std::isfinite(std::strtod(text.c_str(), nullptr))) {
      return Err(start, "number out of range (beyond a double's 1.8e308)");
    }
  }
  return std::nullopt;
}

std::optional<JsonError> JsonObjectParser::ScanLiteral(std::string_view s, size_t& i,
                                                       std::string_view word) {
  if (s.substr(i, word.size()) != word) return Err(i, "unexpected " + DescribeByte(s, i));
  i += word.size();
  return std::nullopt;
}

std::optional<JsonError> JsonObjectParser::ParseNested(std::string_view s, size_t& i,
                                                       std::string_view& out, bool compact) {
  const size_t begin = i;
  enum class Expect { kValue, kValueOrClose, kKey, kKeyOrClose, kColon, kCommaOrClose };
  const size_t from = scratch_.size();
  stack_.clear();
  Expect expect = Expect::kValue;
  while (true) {
    SkipSpace(s, i);
    if (i >= s.size()) return Err(i, "unexpected end inside a nested value");
    const char c = s[i];
    bool close = false;
    switch (expect) {
      case Expect::kValueOrClose:
        if (c == ']') {
          close = true;
          break;
        }
        [[fallthrough]];
      case Expect::kValue: {
        if (c == '{' || c == '[') {
          if (stack_.size() >= max_depth_) {
            return Err(i, "nested deeper than " + std::to_string(max_depth_) + " levels");
          }
          stack_.push_back(c);
          if (compact) scratch_.push_back(c);
          ++i;
          expect = c == '{' ? Expect::kKeyOrClose : Expect::kValueOrClose;
          continue;
        }
        const size_t start = i;
        std::optional<JsonError> e;
        if (c == '"') {
          e = ScanString(s, i);
        } else if (c == '-' || IsDigit(c)) {
          e = ScanNumber(s, i);
        } else if (c == 't') {
          e = ScanLiteral(s, i, "true");
        } else if (c == 'f') {
          e = ScanLiteral(s, i, "false");
        } else if (c == 'n') {
          e = ScanLiteral(s, i, "null");
        } else {
          e = Err(i, "unexpected " + DescribeByte(s, i));
        }
        if (e) return e;
        if (compact) scratch_.append(s.substr(start, i - start));
        expect = Expect::kCommaOrClose;
        break;
      }
      case Expect::kKeyOrClose:
        if (c == '}') {
          close = true;
          break;
        }
        [[fallthrough]];
      case Expect::kKey: {
        if (c != '"') return Err(i, "expected a key string, found " + DescribeByte(s, i));
        const size_t start = i;
        if (auto e = ScanString(s, i)) return e;
        if (compact) scratch_.append(s.substr(start, i - start));
        expect = Expect::kColon;
        break;
      }
      case Expect::kColon:
        if (c != ':') return Err(i, "expected ':', found " + DescribeByte(s, i));
        if (compact) scratch_.push_back(':');
        ++i;
        expect = Expect::kValue;
        break;
      case Expect::kCommaOrClose:
        if (c == ',') {
          if (compact) scratch_.push_back(',');
          ++i;
          expect = stack_.back() == '{' ? Expect::kKey : Expect::kValue;
        } else if (c == (stack_.back() == '{' ? '}' : ']')) {
          close = true;
        } else {
          return Err(i, "expected ',' or a closing bracket, found " + DescribeByte(s, i));
        }
        break;
    }
    if (close) {
      if (compact) scratch_.push_back(c);
      ++i;
      stack_.pop_back();
      if (stack_.empty()) {
        out = compact ? std::string_view(scratch_).substr(from) : s.substr(begin, i - begin);
        return std::nullopt;
      }
      expect = Expect::kCommaOrClose;
    }
  }
}

void JsonObjectParser::ResetScratch(size_t capacity) {
  scratch_.clear();
  // Never the small-string buffer: views into scratch_ must survive moving the parser.
  scratch_.reserve(std::max<size_t>(capacity, 64));
}

std::optional<JsonError> JsonObjectParser::ParseValueAt(std::string_view s, size_t& i,
                                                        JsonField& f, bool compact) {
  if (i >= s.size()) return Err(i, "expected a value, found the end");
  const char c = s[i];
  const size_t start = i;
  std::optional<JsonError> e;
  if (c == '"') {
    f.kind = CellKind::kString;
    e = ParseString(s, i, f.value);
  } else if (c == '-' || IsDigit(c)) {
    f.kind = CellKind::kNumber;
    e = ScanNumber(s, i);
    f.value = s.substr(start, i - start);
  } else if (c == 't' || c == 'f') {
    f.kind = CellKind::kBool;
    e = ScanLiteral(s, i, c == 't' ? "true" : "false");
    f.value = s.substr(start, i - start);
  } else if (c == 'n') {
    f.kind = CellKind::kNull;
    f.value = {};
    e = ScanLiteral(s, i, "null");
  } else if (c == '{' || c == '[') {
    f.kind = CellKind::kJson;
    e = ParseNested(s, i, f.value, compact);
  } else {
    e = Err(i, "expected a value, found " + DescribeByte(s, i));
  }
  if (e) return e;
  f.raw_value = s.substr(start, i - start);
  return std::nullopt;
}

bool JsonObjectParser::ReadValueToken(std::string_view s, size_t start, size_t end,
                                      JsonField& f) {
  if (end >= s.size()) return false;
  // A scalar must be followed by ',' or a closing bracket. simdjson checks that when it moves on,
  // except after a string followed by ':', which its skipping takes for a key and steps over
  // (found by fuzz_validate_body: {"sku":"x":"y"} passed as {"sku":"x"}).
  const char next = s[end];
  const char c = s[start];
  if (c != '{' && c != '[' && next != ',' && next != '}' && next != ']') return false;
  while (end > start && IsSpace(s[end - 1])) --end;
  if (end <= start) return false;
  if (c == '"') {
    // The pass found the closing quote and checked the bytes between; only an escape needs work.
    if (end - start < 2 || s[end - 1] != '"') return false;
    const std::string_view inner = s.substr(start + 1, end - start - 2);
    f.kind = CellKind::kString;
    if (std::memchr(inner.data(), '\\', inner.size()) == nullptr) {
      f.value = inner;
    } else {
      size_t i = start;
      if (ParseString(s, i, f.value) || i != end) return false;
    }
    f.raw_value = s.substr(start, end - start);
    return true;
  }
  size_t i = start;
  if (ParseValueAt(s, i, f)) return false;
  // A scalar must be the whole token ("12x" is one token to the pass); a nested value ends
  // where the hand-written grammar says, and the pass then skips it by its brackets.
  return f.kind == CellKind::kJson || i == end;
}

// Kept out of ReadMembersFast's simdjson loop, as it was when the two halves were separate
// files: inlined there, it made the fast reader ~4% slower (bench/validate_bench BM_ReaderOurs/0).
[[gnu::noinline]] bool JsonObjectParser::ReadMemberTokens(std::string_view s, size_t key_open, size_t start,
                                        size_t end, JsonField& f) {
  return ReadKeyToken(s, key_open, start, f) && ReadValueToken(s, start, end, f);
}

bool JsonObjectParser::ReadKeyToken(std::string_view s, size_t key_open, size_t start,
                                    JsonField& f) {
  if (start > s.size() || key_open >= start) return false;
  // The key's closing quote: back from the value over whitespace, ':' and whitespace.
  size_t k = start;
  while (k > key_open && IsSpace(s[k - 1])) --k;
  if (k <= key_open || s[k - 1] != ':') return false;
  --k;
  while (k > key_open && IsSpace(s[k - 1])) --k;
  if (k < key_open + 2 || s[k - 1] != '"' || s[key_open] != '"') return false;
  const std::string_view raw_key = s.substr(key_open, k - key_open);
  const std::string_view inner = raw_key.substr(1, raw_key.size() - 2);
  if (std::memchr(inner.data(), '\\', inner.size()) == nullptr) {
    f.key = inner;
  } else {
    size_t i = key_open;
    if (ParseString(s, i, f.key) || i != k) return false;
  }
  f.raw_key = raw_key;
  return true;
}

std::optional<JsonError> JsonObjectParser::ParseObjectAt(std::string_view s, size_t& i) {
  fields_.clear();
  if (i >= s.size() || s[i] != '{') {
    return Err(i, "expected a JSON object, found " + DescribeByte(s, i));
  }
  ++i;
  SkipSpace(s, i);
  if (i < s.size() && s[i] == '}') {
    ++i;
    return std::nullopt;
  }
  while (true) {
    SkipSpace(s, i);
    if (i >= s.size() || s[i] != '"') {
      return Err(i, "expected a key string, found " + DescribeByte(s, i));
    }
    JsonField f{};
    const size_t key_start = i;
    if (auto e = ParseString(s, i, f.key)) return e;
    f.raw_key = s.substr(key_start, i - key_start);
    SkipSpace(s, i);
    if (i >= s.size() || s[i] != ':') return Err(i, "expected ':', found " + DescribeByte(s, i));
    ++i;
    SkipSpace(s, i);
    if (auto e = ParseValueAt(s, i, f)) return e;
    fields_.push_back(f);
    SkipSpace(s, i);
    if (i < s.size() && s[i] == ',') {
      ++i;
      continue;
    }
    if (i < s.size() && s[i] == '}') {
      ++i;
      return std::nullopt;
    }
    return Err(i, "expected ',' or '}', found " + DescribeByte(s, i));
  }
}

std::optional<JsonError> JsonObjectParser::ParseObjectArrayAt(
    std::string_view s, size_t& i, size_t max_objects, std::vector<JsonField>& members,
    std::vector<uint32_t>& ends, std::vector<std::pair<size_t, JsonField>>& others,
    size_t& count) {
  count = 0;
  ++i;  // the '['
  SkipSpace(s, i);
  bool first = true;
  while (true) {
    SkipSpace(s, i);
    if (first && i < s.size() && s[i] == ']') break;
    first = false;
    if (i < s.size() && s[i] == '{') {
      if (auto e = ParseObjectAt(s, i)) return e;
      if (count < max_objects) {
        members.insert(members.end(), fields_.begin(), fields_.end());
        ends.push_back(static_cast<uint32_t>(members.size()));
      }
    } else {
      JsonField element{};
      if (auto e = ParseValueAt(s, i, element, /*compact=*/false)) return e;
      others.emplace_back(count, element);
      if (count < max_objects) ends.push_back(ends.empty() ? 0 : ends.back());
    }
    ++count;
    SkipSpace(s, i);
    if (i < s.size() && s[i] == ',') {
      ++i;
      continue;
    }
    if (i < s.size() && s[i] == ']') break;
    return ExpectedAt(s, i, "',' or ']'");
  }
  ++i;  // the ']'
  return std::nullopt;
}

std::optional<JsonError> JsonObjectParser::Parse(std::string_view s) {
  ResetScratch(s.size());
  size_t i = 0;
  SkipSpace(s, i);
  if (auto e = ParseObjectAt(s, i)) return e;
  SkipSpace(s, i);
  if (i < s.size()) return Err(i, "unexpected " + DescribeByte(s, i) + " after the object");
  return std::nullopt;
}

// A whole request body by hand (json_body_reader.h): JsonBodyReader::ReadBody's reference, and
// its fallback when the fast pass gives up.
namespace {

// The walk of a whole body by hand: every body, and where it stops. Only the parser reads
// and words the JSON (its strings' UTF-8 included); a repeated member is listed each time (its
// last occurrence is the caller's to take).
std::optional<JsonError> WalkBody(JsonObjectParser& p, std::string_view body,
                                  std::string_view array_key, size_t max_elements,
                                  JsonBody& out) {
  p.ResetScratch(body.size());
  size_t i = body.starts_with(kByteOrderMark) ? kByteOrderMark.size() : 0;
  SkipSpace(body, i);
  if (i >= body.size()) return JsonError{i, "the body is empty"};
  if (body[i] != '{') {
    if (auto e = p.ParseValueAt(body, i, out.top, /*compact=*/false)) return e;
    SkipSpace(body, i);
    if (i < body.size()) return ExpectedAt(body, i, "the end");
    out.shape = JsonBody::Shape::kNotObject;
    return std::nullopt;
  }
  ++i;
  for (bool first = true;; first = false) {
    SkipSpace(body, i);
    if (first && i < body.size() && body[i] == '}') break;
    if (i >= body.size() || body[i] != '"') return ExpectedAt(body, i, "a member name");
    JsonBody::Member& m = out.members.emplace_back();
    if (auto e = p.ParseString(body, i, m.field.key)) return e;
    SkipSpace(body, i);
    if (i >= body.size() || body[i] != ':') return ExpectedAt(body, i, "':'");
    ++i;
    SkipSpace(body, i);
    if (m.field.key == array_key) {  // the last occurrence counts
      out.elements = 0;
      out.element_members.clear();
      out.element_begin.assign(1, 0);
      out.not_objects.clear();
    }
    if (m.field.key == array_key && i < body.size() && body[i] == '[') {
      m.field.kind = CellKind::kJson;
      m.field.value = m.field.raw_value = body.substr(i, 1);
      if (auto e = p.ParseObjectArrayAt(body, i, max_elements, out.element_members,
                                        out.element_begin, out.not_objects, out.elements)) {
        return e;
      }
    } else {
      if (auto e = p.ParseValueAt(body, i, m.field, /*compact=*/false)) return e;
      if (m.field.kind == CellKind::kJson && m.field.raw_value[0] == '{') {
        size_t at = 0;
        // Cannot fail: the value was validated above.
        if (auto e = p.ParseObjectAt(m.field.raw_value, at)) return e;
        m.fields_begin = static_cast<uint32_t>(out.fields.size());
        out.fields.insert(out.fields.end(), p.fields().begin(), p.fields().end());
        m.fields_end = static_cast<uint32_t>(out.fields.size());
      }
      // An object or an array keeps only its opening bracket (json_body_reader.h).
      if (m.field.kind == CellKind::kJson) {
        m.field.value = m.field.raw_value = m.field.raw_value.substr(0, 1);
      }
    }
    SkipSpace(body, i);
    if (i < body.size() && body[i] == ',') {
      ++i;
      continue;
    }
    if (i < body.size() && body[i] == '}') break;
    return ExpectedAt(body, i, "',' or '}'");
  }
  ++i;  // the '}'
  SkipSpace(body, i);
  if (i < body.size()) return ExpectedAt(body, i, "the end");
  return std::nullopt;
}

}  // namespace

// (json_text.h) The nesting first (a body too deep is not read at all), then the walk. Which error
// a body gets: the walk stops at the first thing wrong, but invalid UTF-8 anywhere in the body
// wins over a grammar error before it ("invalid UTF-8 byte 0xE9", the text's encoding, is what
// the sender fixes first). A body read to its end is valid UTF-8 (its strings were checked as
// they were scanned, and JSON outside strings is ASCII).
std::optional<JsonError> ReadBodyByHand(JsonObjectParser& p, std::string_view body,
                                        std::string_view array_key, size_t max_elements,
                                        JsonBody& out) {
  if (!JsonNestingWithin(body)) {
    out.shape = JsonBody::Shape::kTooDeep;
    return std::nullopt;
  }
  std::optional<JsonError> e = WalkBody(p, body, array_key, max_elements, out);
  if (e) {
    if (const size_t bad = FindInvalidUtf8(body); bad != std::string_view::npos) {
      return JsonError{bad, InvalidUtf8Words(body, bad)};
    }
  }
  return e;
}

// The fast half (json_fast.h): simdjson finds the tokens, the parser above reads them.

std::string_view PadForSimdjson(std::string_view text, std::string& padded) {
  padded.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  padded.assign(text.data(), text.size());
  return padded;
}


namespace od = simdjson::ondemand;

MemberTokens TokensOf(od::field& field, std::string_view doc) {
  const auto key_open = static_cast<size_t>(field.key().raw() - doc.data()) - 1;
  const std::string_view token = field.value().raw_json_token();
  const auto start = static_cast<size_t>(token.data() - doc.data());
  return {key_open, start, start + token.size()};
}

bool ReadMembersFast(od::object& object, std::string_view doc, JsonObjectParser& parser,
                     std::vector<JsonField>& out, bool& nested) {
  for (auto member : object) {
    od::field field;
    if (std::move(member).get(field)) return false;
    const MemberTokens t = TokensOf(field, doc);
    JsonField& f = out.emplace_back();
    if (!parser.ReadMemberTokens(doc, t.key_open, t.start, t.end, f)) return false;
    nested |= f.kind == CellKind::kJson;
  }
  return true;
}

bool AtEndFast(od::document& document) {
  return document.current_location().error() == simdjson::OUT_OF_BOUNDS;
}

}  // namespace dq::ingest::internal

namespace dq::ingest {

bool JsonNestingWithin(std::string_view text, size_t max_depth) {
  size_t depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      // Jump to the string's closing quote: the next quote after an even number of
      // backslashes. memchr runs a word at a time, and strings are most of a body.
      size_t from = i + 1;
      while (true) {
        const void* q = std::memchr(text.data() + from, '"', text.size() - from);
        if (q == nullptr) return true;  // not closed: the parser says so
        const size_t at = static_cast<size_t>(static_cast<const char*>(q) - text.data());
        size_t k = at;
        while (k > i + 1 && text[k - 1] == '\\') --k;
        if ((at - k) % 2 == 0) {
          i = at;
          break;
        }
        from = at + 1;
      }
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

}  // namespace dq::ingest
