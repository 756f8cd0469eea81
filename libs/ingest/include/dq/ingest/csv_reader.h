// CsvReader: RFC 4180 CSV (and TSV) as a RowReader.
//
// - Quoted fields may hold delimiters, quotes written "" and line breaks. A quote opens a quoted
//   field only as the field's first byte; elsewhere it is an ordinary character (12" pizza).
//   After a closing quote only a delimiter or the end of the record may follow.
// - Records end with LF or CRLF; the last one may lack it. Blank lines are skipped.
// - A UTF-8 BOM at the start is skipped (and remembered in dialect()).
// - Delimiter: given, or detected from the header line as the most frequent of , ; TAB |
//   outside quotes (ties in that order; none of them: ',' and a single column).
// - Ragged rows: a row with fewer cells than the header is padded with empty cells; extra cells
//   are dropped when all of them are empty (trailing delimiters) and are an error otherwise.
// - Cells are views into the input; only cells containing "" are unescaped, into a per-record
//   scratch buffer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dq/ingest/input_buffer.h"
#include "dq/ingest/row_reader.h"

namespace dq::ingest {

class CsvReader final : public RowReader {
 public:
  // delimiter 0: detect it from the header line.
  explicit CsvReader(const ReaderLimits& limits, char delimiter = 0);

  void Feed(std::string_view bytes) override { in_.Feed(bytes); }
  void Finish() override { in_.Finish(); }
  Result<ReadState> Next() override;

  const std::vector<std::string>& header() const override { return header_; }
  std::span<const std::string_view> row() const override { return cells_; }
  std::span<const CellKind> cell_kinds() const override { return {}; }
  uint64_t rows_read() const override { return rows_; }
  uint64_t record_offset() const override { return record_offset_; }
  CsvDialect dialect() const override { return dialect_; }

 private:
  struct RecordEnd {
    size_t end = 0;         // index of the terminating '\n', or the input size at end of input
    bool found = false;     // false: the record is not complete yet
    bool open_quote = false;  // the input ended inside a quoted field
  };
  Result<ReadState> Step();
  Status Fail(Status status);
  std::string Where() const;  // "row 3 (byte 120)" or "header (byte 0)"
  RecordEnd FindRecordEnd(std::string_view s) const;
  bool DetectDelimiter(std::string_view s);  // false: need more input
  Status ParseRecord(std::string_view record);

  ReaderLimits limits_;
  internal::InputBuffer in_;
  CsvDialect dialect_;
  bool delimiter_known_;
  bool started_ = false;  // BOM handled
  bool have_header_ = false;
  std::vector<std::string> header_;
  std::vector<std::string_view> cells_;
  std::string scratch_;
  uint64_t rows_ = 0;
  uint64_t record_offset_ = 0;
  std::optional<Status> error_;
};

}  // namespace dq::ingest
