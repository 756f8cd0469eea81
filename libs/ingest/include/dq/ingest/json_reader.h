// JSON readers: a JSON array of objects (JsonArrayReader) and NDJSON, one object per line
// (NdjsonReader), as RowReaders.
//
// - Each object is a row. The header is the union of keys in first-seen order; a row lacking a
//   key has an empty cell of kind kMissing there.
// - Values: strings as they are (escapes decoded), numbers and booleans as their JSON text
//   exactly as written, null as "", arrays as compact JSON text (an array of URLs is a list
//   cell for the rules), and an empty object as "{}".
// - A non-empty nested object is not a cell: each of its members is a column named by its path
//   ("meta": {"barcode": "..."} is the column "meta.barcode"), recursively, down to
//   max_json_path_depth levels of objects (deeper is an error). json_paths() gives each column's
//   keys, so the writer puts the values back inside their objects. Objects inside arrays stay in
//   their array's text. A path that names the same column as a key with a dot ("meta.barcode"
//   written as one key) is an error: the two could not be told apart.
// - A key repeated within one object is an error (we would otherwise have to drop a value).
// - Arrays are read element by element; memory holds one object (up to max_record_bytes).
// - NDJSON: blank lines (only spaces, tabs, CR) are skipped; anything else must be exactly one
//   object. A UTF-8 BOM at the start is skipped in both formats.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "dq/ingest/input_buffer.h"
#include "dq/ingest/json_text.h"
#include "dq/ingest/row_reader.h"

namespace dq::ingest {

namespace internal {

class FastObjectReader;  // json_fast.h

// Turns parsed objects into rows over the growing union header.
class JsonRows {
 public:
  explicit JsonRows(const ReaderLimits& limits) : limits_(limits) {}
  // Fills cells/kinds from fields. Errors (message without position): too many keys, duplicate.
  std::optional<std::string> Build(const std::vector<JsonField>& fields);

  std::vector<std::string> header;
  std::vector<std::string_view> cells;
  std::vector<CellKind> kinds;
  // Per column, its path of keys (a top-level key is {key}); nested: some column's path is
  // longer than one key.
  std::vector<std::vector<std::string>> paths;
  bool nested = false;
  // The columns the last Build set, in the order it met them (depth first, the record's order):
  // POST /v1/validate writes its records back from it.
  std::vector<uint32_t> set_order;

 private:
  // Sets the cell of the column at `path` (its name `name`), adding the column when new.
  std::optional<std::string> Set(std::string_view name, const JsonField& f);
  // Adds the members of the nested object `text` (compact JSON) under path_.
  std::optional<std::string> AddObject(std::string_view text);

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  ReaderLimits limits_;
  std::unordered_map<std::string, size_t, Hash, std::equal_to<>> index_;
  std::vector<uint64_t> seen_;  // per column: the row generation that last set it
  uint64_t generation_ = 0;
  // Nested objects: the keys down to the current member, and one parser per object read in the
  // current row (its views stay valid until the next row).
  std::vector<std::string_view> path_;
  std::vector<std::unique_ptr<JsonObjectParser>> nested_parsers_;
  size_t nested_used_ = 0;
};

}  // namespace internal

// What the two JSON readers share: the input buffer, the object parser, the row builder, the
// position bookkeeping and the error latch. Subclasses supply Step(), which advances to the next
// row or says it needs more input.
class JsonReaderBase : public RowReader {
 public:
  explicit JsonReaderBase(const ReaderLimits& limits);
  ~JsonReaderBase() override;

  void Feed(std::string_view bytes) override { in_.Feed(bytes); }
  void Finish() override { in_.Finish(); }
  // Step(), remembering the first error so every later call returns it.
  Result<ReadState> Next() override;

  const std::vector<std::string>& header() const override { return rows_builder_.header; }
  std::span<const std::string_view> row() const override { return rows_builder_.cells; }
  std::span<const CellKind> cell_kinds() const override { return rows_builder_.kinds; }
  uint64_t rows_read() const override { return rows_; }
  uint64_t record_offset() const override { return record_offset_; }
  const std::vector<std::vector<std::string>>* json_paths() const override {
    return rows_builder_.nested ? &rows_builder_.paths : nullptr;
  }

 protected:
  virtual Result<ReadState> Step() = 0;
  // "row 3 (byte 120)": where the current record starts, for error messages.
  std::string Where() const;
  // Reads the record `text` at file offset record_offset_ into the row: simdjson finding the
  // tokens first (json_fast.h), the hand-written parser alone when that gives up, which words
  // any error.
  Status ParseRecord(std::string_view text);

  ReaderLimits limits_;
  internal::InputBuffer in_;
  internal::JsonObjectParser parser_;
  std::unique_ptr<internal::FastObjectReader> fast_;
  internal::JsonRows rows_builder_;
  uint64_t rows_ = 0;
  uint64_t record_offset_ = 0;

 private:
  std::optional<Status> error_;
};

class JsonArrayReader final : public JsonReaderBase {
 public:
  explicit JsonArrayReader(const ReaderLimits& limits) : JsonReaderBase(limits) {}

 private:
  enum class State { kBom, kOpen, kFirst, kElement, kAfter, kDone };
  Result<ReadState> Step() override;

  State state_ = State::kBom;
};

class NdjsonReader final : public JsonReaderBase {
 public:
  explicit NdjsonReader(const ReaderLimits& limits) : JsonReaderBase(limits) {}

 private:
  Result<ReadState> Step() override;

  bool started_ = false;
};

}  // namespace dq::ingest
