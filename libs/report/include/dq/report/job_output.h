// What one attempt of a job produces, built without I/O: the rows sent to the validator, the
// stored issue records (capped per job), the fixes (cleaned_file.h: the cleaned file is written
// from them and the upload on download) and the summary. The JobRunner feeds it the validator's
// answers and hands the JobWrite it returns to the store.
//
//   JobOutput out(job, options);
//   validator::v1::RowChunk chunk; RowBatch batch;
//   out.AddRow(reader->row(), batch, &chunk);   // each row, straight from the reader's views
//   out.Seal(batch, &chunk);                    // then send it
//   out.Apply(answer, batch);                   // the validator's answer
//   if (out.WriteDue()) store.Write(job, out.TakeWrite());
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dq/ingest/check_plan.h"
#include "dq/ingest/row_model.h"
#include "dq/validator/v1/validator.pb.h"
#include "dq/report/file_check.h"
#include "dq/report/issue_json.h"
#include "dq/report/job_summary.h"

namespace dq::report {

// Adds the further columns checked as a field's (ingest::AlsoCheckedColumns: Magento's
// small_image) to the validator's spec, each with its convention's list separator and file
// extensions; their values follow the fields' in each record. Both senders, JobOutput (jobs,
// `dq check`) and POST /v1/validate's request, use it.
void AddExtraColumns(std::span<const ingest::AlsoCheckedColumn> extras,
                     validator::v1::BatchSpec& spec);

// What the job remembers of a chunk it sent until its answer comes: where its rows start and how
// many cells each had (a fix for a cell the row did not have is dropped, as the file has no
// place for it). The cells themselves went into the chunk's packed buffer and are not kept.
struct RowBatch {
  uint64_t first_row = 0;        // row number of the first row, once sealed
  std::vector<uint32_t> widths;  // cells per row
  // Each row's item names (sku, item_id, title), one after another, for the issues that name
  // the item; name_ends holds where each ends in `names`, three per row.
  std::string names;
  std::vector<uint32_t> name_ends;
  // The rows (index in the batch) whose record had another number of fields than the header
  // has columns, with that number: each gets ROW_FIELD_COUNT (more) or ROW_FIELDS_MISSING
  // (fewer).
  std::vector<std::pair<uint32_t, uint64_t>> ragged;

  size_t rows() const { return widths.size(); }
  size_t Width(size_t r) const { return widths[r]; }
  // Row r's name k (0 sku, 1 item_id, 2 title).
  std::string_view Name(size_t r, size_t k) const {
    const size_t i = 3 * r + k;
    const uint32_t begin = i == 0 ? 0 : name_ends[i - 1];
    return std::string_view(names).substr(begin, name_ends[i] - begin);
  }
  void Clear() {
    widths.clear();
    ragged.clear();
    names.clear();
    name_ends.clear();
  }
};

// One step of an attempt's output, written atomically: issues, fixes and the progress counters.
// A stored issue list never holds more than the per-job cap.
struct JobWrite {
  std::vector<std::string> issues;  // JSON objects, to append
  std::string fixes;                // a piece of fixes (cleaned_file.h) to append ("" for none)
  int64_t rows_done = 0;            // rows whose results are now stored
  int64_t issues_stored = 0;        // after this write
  int64_t issues_found = 0;         // after this write, exact
  std::string summary_json;         // the summary so far ("" to leave it)
};

struct OutputOptions {
  size_t fix_piece_bytes = 1024 * 1024;  // pending fixes that make a write due
  int64_t max_stored_issues = 100000;    // per job; counters stay exact past it
  size_t write_issues = 8192;            // pending issues that make a write due
  int64_t write_rows = 65536;            // rows since the last write that make one due
  // Every sealed row's item names are kept, up to this many bytes (names and their ends), so
  // the batch-level issues are named without reading the file again (NameTailFromKept); a
  // larger file drops them and is read again.
  size_t kept_names_bytes = 32 * 1024 * 1024;
};

class JobOutput {
 public:
  JobOutput(const FileCheck& job, OutputOptions options);

