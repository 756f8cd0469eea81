// CsvReader: RFC 4180 CSV (and TSV) as a RowReader.
//
// - Quoted fields may hold delimiters, quotes written "" and line breaks. A quote opens a quoted
//   field only as the field's first byte; elsewhere it is an ordinary character (12" pizza).
//   After a closing quote only a delimiter or the end of the record may follow.
// - Records end with LF or CRLF; the last one may lack it. Blank lines are skipped.
// - A UTF-8 BOM at the start is skipped (and remembered in dialect()).
// - Delimiter: given, or detected from the header line as the most frequent of , ; TAB |
//   outside quotes (ties in that order; none of them: ',' and a single column).
// - Comment lines before the header are skipped (at most kMaxCommentLines), as Meta documents
//   them for its catalog feeds: "space-delimited comments at the top of TSV/CSV feeds"
//   (https://developers.facebook.com/docs/marketing-api/catalog/guides/metadata-tags:
//   `# ref_application_id 1234`) and as its Commerce Manager template writes its description
//   row (`# Required | A unique content ID ...,# Required | ...`, one cell per column). A record
//   is a comment when it starts with '#' and a space or TAB and, split at the file's delimiter
//   as the parser splits it, every non-empty cell starts with '#' (LineIsComment). While the
//   delimiter is not known yet, detection passes a line that is a comment under any candidate it
//   contains (IsCommentLine), so that a description row with more '|' inside its cells than ','
//   between them does not decide the delimiter. The header itself is judged under the delimiter
//   found, so a file written back with that delimiter reads back the same whatever the
//   writer quoted. So a real header that starts with '#' stays the header: `#,Name`,
//   `#id,title`, `# of items,price` (its other cells do not start with '#'). Only a one-column
//   header written like a comment (`# of items` alone) would be taken for one. Skipped lines
//   are not rows; they stay in the upload's bytes before the header, which the cleaned file
//   copies as they were. After the header, a line starting with '#' is an ordinary row.
// - Ragged rows: a row with fewer cells than the header is padded with empty cells; extra cells
//   are dropped, so that row() always has the header's width. fields_read() says how many the
//   record had: the job reports such a row (ROW_FIELD_COUNT), and the cleaned file, which copies
//   the record's bytes, keeps it as it was.
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

  // The most comment lines skipped before the header; a further one is read as the header.
  static constexpr uint64_t kMaxCommentLines = 100;
  // Comment lines skipped before the header.
  uint64_t comment_lines() const { return comment_lines_; }

  void Feed(std::string_view bytes) override { in_.Feed(bytes); }
  void Finish() override { in_.Finish(); }
  Result<ReadState> Next() override;

  const std::vector<std::string>& header() const override { return header_; }
  std::span<const std::string_view> row() const override { return cells_; }
  std::span<const CellKind> cell_kinds() const override { return {}; }
  uint64_t rows_read() const override { return rows_; }
  uint64_t record_offset() const override { return record_offset_; }
  uint64_t fields_read() const override { return fields_read_; }
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
  // The text starts with '#' and a space or TAB (after an opening quote).
  static bool StartsLikeComment(std::string_view text);
  // A record (its raw text, without the line end) before the header is a comment: it starts
  // like one and, split at some delimiter candidate it contains, every non-empty field starts
  // with '#' (or it contains none: one field). Used only while the delimiter is detected.
  static bool IsCommentLine(std::string_view line);
  // Every non-empty field of `line`, split at `d` outside quotes, starts with '#'.
  static bool LineIsComment(std::string_view line, char d);

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
  uint64_t comment_lines_ = 0;
  uint64_t fields_read_ = 0;
  uint64_t record_offset_ = 0;
  std::optional<Status> error_;
};

}  // namespace dq::ingest
