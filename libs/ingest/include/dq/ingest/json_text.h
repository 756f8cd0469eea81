// Internal to dq_ingest: the small JSON parser the JSON readers share. It reads one object at a
// time and keeps each value's text as the file has it (numbers are not re-formatted), decoding
// only strings with escapes and compacting nested values, into a caller-owned scratch buffer.
// Nesting is tracked with an explicit stack, so deep input cannot overflow the call stack.
// Strings are checked to be UTF-8 as they are scanned ("invalid UTF-8 byte 0xE9"), and JSON
// outside strings is ASCII: text parsed to its end is valid UTF-8, with no pass of its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/ingest/row_reader.h"

namespace dq::ingest {
struct JsonBody;  // json_body_reader.h
}  // namespace dq::ingest

namespace dq::ingest::internal {

// A UTF-8 byte order mark, which a body or a file may start with; it is not part of the JSON.
inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

struct JsonField {
  std::string_view key;
  std::string_view value;  // "" for null
  CellKind kind;
  std::string_view raw_key;    // the key as written, quotes included
  std::string_view raw_value;  // the value as written (nested values not compacted)
};

struct JsonError {
  size_t offset;  // into the parsed text
  std::string message;
};

class JsonObjectParser {
 public:
  explicit JsonObjectParser(size_t max_depth) : max_depth_(max_depth) {}

  // Parses `text`: optional whitespace, one object, optional whitespace. On success fields()
  // holds its members in order, with views into `text` or into this parser's scratch buffer,
  // valid until the next Parse().
  std::optional<JsonError> Parse(std::string_view text);
  const std::vector<JsonField>& fields() const { return fields_; }

  // For documents that hold many records (the /v1/validate body): the same grammar, driven by
  // the caller. Views into the scratch buffer stay valid until ResetScratch(), which must be
  // given at least the size of all the text parsed until the next reset.
  void ResetScratch(size_t capacity);
  size_t scratch_capacity() const { return scratch_.capacity(); }
  // Parses the object starting at s[i] ('{' expected) into fields(), leaving i after its '}'.
  std::optional<JsonError> ParseObjectAt(std::string_view s, size_t& i);
  // Parses any value at s[i] into out (kind, decoded or compacted text, raw text); when compact
  // is false, nested values are only validated and out.value is their raw text.
  std::optional<JsonError> ParseValueAt(std::string_view s, size_t& i, JsonField& out,
                                        bool compact = true);
  // Decodes the string at s[i] ('"' expected).
  std::optional<JsonError> ParseString(std::string_view s, size_t& i, std::string_view& out);
  // Parses the array at s[i] ('[' expected) whose elements are meant to be objects (a document's
  // records), leaving i after its ']'. The members of the first max_objects elements are
  // appended to `members`, and `ends` gets where each of these elements' members end (an element
  // that is not an object has none). Every element that is not an object is parsed as a value
  // (nested values not compacted) and listed in `others` with its index. `count` is the number
  // of elements. Views stay valid as for ParseValueAt.
  std::optional<JsonError> ParseObjectArrayAt(std::string_view s, size_t& i, size_t max_objects,
                                              std::vector<JsonField>& members,
                                              std::vector<uint32_t>& ends,
                                              std::vector<std::pair<size_t, JsonField>>& others,
                                              size_t& count);

  // The second half of the fast reader (json_fast.h), for a member whose tokens a
  // simdjson pass has already found: the key's opening quote at s[key_open], and the value's token
  // at s[value_start, value_end) (a scalar's text plus the whitespace after it; s[value_end] is
  // the next token's first byte, checked here to be ',' or a closing bracket). That pass has
  // also checked the UTF-8 and that no string holds an unescaped control character. Fills `out`
  // exactly as ParseObjectAt does for the member, scanning only what the pass did not check:
  // escapes, numbers, literals and nested values. False when the member must be left to the
  // hand-written reader, which then words the error.
  bool ReadMemberTokens(std::string_view s, size_t key_open, size_t value_start, size_t value_end,
                        JsonField& out);
  // Its two halves: the key (out.key, out.raw_key) and the value (out.kind, value, raw_value).
  bool ReadKeyToken(std::string_view s, size_t key_open, size_t value_start, JsonField& out);
  bool ReadValueToken(std::string_view s, size_t value_start, size_t value_end, JsonField& out);

 private:
  std::optional<JsonError> ScanString(std::string_view s, size_t& i);  // checks, no decoding
  std::optional<JsonError> ScanNumber(std::string_view s, size_t& i);
  std::optional<JsonError> ScanLiteral(std::string_view s, size_t& i, std::string_view word);
  std::optional<JsonError> ParseNested(std::string_view s, size_t& i, std::string_view& out,
                                       bool compact);

  size_t max_depth_;
  std::vector<JsonField> fields_;
  std::string scratch_;
  std::vector<char> stack_;
};

// A short description of the byte at s[i] for messages: "'x'", "byte 0xE9", "the end".
std::string DescribeByte(std::string_view s, size_t i);

// The parser's words for a document that stops at s[i]: "expected <what>, found <byte>", and
// "invalid UTF-8 <byte>" (for an offset FindInvalidUtf8 gave).
JsonError ExpectedAt(std::string_view s, size_t i, std::string_view what);
JsonError InvalidUtf8At(std::string_view s, size_t i);

// A whole request body read by hand with `p`, into `out` (cleared by the caller): the reference
// JsonBodyReader::ReadBody's fast pass is checked against, and what reads the body when that pass
// gives up, so it is what words every error. A body nested deeper than kMaxJsonDepth is only
// marked so (JsonBody::Shape::kTooDeep). On an error, the body's first invalid UTF-8 byte wins
// over a grammar error before it.
std::optional<JsonError> ReadBodyByHand(JsonObjectParser& p, std::string_view body,
                                        std::string_view array_key, size_t max_elements,
                                        JsonBody& out);

}  // namespace dq::ingest::internal

namespace dq::ingest {

// How deep untrusted JSON may nest. nlohmann's parser is iterative, but serialising and
// destroying a value recurse once per level: a body of 100,000 '[' would overflow the stack.
inline constexpr size_t kMaxJsonDepth = 64;

// True when no array or object in text nests deeper than max_depth. Brackets inside strings
// do not count. Cheap (one pass, no allocation); run it before handing text to nlohmann.
bool JsonNestingWithin(std::string_view text, size_t max_depth = kMaxJsonDepth);

}  // namespace dq::ingest
