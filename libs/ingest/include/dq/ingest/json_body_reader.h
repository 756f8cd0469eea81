// A request body that is one JSON object (POST /v1/validate's), read in one call.
//
// JsonBodyReader::ReadBody takes the body as it was sent and gives its top-level members in order,
// the fields of each member that is an object (the mapping), and, for one named member that is
// an array of objects (the records), each object's members. Or, when the body is not JSON, the
// parser's words for where it stops. Inside, the body is read in two passes at most:
//   1. the fast path: simdjson On-Demand finds the tokens of a body of the usual shape, and the
//      hand-written parser (json_text.h) reads each token exactly as it would have;
//   2. anything else, an error included, is read again by the hand-written parser alone
//      (internal::ReadBodyByHand in json_text.h), after one check of the whole text, its nesting
//      (JsonNestingWithin); the parser checks the UTF-8 of each string as it reads it.
// Either way the members are the same, to the byte (tests/unit/gateway/validate_request_test.cpp
// and fuzz_validate_body hold the two paths to it). Numbers keep their text and no DOM is built:
// the members view the body, the reader's padded copy of it and its parser's scratch buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/ingest/json_text.h"

namespace dq::ingest {

// What ReadBody found. Views stay valid until the reader's next ReadBody, while the body lives.
struct JsonBody {
  enum class Shape {
    kObject,     // one JSON object: the members below
    kNotObject,  // one JSON value that is not an object: `top` says which kind
    kTooDeep,    // JSON nested deeper than kMaxJsonDepth: nothing else was read
  };
  struct Member {
    // Its key and value. The value of an object or an array is only its opening bracket: an
    // object's fields are below, and an array's elements are read only for the array member.
    internal::JsonField field;
    uint32_t fields_begin = 0, fields_end = 0;  // an object's fields: fields[begin, end)
  };

  Shape shape = Shape::kObject;
  internal::JsonField top{};    // kNotObject: the body's one value
  std::vector<Member> members;  // in the body's order, a repeated key each time it occurs
  std::vector<internal::JsonField> fields;
  // The last member named array_key (ReadBody) whose value is an array: how many elements it has,
  // the members of the first max_elements of them that are objects (element e's members are
  // element_members[element_begin[e], element_begin[e + 1]); a non-object element has none),
  // and each element that is not an object, with its index.
  size_t elements = 0;
  std::vector<internal::JsonField> element_members;
  std::vector<uint32_t> element_begin;
  std::vector<std::pair<size_t, internal::JsonField>> not_objects;

  void Clear();  // keeps the buffers' capacity
};

class JsonBodyReader {
 public:
  // Which passes may read. kHandWritten reads with the parser alone: the reference the fast path
  // is checked against in tests and fuzzing.
  enum class Path { kFast, kHandWritten };

  // The largest body the fast path reads. simdjson's buffers take ~6 bytes per body byte, so a
  // larger body (10 MiB may be sent) is read by the parser alone. A serving thread keeps its
  // buffers, at most ~6 MiB, for the next body.
  static constexpr size_t kFastMaxBytes = 1u << 20;

  // Reads `body` into `out` (cleared first). array_key names the member read as an array of
  // objects; max_elements of its objects keep their members, and all its elements are counted.
  // nullopt for JSON (out.shape then says which); otherwise the offset where the body stops
  // being JSON and the parser's words for it ("expected ',' or '}', found 'x'",
  // "invalid UTF-8 byte 0xE9", "the body is empty").
  std::optional<internal::JsonError> ReadBody(std::string_view body, std::string_view array_key,
                                              size_t max_elements, JsonBody& out,
                                              Path path = Path::kFast);

  // The text simdjson read (the body without its byte order mark, padded), when the fast path
  // read it: members that view it lie in it as the body has them.
  std::string_view fast_text() const { return padded_; }
  // The bytes its buffers hold, to free a reader that read an unusually large body.
  size_t buffer_bytes() const { return parser_.scratch_capacity() + padded_.capacity(); }

 private:
  internal::JsonObjectParser parser_{kMaxJsonDepth};  // owns the decoded text members view
  std::string padded_;  // the body with room for simdjson's padding, when it read it
};

}  // namespace dq::ingest
