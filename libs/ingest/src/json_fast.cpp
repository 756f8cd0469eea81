#include "dq/ingest/json_fast.h"

namespace dq::ingest::internal {

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

bool FastObjectReader::Read(std::string_view text, JsonObjectParser& parser) {
  fields_.clear();
  if (text.size() > kFastRecordMaxBytes) return false;
  const std::string_view doc = PadForSimdjson(text, padded_);
  parser.ResetScratch(doc.size());
  od::document document;
  od::object object;
  if (simdjson_.iterate(padded_.data(), padded_.size(), padded_.capacity()).get(document) ||
      document.get_object().get(object)) {
    return false;
  }
  bool nested = false;  // the hand-written parser bounds a nested value's depth as it reads it
  return ReadMembersFast(object, doc, parser, fields_, nested) && AtEndFast(document);
}

}  // namespace dq::ingest::internal
