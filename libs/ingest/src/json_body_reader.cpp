// The body reader (json_body_reader.h): one call, two passes at most. The grammar of each value
// is the parser's (json_text.cpp); this file walks the body's top-level object, first on the
// tokens simdjson finds, then, when that pass gives up, by hand.
#include "dq/ingest/json_body_reader.h"

#include <simdjson.h>

#include <cstring>

#include "dq/ingest/json_fast.h"
#include "dq/ingest/utf8.h"

namespace dq::ingest {

using internal::JsonError;
using internal::JsonField;
using internal::JsonObjectParser;

namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
void SkipSpace(std::string_view s, size_t& i) {
  while (i < s.size() && IsSpace(s[i])) ++i;
}

}  // namespace

void JsonBody::Clear() {
  shape = Shape::kObject;
  top = {};
  members.clear();
  fields.clear();
  elements = 0;
  element_members.clear();
  element_begin.clear();
  not_objects.clear();
}

namespace {

// The fast pass takes only what it can read to the end: an object whose array member is an
// array of objects, present once, with at most max_elements of them. It gives up on anything
// else, an error included, so that the hand-written pass decides and words it. The members
// view `padded`, the copy simdjson reads.
bool FastPass(JsonObjectParser& p, std::string& padded, std::string_view body,
              std::string_view array_key, size_t max_elements, JsonBody& out) {
  namespace od = simdjson::ondemand;
  if (body.size() > JsonBodyReader::kFastMaxBytes) return false;
  thread_local od::parser simdjson;  // one per serving thread, its buffers kept

  if (body.starts_with(kByteOrderMark)) body.remove_prefix(kByteOrderMark.size());
  const std::string_view doc = internal::PadForSimdjson(body, padded);
  p.ResetScratch(doc.size());
  od::document document;
  od::object top;
  if (simdjson.iterate(padded.data(), doc.size(), padded.capacity()).get(document) ||
      document.get_object().get(top)) {
    return false;
  }
  bool nested = false, seen_array = false;
  for (auto member : top) {
    od::field field;
    if (std::move(member).get(field)) return false;
    const internal::MemberTokens t = internal::TokensOf(field, doc);
    JsonBody::Member& m = out.members.emplace_back();
    if (!p.ReadKeyToken(doc, t.key_open, t.start, m.field)) return false;
    if (m.field.key == array_key) {
      od::array elements;
      if (seen_array || field.value().get_array().get(elements)) return false;
      seen_array = true;
      out.element_begin.assign(1, 0);
      for (auto element : elements) {
        od::object object;
        if (element.get_object().get(object) || ++out.elements > max_elements ||
            !internal::ReadMembersFast(object, doc, p, out.element_members, nested)) {
          return false;
        }
        out.element_begin.push_back(static_cast<uint32_t>(out.element_members.size()));
      }
      m.field.kind = CellKind::kJson;
    } else if (doc[t.start] == '{') {
      od::object object;
      if (field.value().get_object().get(object)) return false;
      m.fields_begin = static_cast<uint32_t>(out.fields.size());
      if (!internal::ReadMembersFast(object, doc, p, out.fields, nested)) return false;
      m.fields_end = static_cast<uint32_t>(out.fields.size());
      m.field.kind = CellKind::kJson;
    } else if (!p.ReadValueToken(doc, t.start, t.end, m.field)) {
      return false;
    } else {
      nested |= m.field.kind == CellKind::kJson;  // an array
    }
    // An object or an array keeps only its opening bracket (json_body_reader.h).
    if (m.field.kind == CellKind::kJson) m.field.value = m.field.raw_value = doc.substr(t.start, 1);
  }
  // Nothing may follow the object, and a nested value must keep the body within the depth limit.
  return internal::AtEndFast(document) && (!nested || JsonNestingWithin(doc));
}

// The hand-written pass's walk of the body: every body, and where it stops. Only the parser reads
// and words the JSON (its strings' UTF-8 included); a repeated member is listed each time (its
// last occurrence is the caller's to take).
std::optional<JsonError> ReadByHand(JsonObjectParser& p, std::string_view body,
                                    std::string_view array_key, size_t max_elements,
                                    JsonBody& out) {
  p.ResetScratch(body.size());
  size_t i = body.starts_with(kByteOrderMark) ? kByteOrderMark.size() : 0;
  SkipSpace(body, i);
  if (i >= body.size()) return JsonError{i, "the body is empty"};
  if (body[i] != '{') {
    if (auto e = p.ParseValueAt(body, i, out.top, /*compact=*/false)) return e;
    SkipSpace(body, i);
    if (i < body.size()) return internal::ExpectedAt(body, i, "the end");
    out.shape = JsonBody::Shape::kNotObject;
    return std::nullopt;
  }
  ++i;
  for (bool first = true;; first = false) {
    SkipSpace(body, i);
    if (first && i < body.size() && body[i] == '}') break;
    if (i >= body.size() || body[i] != '"') return internal::ExpectedAt(body, i, "a member name");
    JsonBody::Member& m = out.members.emplace_back();
    if (auto e = p.ParseString(body, i, m.field.key)) return e;
    SkipSpace(body, i);
    if (i >= body.size() || body[i] != ':') return internal::ExpectedAt(body, i, "':'");
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
    return internal::ExpectedAt(body, i, "',' or '}'");
  }
  ++i;  // the '}'
  SkipSpace(body, i);
  if (i < body.size()) return internal::ExpectedAt(body, i, "the end");
  return std::nullopt;
}

// The hand-written pass: the nesting first (a body too deep is not read at all), then the walk.
// Which error a body gets: the walk stops at the first thing wrong, but invalid UTF-8 anywhere in
// the body wins over a grammar error before it ("invalid UTF-8 byte 0xE9", the text's encoding,
// is what the sender fixes first). A body read to its end is valid UTF-8 (json_text.h).
std::optional<JsonError> HandWrittenPass(JsonObjectParser& p, std::string_view body,
                                         std::string_view array_key, size_t max_elements,
                                         JsonBody& out) {
  if (!JsonNestingWithin(body)) {
    out.shape = JsonBody::Shape::kTooDeep;
    return std::nullopt;
  }
  std::optional<JsonError> e = ReadByHand(p, body, array_key, max_elements, out);
  if (e) {
    if (const size_t bad = FindInvalidUtf8(body); bad != std::string_view::npos) {
      return internal::InvalidUtf8At(body, bad);
    }
  }
  return e;
}

}  // namespace

std::optional<JsonError> JsonBodyReader::ReadBody(std::string_view body, std::string_view array_key,
                                                  size_t max_elements, JsonBody& out, Path path) {
  out.Clear();
  if (path == Path::kFast && FastPass(parser_, padded_, body, array_key, max_elements, out)) {
    return std::nullopt;
  }
  out.Clear();
  return HandWrittenPass(parser_, body, array_key, max_elements, out);
}

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
