#include "dq/report/job_output.h"

#include <algorithm>

#include "dq/report/cleaned_file.h"
#include "dq/ingest/mapping_inference.h"

namespace dq::report {

JobOutput::JobOutput(const FileCheck& job, OutputOptions options)
    : job_(job), options_(options) {
  for (const auto& [field, column] : job.mapping) {
    size_t index = SIZE_MAX;
    for (size_t i = 0; i < job.header.size(); ++i) {
      if (job.header[i] == column) index = i;
    }
    field_names_.push_back(field);
    columns_.push_back(index);
  }
}

validator::v1::BatchSpec JobOutput::Spec() const {
  validator::v1::BatchSpec spec;
  for (const auto& f : field_names_) spec.add_fields(f);
  size_t start = 0;
  const std::string& types = job_.check_types;
  while (start <= types.size()) {
    const size_t comma = types.find(',', start);
    spec.add_check_types(
        types.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  spec.set_platform(job_.platform);
  for (const auto& [field, column] : job_.mapping) {  // "Weight (kg)": bare numbers are kg
    if (field == "weight") spec.set_weight_unit(ingest::WeightUnitOfColumn(column));
  }
  spec.set_expiry_date_order(job_.expiry_date_order);  // learnt from the whole file at upload
  return spec;
}

void JobOutput::AddRow(std::span<const std::string_view> row, RowBatch& batch,
                       validator::v1::RowChunk* chunk) {
  // Packed (see validator.proto): the chunk's text in one buffer, its lengths in another.
  auto* packed = chunk->mutable_packed();
  if (batch.rows() == 0) {
    packed->mutable_data()->clear();  // keeps its capacity: a steady stream allocates nothing
    packed->clear_lengths();
  }
  std::string* data = packed->mutable_data();
  auto* lengths = packed->mutable_lengths();
  for (size_t c : columns_) {
    const std::string_view cell = c < row.size() ? row[c] : std::string_view();
    data->append(cell);
    lengths->Add(static_cast<uint32_t>(cell.size()));
  }
  batch.widths.push_back(static_cast<uint32_t>(row.size()));
}

void JobOutput::Seal(RowBatch& batch, validator::v1::RowChunk* chunk) {
  auto* packed = chunk->mutable_packed();
  packed->set_rows(static_cast<uint32_t>(batch.rows()));
  packed->set_width(static_cast<uint32_t>(columns_.size()));
  batch.first_row = rows_sent_ + 1;
  rows_sent_ += batch.rows();
}

void JobOutput::AddIssue(const validator::v1::Issue& issue) {
  ++issues_found_;
  summary_.Add(issue);
  if (issues_stored_ < options_.max_stored_issues) {
    pending_issues_.push_back(IssueJson(++issues_stored_, issue));
  }
}

void JobOutput::Apply(const validator::v1::IssueChunk& answer, const RowBatch& batch) {
  chunk_fixes_.clear();
  for (const auto& i : answer.issues()) {
    AddIssue(i);
    if (!i.has_fixed_value() || i.row() < batch.first_row ||
        i.row() >= batch.first_row + batch.rows()) {
      continue;
    }
    const size_t r = static_cast<size_t>(i.row() - batch.first_row);
    for (size_t k = 0; k < field_names_.size(); ++k) {
      if (field_names_[k] != i.field() || columns_[k] >= batch.Width(r)) continue;
      chunk_fixes_.push_back({i.row(), static_cast<uint32_t>(columns_[k]), &i.fixed_value()});
    }
  }
  // By row, and within a row in the order they were made (the last fix of a cell wins).
  std::stable_sort(chunk_fixes_.begin(), chunk_fixes_.end(),
                   [](const PendingFix& a, const PendingFix& b) { return a.row < b.row; });
  for (const PendingFix& f : chunk_fixes_) AppendFix(pending_fixes_, f.row, f.column, *f.value);
  rows_done_ += static_cast<int64_t>(batch.rows());
}

void JobOutput::ApplyTail(const validator::v1::IssueChunk& answer) {
  for (const auto& i : answer.issues()) AddIssue(i);
}

bool JobOutput::WriteDue() const {
  return pending_fixes_.size() >= options_.fix_piece_bytes ||
         pending_issues_.size() >= options_.write_issues ||
         rows_done_ - rows_written_ >= options_.write_rows;
}

JobWrite JobOutput::TakeWrite() {
  rows_written_ = rows_done_;
  JobWrite w;
  w.issues = std::move(pending_issues_);
  pending_issues_.clear();
  w.fixes = std::move(pending_fixes_);
  pending_fixes_.clear();
  w.rows_done = rows_done_;
  w.issues_stored = issues_stored_;
  w.issues_found = issues_found_;
  w.summary_json = summary_.Json();
  return w;
}

}  // namespace dq::report