  // The validator's spec for this job.
  validator::v1::BatchSpec Spec() const;
  // Appends a row's mapped columns, in field order, then its further columns checked as a
  // field's (BatchSpec.extra_columns: Magento's small_image), to chunk (packed, see
  // validator.proto): one copy of each cell, from the reader's views. The first row of a chunk
  // clears it.
  // fields_read: the record's own field count in the file (RowReader::fields_read(); 0: the
  // format has none). A count above the header's gets ROW_FIELD_COUNT (an error) on that row, a
  // count below it ROW_FIELDS_MISSING (a warning), added by Apply in its place among the
  // validator's issues, and counted in the stats (AdjustStats).
  void AddRow(std::span<const std::string_view> row, RowBatch& batch,
              validator::v1::RowChunk* chunk, uint64_t fields_read = 0);
  // True while a row given to AddRow may still change kind (ingest::RowModel::pending(): a
  // Shopify parent row is the product when no variant follows it): the chunk is not sealed yet.
  bool KindPending() const { return row_model_->pending(); }
  // After the last row, before its chunk is sealed: a row still pending is the product.
  void EndRows(RowBatch& batch, validator::v1::RowChunk* chunk);
  // Ends the chunk of batch's rows and numbers them.
  void Seal(RowBatch& batch, validator::v1::RowChunk* chunk);
  // The answer for batch: issue records, and its fixes, by row, for the cleaned file.
  void Apply(const validator::v1::IssueChunk& answer, const RowBatch& batch);
  // Issues that came after the last chunk (batch-level checks). They carry no fixes. They are
  // held until their rows' names are known: see TailRows.
  void ApplyTail(const validator::v1::IssueChunk& answer);
  // The rows the held tail issues are about, ascending; the runner reads the file again and
  // calls NameTailRow for each, then FlushTail. Empty when nothing is held.
  std::vector<uint64_t> TailRows() const;
  void NameTailRow(uint64_t row, const ItemNames& names);
  // Names every held tail issue from the names kept as rows were sealed (the same names the
  // file read again gives), and says so; false, naming none, when they were not all kept
  // (OutputOptions::kept_names_bytes), and the runner reads the file again.
  bool NameTailFromKept();
  // The validator's final stats, with the ROW_FIELD_COUNT errors the job added: one more error
  // each; a row the validator found no error on becomes a row in error (no longer a row with a
  // warning), for the whole batch and for each channel, whose top blockers count the code too;
  // and with its ROW_FIELDS_MISSING warnings: one more warning each; a row with neither error
  // nor warning becomes a row with a warning (for the batch and each channel where it is not
  // blocked). The scores follow (Stats.score's formula). Call before FlushTail, with every
  // tail issue applied.
  void AdjustStats(validator::v1::Stats* stats) const;
  // Adds the held tail issues (named where NameTailRow was called) to the output.
  void FlushTail();
  // A new row model like the one AddRow uses, for reading the file again from its first row.
  std::unique_ptr<ingest::RowModel> NewRowModel() const;
  // Whether enough output is pending to be worth a store write: `fix_piece_bytes` of fixes, or
  // `write_issues` issues, or `write_rows` rows since the last write.
  bool WriteDue() const;
  // What to store now: the issues and fixes since the last call, the counters and the summary.
  JobWrite TakeWrite();

  int64_t issues_stored() const { return issues_stored_; }
  int64_t issues_found() const { return issues_found_; }

 private:
  struct PendingFix {
    uint64_t row;
    uint32_t column;
    const std::string* value;  // in the answer being applied
  };
  void AddIssue(const validator::v1::Issue& issue, const ItemNames& names);
  uint16_t ChannelBits(const validator::v1::Issue& issue) const;  // bits of platforms_
  // A warning's channels: those it names, or all of platforms_ when it names none.
  uint16_t WarningBits(const validator::v1::Issue& issue) const;

  const FileCheck& job_;
  OutputOptions options_;
  JobSummaryBuilder summary_;
  std::vector<std::string> field_names_;
  std::vector<size_t> columns_;  // per mapped field: column index in the header (SIZE_MAX: none)
  // The header's further columns checked as a field's (ingest::AlsoCheckedColumns), and each
  // one's index in the header: sent after the fields' values.
  std::vector<ingest::AlsoCheckedColumn> extras_;
  std::vector<size_t> extra_columns_;
  const ingest::SourceProfile* profile_ = nullptr;
  // The fewest fields of a complete record (ingest::FieldsRequired): fewer is ROW_FIELDS_MISSING.
  size_t fields_required_ = 0;
  size_t sku_column_ = SIZE_MAX;
  size_t title_column_ = SIZE_MAX;
  std::unique_ptr<ingest::RowModel> row_model_;  // what each row is and names
  struct HeldIssue {
    validator::v1::Issue issue;
    std::string sku, item_id, title;
  };
  std::vector<HeldIssue> tail_;  // by row after TailRows()
  // Each sealed row's names (sku, item_id, title), rows 1.. in order, as in RowBatch; dropped
  // (keep_names_ false) once they would pass options_.kept_names_bytes.
  bool keep_names_ = true;
  std::string kept_names_;
  std::vector<uint32_t> kept_name_ends_;
  // The rows given ROW_FIELD_COUNT or ROW_FIELDS_MISSING, with what the validator reported on
  // them (AdjustStats).
  struct RaggedRow {
    uint64_t row = 0;
    bool short_row = false;  // fewer fields than columns: ROW_FIELDS_MISSING, a warning
    bool error = false, warning = false;
    uint16_t error_channels = 0;    // bit p: its validator errors block platforms_[p]
    uint16_t warning_channels = 0;  // bit p: it has a validator warning concerning platforms_[p]
  };
  std::vector<RaggedRow> ragged_;
  std::vector<std::string> platforms_;  // the job's templates, in the order listed
  // The index in dq::kPlatforms of each of platforms_ (Issue.channel_bits' bit numbers).
  std::vector<size_t> platform_index_;
  std::vector<std::string> pending_issues_;
  std::string pending_fixes_;            // cleaned_file.h's encoding
  std::vector<PendingFix> chunk_fixes_;  // the answer being applied, sorted by row
  uint64_t rows_sent_ = 0;
  int64_t rows_done_ = 0;
  int64_t rows_written_ = 0;  // rows_done_ at the last TakeWrite
  int64_t issues_stored_ = 0;
  int64_t issues_found_ = 0;
};

}  // namespace dq::report
