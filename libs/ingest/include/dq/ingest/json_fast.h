// Internal to the JSON readers: the fast half of the one JSON reader that uploads and POST
// /v1/validate share. simdjson On-Demand finds the tokens (and checks the UTF-8, the grammar of
// what it iterates, and that no string holds an unescaped control character); the hand-written
// parser (json_text.h) then reads each token exactly as it would have, so numbers keep their
// text, strings are decoded by one piece of code, and nested values are validated and compacted
// the same way. Whatever the fast half does not take, an error included, is read again by the
// hand-written parser alone, which words the error; both halves give the same fields for what
// the fast half takes (tests/unit/ingest/json_reader_test.cpp, fuzz_validate_body). Both halves
// are defined in json_text.cpp: the fast one only hands tokens to the other.
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

#include "dq/ingest/json_text.h"

namespace dq::ingest::internal {

// Where a member's tokens lie in `doc`, the text simdjson iterates: the key's opening quote,
// and the value's token [start, end) with the whitespace after it. The value is left for
// simdjson to step over (JsonObjectParser::ReadValueToken makes sure it can).
struct MemberTokens {
  size_t key_open;
  size_t start;
  size_t end;
};
MemberTokens TokensOf(simdjson::ondemand::field& field, std::string_view doc);

// Appends the members of `object` to `out`, each as JsonObjectParser::ParseObjectAt reads it.
// `doc` is the text simdjson iterates. Sets `nested` when a value is an object or an array.
// False when the hand-written parser must decide (out is then partly filled).
bool ReadMembersFast(simdjson::ondemand::object& object, std::string_view doc,
                     JsonObjectParser& parser, std::vector<JsonField>& out, bool& nested);

// True when simdjson has iterated the whole document: nothing but whitespace follows.
bool AtEndFast(simdjson::ondemand::document& document);

// The largest record the fast half reads. simdjson's buffers take ~6 bytes per byte of the
// largest record a reader has seen, for the reader's life; records are rarely over 1 KB, and a
// larger one (4 MiB may be sent) is read by the hand-written parser alone.
inline constexpr size_t kFastRecordMaxBytes = 64 * 1024;

// One record of an upload: `text` holds one object, with whitespace around it allowed, as
// JsonObjectParser::Parse takes it.
class FastObjectReader {
 public:
  // Fills fields() as JsonObjectParser::Parse would fill its fields(), with views into this
  // reader's copy of the text and into the parser's scratch buffer, valid until the next call.
  // False when the hand-written parser must read it (always past kFastRecordMaxBytes).
  bool Read(std::string_view text, JsonObjectParser& parser);
  const std::vector<JsonField>& fields() const { return fields_; }

 private:
  simdjson::ondemand::parser simdjson_;
  std::string padded_;  // the text, with room for the padding simdjson reads past its end
  std::vector<JsonField> fields_;
};

// Copies `text` into `padded` with room for simdjson's padding after it.
std::string_view PadForSimdjson(std::string_view text, std::string& padded);

}  // namespace dq::ingest::internal
