// The cleaned file, kept as its fixes. A job does not store its cleaned file: it stores the fixes
// the validator made (row, column, value) beside the upload it keeps, and a download reads the
// upload again and writes it in its own format with the fixes in place. So a job writes a few
// hundred kilobytes where it wrote the whole file again, and the download pays for the writing,
// once per download (docs/architecture.md, "The cleaned file").
//
//   std::string piece;
//   AppendFix(piece, /*row=*/7, /*column=*/2, "12.50");   // the job, per write
//
//   CleanedFile file(job, [&](int64_t i) { return store.FilePiece(job, i); },
//                    [&](int64_t i) { return store.FixesPiece(job, i); });
//   std::string out;
//   while (*file.Next(&out, 1 << 20)) { Send(out); out.clear(); }   // then Send(out) once more
//
// A fix piece is a run of fixes, each varint(row) varint(column) varint(size) and the value's
// bytes. Rows are data rows from 1, in the order the reader returns them; a job writes the fixes
// of every row in ascending row order, and those of one cell in the order they were made, so the
// last one wins, as it did when the job wrote the cleaned rows itself.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/status.h"
#include "dq/ingest/row_reader.h"
#include "dq/ingest/row_writer.h"
#include "dq/report/file_check.h"

namespace dq::report {

struct Fix {
  uint64_t row = 0;     // data row, from 1
  uint32_t column = 0;  // index in the upload's header
  std::string_view value;
};

void AppendFix(std::string& piece, uint64_t row, uint32_t column, std::string_view value);
// Appends the fixes of one piece to *out (views into `piece`). kInternal when the piece is
// damaged (cut off, or a number past its range); *out then holds the fixes before the damage.
Status DecodeFixes(std::string_view piece, std::vector<Fix>* out);

// Writes the cleaned file of a finished job from its upload and its fixes, a part at a time.
// CSV and TSV keep the upload's bytes: a row without fixes is copied as it was (its quoting,
// line end and any blank lines after it), and a fixed row has only its fixed cells rewritten, so
// a file with no fixes comes back byte for byte and imports back into its platform. The other
// formats are written again by RowWriter. Memory: one upload piece (two for CSV), one fix piece
// and what Next() has not handed out yet (an XLSX workbook is built whole, as RowWriter does).
// JSON: a fix for a nested column the record lacks goes inside its object; when no record
// before it had the column, the upload is read once more (a piece at a time) for every
// column's path first.
// Not thread-safe.
class CleanedFile {
 public:
  // Upload piece i (0 <= i < job.file_pieces), as the store keeps it, decompressed.
  using UploadPiece = std::function<Result<std::string>(int64_t)>;
  // Fix piece i; nullopt past the last.
  using FixPiece = std::function<Result<std::optional<std::string>>(int64_t)>;

  // `job`: the check of the file (a job is one), read for its format, dialect, header and pieces.
  // `formulas`: CSV/TSV cells that start like a formula are written with a leading ' when
  // kNeutralise (the download's default; ingest/row_writer.h).
  CleanedFile(const FileCheck& job, UploadPiece upload, FixPiece fixes,
              ingest::FormulaCells formulas = ingest::FormulaCells::kKeep);

  // Appends the next part of the file to *out: at least `want` bytes unless the file ends first.
  // True while more follows. Errors from the callbacks are passed on; a fix for a row or column
  // the upload does not have, or a damaged fix piece, is kInternal (the stored job is damaged: a
  // file without those fixes would be a wrong file, not a cleaned one). Errors are sticky: every
  // later call returns the first one.
  Result<bool> Next(std::string* out, size_t want);

  // The bytes this file's buffers hold between calls of Next (the upload piece being read, its
  // CSV copy, the fix piece, the row being written), by their capacity: for the gateway's bound
  // on what downloads hold. The reader's own state (a row or two) is not counted.
  size_t held_bytes() const;

