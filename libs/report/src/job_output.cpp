#include "dq/report/job_output.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "dq/report/cleaned_file.h"
#include "dq/common/json_escape.h"
#include "dq/common/platform_list.h"
#include "dq/common/vocabulary.h"
#include "dq/ingest/mapping_inference.h"

#include <nlohmann/json.hpp>

namespace dq::report {
namespace {

// The stored conventions (check_plan_json.h, ConventionsJson) into the spec.
// Stats.score's formula (validator.proto): round(100 * (rows - errors - warnings / 2) / rows).
uint32_t Score(uint64_t rows, uint64_t rows_error, uint64_t rows_warning) {
  if (rows == 0) return 100;
  const double v = 100.0 * (static_cast<double>(rows) - static_cast<double>(rows_error) -
                            0.5 * static_cast<double>(rows_warning)) /
                   static_cast<double>(rows);
  return static_cast<uint32_t>(std::lround(std::clamp(v, 0.0, 100.0)));
}

// More fields than the header has columns: an error (values sit under the wrong columns, or
// would be lost). Fewer: a warning (the missing trailing cells are read as empty, as a
// spreadsheet or the platform's importer reads them). Issue 31.
constexpr std::string_view kFieldCountCode = "ROW_FIELD_COUNT";
constexpr std::string_view kFieldsMissingCode = "ROW_FIELDS_MISSING";

void AddConventions(const std::string& text, validator::v1::BatchSpec& spec) {
  const nlohmann::json all = nlohmann::json::parse(text, nullptr, false);
  if (!all.is_array()) return;
  for (const auto& c : all) {
    if (!c.is_object() || !c.contains("field") || !c["field"].is_string()) continue;
    auto* conv = spec.add_conventions();
    conv->set_field(c["field"].get<std::string>());
    if (c.contains("list_separator") && c["list_separator"].is_string()) {
      conv->set_list_separator(c["list_separator"].get<std::string>());
    }
    if (c.contains("value_aliases") && c["value_aliases"].is_object()) {
      for (const auto& [from, to] : c["value_aliases"].items()) {
        if (to.is_string()) (*conv->mutable_value_aliases())[from] = to.get<std::string>();
      }
    }
    if (c.contains("own_number_format") && c["own_number_format"].is_boolean()) {
      conv->set_own_number_format(c["own_number_format"].get<bool>());
    }
    if (c.contains("html") && c["html"].is_boolean()) conv->set_html(c["html"].get<bool>());
    if (c.contains("may_be_empty") && c["may_be_empty"].is_boolean()) {
      conv->set_may_be_empty(c["may_be_empty"].get<bool>());
    }
    if (c.contains("zero_is_empty") && c["zero_is_empty"].is_boolean()) {
      conv->set_zero_is_empty(c["zero_is_empty"].get<bool>());
    }
    if (c.contains("file_extensions") && c["file_extensions"].is_array()) {
      for (const auto& ext : c["file_extensions"]) {
        if (ext.is_string()) conv->add_file_extensions(ext.get<std::string>());
      }
    }
    if (c.contains("empty_values") && c["empty_values"].is_array()) {
      for (const auto& v : c["empty_values"]) {
        if (v.is_string()) conv->add_empty_values(v.get<std::string>());
      }
    }
    if (c.contains("renamed_file_names") && c["renamed_file_names"].is_boolean()) {
      conv->set_renamed_file_names(c["renamed_file_names"].get<bool>());
    }
  }
}

}  // namespace

JobOutput::JobOutput(const FileCheck& job, OutputOptions options)
    : job_(job), options_(options) {
  for (const auto& [field, column] : job.mapping) {
    size_t index = SIZE_MAX;
    for (size_t i = 0; i < job.header.size(); ++i) {
      if (job.header[i] == column) index = i;
    }
    field_names_.push_back(field);
    columns_.push_back(index);
    if (field == "sku") sku_column_ = index;
    if (field == "title") title_column_ = index;
  }
  if (auto list = ParsePlatformList(job.platform); list.ok()) {
    for (size_t i : *list) {
      platforms_.emplace_back(kPlatforms[i]);
      platform_index_.push_back(i);
    }
  }
  profile_ = ingest::FindSourceProfile(job.source);
  if (profile_ == nullptr) profile_ = &ingest::GenericProfile();  // jobs stored before sources
  extras_ = ingest::AlsoCheckedColumns(*profile_, job.header, job.mapping);
  for (const ingest::AlsoCheckedColumn& e : extras_) {
    size_t index = SIZE_MAX;
    for (size_t i = 0; i < job.header.size(); ++i) {
      if (job.header[i] == e.column) index = i;
    }
    extra_columns_.push_back(index);
  }
  row_model_ = NewRowModel();
  fields_required_ = ingest::FieldsRequired(*profile_, job.header);
}

std::unique_ptr<ingest::RowModel> JobOutput::NewRowModel() const {
  return std::make_unique<ingest::RowModel>(*profile_, job_.header, sku_column_, title_column_);
}

validator::v1::BatchSpec JobOutput::Spec() const {
  validator::v1::BatchSpec spec;
  for (const auto& f : field_names_) spec.add_fields(f);
  for (CheckType t : job_.check_types.types()) spec.add_check_types(std::string(CheckTypeName(t)));
  spec.set_platform(job_.platform);
  // Each issue's channels as one integer (Issue.channel_bits), as the inline path asks; a
  // validator that predates the field still sends names, which ChannelBits and the issue JSON
  // writer read as before.
  spec.set_channel_bits(true);
  spec.set_source(job_.source);
  if (job_.planned) {  // decided at upload (ingest/check_plan.h)
    spec.set_weight_unit(job_.weight_unit);
    AddConventions(job_.conventions, spec);
    spec.set_gtin_padding_evidence(job_.gtin_padding_evidence);
  } else {
    for (const auto& [field, column] : job_.mapping) {  // "Weight (kg)": bare numbers are kg
      if (field == "weight") spec.set_weight_unit(ingest::WeightUnitOfColumn(column));
    }
  }
  spec.set_expiry_date_order(job_.expiry_date_order);  // learnt from the whole file at upload
  AddExtraColumns(extras_, spec);  // their values follow the fields'
  return spec;
}

void JobOutput::AddRow(std::span<const std::string_view> row, RowBatch& batch,
                       validator::v1::RowChunk* chunk, uint64_t fields_read) {
  // A record that stops before the profile's trailing columns only is complete (PrestaShop).
  if (fields_read != 0 && fields_read != job_.header.size() &&
      (fields_read > job_.header.size() || fields_read < fields_required_)) {
    batch.ragged.emplace_back(static_cast<uint32_t>(batch.rows()), fields_read);
  }
  // Packed (see validator.proto): the chunk's text in one buffer, its lengths in another.
  auto* packed = chunk->mutable_packed();
  if (batch.rows() == 0) {
    packed->mutable_data()->clear();  // keeps its capacity: a steady stream allocates nothing
    packed->clear_lengths();
  }
  std::string* data = packed->mutable_data();
  auto* lengths = packed->mutable_lengths();
  for (const std::vector<size_t>* columns : {&columns_, &extra_columns_}) {
    for (size_t c : *columns) {
      const std::string_view cell = c < row.size() ? row[c] : std::string_view();
      data->append(cell);
      lengths->Add(static_cast<uint32_t>(cell.size()));
    }
  }
  batch.widths.push_back(static_cast<uint32_t>(row.size()));
  // What the row is, and the item it names (sent only when some row is not a product).
  const ingest::RowKind kind = row_model_->Next(row);
  if (!row_model_->all_products()) {
    if (batch.rows() == 1) packed->clear_kinds();
    packed->add_kinds(static_cast<validator::v1::RowKind>(kind));
    if (const auto back = row_model_->revised(); back && *back < batch.rows()) {
      packed->set_kinds(static_cast<int>(batch.rows() - 1 - *back),
                        validator::v1::ROW_KIND_PRODUCT);
    }
  }
  for (std::string_view name : {row_model_->sku(), row_model_->item_id(), row_model_->title()}) {
    batch.names.append(name);
    batch.name_ends.push_back(static_cast<uint32_t>(batch.names.size()));
  }
}

void JobOutput::EndRows(RowBatch& batch, validator::v1::RowChunk* chunk) {
  const auto back = row_model_->End();
  if (!back || *back >= batch.rows() || row_model_->all_products()) return;
  chunk->mutable_packed()->set_kinds(static_cast<int>(batch.rows() - 1 - *back),
                                     validator::v1::ROW_KIND_PRODUCT);
}

void JobOutput::Seal(RowBatch& batch, validator::v1::RowChunk* chunk) {
  auto* packed = chunk->mutable_packed();
  packed->set_rows(static_cast<uint32_t>(batch.rows()));
  packed->set_width(static_cast<uint32_t>(columns_.size() + extra_columns_.size()));
  batch.first_row = rows_sent_ + 1;
  rows_sent_ += batch.rows();
  if (keep_names_) {
    const size_t bytes = kept_names_.size() + batch.names.size() +
                         sizeof(uint32_t) * (kept_name_ends_.size() + batch.name_ends.size());
    if (bytes > options_.kept_names_bytes) {
      keep_names_ = false;
      std::string().swap(kept_names_);
      std::vector<uint32_t>().swap(kept_name_ends_);
    } else {
      const auto base = static_cast<uint32_t>(kept_names_.size());
      kept_names_.append(batch.names);
      for (uint32_t end : batch.name_ends) kept_name_ends_.push_back(base + end);
    }
  }
}

void JobOutput::AddIssue(const validator::v1::Issue& issue, const ItemNames& names) {
  ++issues_found_;
  summary_.Add(issue);
  if (issues_stored_ < options_.max_stored_issues) {
    pending_issues_.push_back(IssueJson(++issues_stored_, issue, names, !job_.platform.empty()));
  }
}

void JobOutput::Apply(const validator::v1::IssueChunk& answer, const RowBatch& batch) {
  chunk_fixes_.clear();
  // What the validator reported on each ragged row (one pass: issues and rows are in order).
  std::vector<RaggedRow> seen(batch.ragged.size());
  {
    size_t k = 0;
    for (const auto& i : answer.issues()) {
      while (k < seen.size() && batch.first_row + batch.ragged[k].first < i.row()) ++k;
      if (k == seen.size()) break;
      if (batch.first_row + batch.ragged[k].first != i.row()) continue;
      RaggedRow& r = seen[k];
      if (i.severity() == validator::v1::SEVERITY_ERROR) {
        r.error = true;
        r.error_channels |= ChannelBits(i);
      } else {
        r.warning = true;
        r.warning_channels |= WarningBits(i);
      }
    }
  }
  // A row's ROW_FIELD_COUNT comes first among its issues.
  size_t next_ragged = 0;
  auto add_ragged_before = [&](uint64_t row) {
    for (; next_ragged < batch.ragged.size(); ++next_ragged) {
      const uint32_t r = batch.ragged[next_ragged].first;
      const uint64_t fields = batch.ragged[next_ragged].second;
      const uint64_t number = batch.first_row + r;
      if (number >= row) break;
      const uint64_t columns = job_.header.size();
      seen[next_ragged].row = number;
      seen[next_ragged].short_row = fields < columns;
      ragged_.push_back(seen[next_ragged]);
      validator::v1::Issue issue;
      issue.set_row(number);
      issue.set_field("row");
      if (fields < columns) {
        const uint64_t missing = columns - fields;
        issue.set_severity(validator::v1::SEVERITY_WARNING);
        issue.set_code(std::string(kFieldsMissingCode));
        issue.set_message("Row has " + std::to_string(fields) + " fields; the header has " +
                          std::to_string(columns) + " columns: the last " +
                          (missing == 1 ? std::string("one, '") + job_.header.back() + "', was"
                                        : std::to_string(missing) + ", from '" +
                                              job_.header[fields] + "' on, were") +
                          " read as empty");
      } else {
        issue.set_severity(validator::v1::SEVERITY_ERROR);
        issue.set_code(std::string(kFieldCountCode));
        issue.set_message("Row has " + std::to_string(fields) + " fields; the header has " +
                          std::to_string(columns) + " columns");
        for (const std::string& p : platforms_) issue.add_channels(p);
      }
      AddIssue(issue, {batch.Name(r, 0), batch.Name(r, 1), batch.Name(r, 2)});
    }
  };
  for (const auto& i : answer.issues()) {
    add_ragged_before(i.row() + 1);
    ItemNames names;
    if (i.row() >= batch.first_row && i.row() < batch.first_row + batch.rows()) {
      const size_t r = static_cast<size_t>(i.row() - batch.first_row);
      names = {batch.Name(r, 0), batch.Name(r, 1), batch.Name(r, 2)};
    }
    AddIssue(i, names);
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
  add_ragged_before(UINT64_MAX);
  // By row, and within a row in the order they were made (the last fix of a cell wins).
  std::stable_sort(chunk_fixes_.begin(), chunk_fixes_.end(),
                   [](const PendingFix& a, const PendingFix& b) { return a.row < b.row; });
  for (const PendingFix& f : chunk_fixes_) AppendFix(pending_fixes_, f.row, f.column, *f.value);
  rows_done_ += static_cast<int64_t>(batch.rows());
}

void JobOutput::ApplyTail(const validator::v1::IssueChunk& answer) {
  for (const auto& i : answer.issues()) tail_.push_back({i, {}, {}, {}});
}

std::vector<uint64_t> JobOutput::TailRows() const {
  std::vector<uint64_t> rows;
  for (const HeldIssue& h : tail_) rows.push_back(h.issue.row());
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

void JobOutput::NameTailRow(uint64_t row, const ItemNames& names) {
  for (HeldIssue& h : tail_) {
    if (h.issue.row() != row) continue;
    h.sku.assign(names.sku);
    h.item_id.assign(names.item_id);
    h.title.assign(names.title);
  }
}

bool JobOutput::NameTailFromKept() {
  if (!keep_names_) return false;
  const uint64_t kept_rows = kept_name_ends_.size() / 3;
  for (const HeldIssue& h : tail_) {
    if (h.issue.row() > kept_rows) return false;
  }
  const std::string_view names(kept_names_);
  auto name = [&](uint64_t row, size_t k) {
    const size_t i = 3 * static_cast<size_t>(row - 1) + k;
    const uint32_t begin = i == 0 ? 0 : kept_name_ends_[i - 1];
    return names.substr(begin, kept_name_ends_[i] - begin);
  };
  for (HeldIssue& h : tail_) {
    if (h.issue.row() == 0) continue;  // about no row: no names (the file's rows start at 1)
    h.sku.assign(name(h.issue.row(), 0));
    h.item_id.assign(name(h.issue.row(), 1));
    h.title.assign(name(h.issue.row(), 2));
  }
  return true;
}

uint16_t JobOutput::WarningBits(const validator::v1::Issue& issue) const {
  // A warning that names no channel concerns them all (validator ChannelTally).
  const uint16_t bits = ChannelBits(issue);
  return bits != 0 ? bits : static_cast<uint16_t>((1u << std::min<size_t>(platforms_.size(), 16)) - 1);
}

uint16_t JobOutput::ChannelBits(const validator::v1::Issue& issue) const {
  uint16_t bits = 0;
  if (const uint32_t wire = issue.channel_bits(); wire != 0) {  // bit i: kPlatforms[i]
    for (size_t p = 0; p < platform_index_.size() && p < 16; ++p) {
      if (wire & (uint32_t{1} << platform_index_[p])) bits |= static_cast<uint16_t>(1u << p);
    }
  }
  for (const auto& c : issue.channels()) {
    for (size_t p = 0; p < platforms_.size() && p < 16; ++p) {
      if (platforms_[p] == c) bits |= static_cast<uint16_t>(1u << p);
    }
  }
  return bits;
}

void JobOutput::AdjustStats(validator::v1::Stats* stats) const {
  if (ragged_.empty()) return;
  // The tail (batch-level) issues on ragged rows count too.
  std::vector<RaggedRow> rows = ragged_;
  std::unordered_map<uint64_t, size_t> index;
  for (size_t k = 0; k < rows.size(); ++k) index.emplace(rows[k].row, k);
  for (const HeldIssue& h : tail_) {
    auto it = index.find(h.issue.row());
    if (it == index.end()) continue;
    RaggedRow& r = rows[it->second];
    if (h.issue.severity() == validator::v1::SEVERITY_ERROR) {
      r.error = true;
      r.error_channels |= ChannelBits(h.issue);
    } else {
      r.warning = true;
      r.warning_channels |= WarningBits(h.issue);
    }
  }
  // Long rows (ROW_FIELD_COUNT, an error) block their row; short rows (ROW_FIELDS_MISSING, a
  // warning) make a row with no error or warning yet a row with a warning.
  uint64_t n = 0, short_rows = 0;
  uint64_t new_errors = 0, lost_warnings = 0, new_warnings = 0;
  std::vector<uint64_t> channel_new(stats->channels_size(), 0);
  std::vector<uint64_t> channel_lost_warnings(stats->channels_size(), 0);
  std::vector<uint64_t> channel_new_warnings(stats->channels_size(), 0);
  for (const RaggedRow& r : rows) {
    if (r.short_row) {
      ++short_rows;
      if (!r.error && !r.warning) ++new_warnings;
    } else {
      ++n;
      if (!r.error) {
        ++new_errors;
        if (r.warning) ++lost_warnings;
      }
    }
    for (int c = 0; c < stats->channels_size(); ++c) {
      uint16_t bit = 0;
      for (size_t p = 0; p < platforms_.size() && p < 16; ++p) {
        if (platforms_[p] == stats->channels(c).platform()) bit = static_cast<uint16_t>(1u << p);
      }
      if ((r.error_channels & bit) != 0) continue;  // already blocked there
      const bool warned = (r.warning_channels & bit) != 0;
      if (r.short_row) {
        if (!warned) ++channel_new_warnings[c];
        continue;
      }
      ++channel_new[c];
      if (warned) ++channel_lost_warnings[c];
    }
  }
  stats->set_errors(stats->errors() + n);
  stats->set_warnings(stats->warnings() + short_rows);
  stats->set_rows_error(stats->rows_error() + new_errors);
  stats->set_rows_warning(stats->rows_warning() + new_warnings -
                          std::min(stats->rows_warning() + new_warnings, lost_warnings));
  for (int c = 0; c < stats->channels_size(); ++c) {
    auto* ch = stats->mutable_channels(c);
    const uint64_t moved = std::min(ch->ready(), channel_new[c]);
    ch->set_ready(ch->ready() - moved);
    ch->set_blocked(ch->blocked() + moved);
    const uint64_t warned = ch->rows_warning() + channel_new_warnings[c];
    ch->set_rows_warning(warned - std::min(warned, channel_lost_warnings[c]));
    ch->set_score(Score(stats->rows(), ch->blocked(), ch->rows_warning()));
    if (n == 0) continue;
    // The top blockers, with this code (it blocks every long row): most rows first, at most
    // five; on a tie the validator's codes stay first.
    std::vector<std::pair<std::string, uint64_t>> top;
    for (const auto& b : ch->top_blockers()) top.emplace_back(b.code(), b.rows());
    top.emplace_back(std::string(kFieldCountCode), n);
    std::stable_sort(top.begin(), top.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (top.size() > 5) top.resize(5);
    ch->clear_top_blockers();
    for (const auto& [code, count] : top) {
      auto* b = ch->add_top_blockers();
      b->set_code(code);
      b->set_rows(count);
    }
  }
  // With templates the score is the first listed one's (validator.proto, Stats.score).
  if (stats->channels_size() > 0) {
    stats->set_score(stats->channels(0).score());
  } else {
    stats->set_score(Score(stats->rows(), stats->rows_error(), stats->rows_warning()));
  }
}

void JobOutput::FlushTail() {
  for (const HeldIssue& h : tail_) AddIssue(h.issue, {h.sku, h.item_id, h.title});
  tail_.clear();
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

void AddExtraColumns(std::span<const ingest::AlsoCheckedColumn> extras,
                     validator::v1::BatchSpec& spec) {
  for (const ingest::AlsoCheckedColumn& e : extras) {
    auto* extra = spec.add_extra_columns();
    extra->set_field(e.field);
    extra->set_column(e.column);
    if (e.convention != nullptr) {
      extra->set_list_separator(e.convention->list_separator);
      for (const std::string& ext : e.convention->file_extensions) extra->add_file_extensions(ext);
      for (const std::string& v : e.convention->empty_values) extra->add_empty_values(v);
      extra->set_renamed_file_names(e.convention->renamed_file_names);
    }
  }
}

}  // namespace dq::report
