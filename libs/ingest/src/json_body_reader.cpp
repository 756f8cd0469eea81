// The body reader (json_body_reader.h): one call, two passes at most. This file is the fast pass,
// which walks the body's top-level object on the tokens simdjson finds and has the parser read
// each token; when it gives up, the parser reads the body by hand (ReadBodyByHand in
// json_text.cpp), as the reference it is checked against.
#include "dq/ingest/json_body_reader.h"

#include <simdjson.h>

#include "dq/ingest/json_fast.h"

namespace dq::ingest {

using internal::JsonError;
using internal::JsonField;
using internal::JsonObjectParser;

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

  if (body.starts_with(internal::kByteOrderMark)) {
    body.remove_prefix(internal::kByteOrderMark.size());
  }
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

}  // namespace

std::optional<JsonError> JsonBodyReader::ReadBody(std::string_view body, std::string_view array_key,
                                                  size_t max_elements, JsonBody& out, Path path) {
  out.Clear();
  if (path == Path::kFast && FastPass(parser_, padded_, body, array_key, max_elements, out)) {
    return std::nullopt;
  }
  out.Clear();
  return internal::ReadBodyByHand(parser_, body, array_key, max_elements, out);
}

}  // namespace dq::ingest