 private:
  // Writes rows until `want` bytes are out or the reader needs more, then feeds it or ends.
  Status Step(size_t want);
  Status LoadFixes();   // the next fix piece, when the current one is used up
  Status WriteRow();
  // CSV/TSV: the current row's fixes become the pending row's; the row before it, which ends
  // where this one starts, is copied or spliced out.
  Status KeepRow();
  void EmitRaw(uint64_t end);  // the header or the pending row, up to file offset `end`
  // CSV/TSV: the next upload piece, appended to what raw_buf_ still needs; the bytes to feed.
  std::string_view TakeRawPiece(std::string piece);
  Status TakeFixes(std::vector<std::pair<uint32_t, std::string>>* fixes);
  // JSON: reads the whole upload once more for every column's path (json_paths_), when a fix
  // names a column the reader has not met yet (the record lacks it and so did every one before).
  Status LearnJsonPaths();

  UploadPiece upload_;
  FixPiece fixes_;
  int64_t file_pieces_ = 0;
  int64_t next_piece_ = 0;
  std::string piece_;  // fed to the reader, kept until it asks for more (not CSV/TSV: raw_buf_)
  bool finished_input_ = false;  // reader_->Finish() was called
  Status error_ = Status::Ok();
  std::unique_ptr<ingest::RowReader> reader_;
  ingest::RowWriter writer_;
  uint64_t row_ = 0;

  std::string fix_piece_;
  std::vector<Fix> pending_;  // decoded from fix_piece_
  size_t next_fix_ = 0;
  int64_t next_fix_piece_ = 0;
  bool fixes_ended_ = false;

  std::vector<std::string_view> cells_;
  std::vector<ingest::CellKind> kinds_;
  ingest::FileFormat format_ = ingest::FileFormat::kCsv;
  size_t header_size_ = 0;  // the job's header: the columns of the whole file
  std::vector<std::vector<std::string>> json_paths_;  // LearnJsonPaths'
  bool json_paths_learnt_ = false;
  std::string fixed_;  // this row's fixed values, copied: a row's fixes may span two pieces
  bool ended_ = false;

  // CSV/TSV: the upload's bytes from file offset raw_base_ on, kept until the row they hold is
  // written; the row read last (pending) starts at pending_start_ and has pending_fixes_. The
  // reader reads the latest piece where it lies in raw_buf_ (piece_ stays empty), so raw_buf_
  // changes only when a piece comes; what is written by then (up to written_) is dropped.
  bool raw_ = false;
  std::string raw_buf_;
  uint64_t raw_base_ = 0;
  uint64_t written_ = 0;  // file offset up to which raw bytes are written
  uint64_t fed_ = 0;  // bytes of the upload fed so far
  bool have_pending_ = false;
  uint64_t pending_start_ = 0;
  std::vector<std::pair<uint32_t, std::string>> pending_fixes_;
  char delimiter_ = ',';
  // CSV/TSV with FormulaCells::kNeutralise: cells that start like a formula become fixes with a
  // leading '; a header that does is written by RowWriter instead of copied.
  bool neutralise_ = false;
  bool header_from_writer_ = false;
};

// The fixes of a CSV row (sorted by column, the last of a column winning) with every cell whose
// value (fixed or not) starts like a formula (dq::StartsLikeAFormula) given a leading ': one fix
// per column. For CleanedFile; public for its tests.
void NeutraliseFormulas(std::span<const std::string_view> row,
                        std::vector<std::pair<uint32_t, std::string>>* fixes);

// Rewrites the cells of one CSV record (its raw bytes, line end and all) that `fixes` name
// (column, value; sorted by column, the last of a column winning), keeping every other byte. A
// fixed value is quoted when it needs it or when the cell it replaces was quoted. A fix past the
// record's last cell adds the missing empty cells. For CleanedFile; public for its tests.
std::string SpliceCsvRecord(std::string_view record, char delimiter,
                            std::span<const std::pair<uint32_t, std::string>> fixes);

}  // namespace dq::report
