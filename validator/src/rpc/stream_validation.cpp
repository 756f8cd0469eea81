#include "stream_validation.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/text.h"
#include "convert.h"

namespace dq::validator::rpc {
namespace {

using Rows = google::protobuf::RepeatedPtrField<v1::Row>;

// The most rows one packed message may claim. The gateway sends 4,096 a chunk and at most the
// validate call's record limit; with no mapped value a row costs no bytes, so the count itself
// must be bounded.
constexpr size_t kMaxPackedRows = 1u << 20;

// The values a record carries without a value_index: the fields', then the extra columns'.
size_t Width(const BatchSpec& spec) { return spec.columns.size() + spec.extras.size(); }

Status BadRows(std::string message) { return Status(ErrorCode::kInvalidRequest, std::move(message)); }

// The rows of a request or chunk, checked, as a count and readers for the Session: of a whole
// row, and of one value (for the pass that looks at one column).
struct RowsIn {
  size_t count = 0;
  Session::RowReader read;
  Session::ValueReader value;
  std::vector<RowKind> kinds;  // one per row, or empty when every row is a product
};

// A RowKind from the wire (proto3 keeps numbers it does not know), or nullopt.
std::optional<RowKind> KindOf(int kind) {
  if (kind < 0 || kind >= static_cast<int>(kRowKindCount)) return std::nullopt;
  return static_cast<RowKind>(kind);
}

std::string UnknownKind(uint64_t row, int kind) {
  return "row " + std::to_string(row) + " has the unknown kind " + std::to_string(kind) +
         "; a row is a product (0), variant (1), parent (2) or image (3)";
}

// The kinds of packed rows: checked, and left empty when every row is a product.
Result<std::vector<RowKind>> PackedKinds(const v1::PackedRows& packed, uint64_t rows_before) {
  std::vector<RowKind> kinds;
  if (packed.kinds_size() == 0) return kinds;
  if (static_cast<size_t>(packed.kinds_size()) != packed.rows()) {
    return BadRows("packed rows: " + std::to_string(packed.kinds_size()) + " kinds for " +
                   std::to_string(packed.rows()) + " rows; send one kind a row, or none");
  }
  bool all_products = true;
  for (int i = 0; i < packed.kinds_size(); ++i) {
    const auto kind = KindOf(packed.kinds(i));
    if (!kind) return BadRows("packed rows: " + UnknownKind(rows_before + i + 1, packed.kinds(i)));
    all_products = all_products && *kind == RowKind::kProduct;
  }
  if (all_products) return kinds;
  kinds.reserve(static_cast<size_t>(packed.kinds_size()));
  for (int k : packed.kinds()) kinds.push_back(static_cast<RowKind>(k));
  return kinds;
}

// Checks that each row has exactly one value per field and extra column (width) or, with a
// value_index, at least one value past the highest index.
Result<RowsIn> ReadRows(const v1::BatchSpec& spec, size_t width, const Rows& rows,
                        const v1::PackedRows& packed, uint64_t rows_before) {
  const auto& index = spec.value_index();
  size_t needed = width;
  if (!index.empty()) {
    needed = 0;
    for (uint32_t k : index) needed = std::max<size_t>(needed, size_t{k} + 1);
  }
  auto wrong_count = [&](uint64_t row, size_t n) {
    return BadRows("row " + std::to_string(rows_before + row + 1) + " has " + std::to_string(n) +
                   " values for " + std::to_string(needed) +
                   (!index.empty()                    ? " indexed values"
                    : spec.extra_columns_size() == 0 ? " fields"
                                                      : " fields and extra columns"));
  };
  if (packed.rows() > 0 || packed.lengths_size() > 0 || !packed.data().empty()) {
    if (!rows.empty()) return BadRows("rows and packed rows in one message; send one of them");
    const size_t n = packed.width();
    if (index.empty() ? n != width : n < needed) return wrong_count(0, n);
    const size_t count = packed.rows();
    if (count > kMaxPackedRows) {
      return BadRows("packed rows: " + std::to_string(count) + " rows in one message; at most " +
                     std::to_string(kMaxPackedRows));
    }
    if (static_cast<size_t>(packed.lengths_size()) != count * n) {
      return BadRows("packed rows: " + std::to_string(packed.lengths_size()) + " lengths for " +
                     std::to_string(count) + " rows of " + std::to_string(n));
    }
    // Where each row starts in data; a row's values follow one another. Shared by both readers.
    auto shared_starts = std::make_shared<std::vector<size_t>>(count + 1, 0);
    std::vector<size_t>& starts = *shared_starts;
    size_t at = 0;
    for (size_t r = 0; r < count; ++r) {
      starts[r] = at;
      for (size_t c = 0; c < n; ++c) at += packed.lengths(static_cast<int>(r * n + c));
    }
    starts[count] = at;
    if (at != packed.data().size()) {
      return BadRows("packed rows: the lengths add up to " + std::to_string(at) +
                     " bytes, the data has " + std::to_string(packed.data().size()));
    }
    if (!text::IsValidUtf8(packed.data())) return BadRows("packed rows: data is not UTF-8");
    auto kinds = PackedKinds(packed, rows_before);
    if (!kinds.ok()) return kinds.status();
    const std::string_view data = packed.data();
    // Value k of row i: its column's offset is the row's start plus the lengths before it.
    auto value = [&packed, &index, data, n, shared_starts](size_t i,
                                                           size_t k) -> std::string_view {
      const size_t column = index.empty() ? k : index[static_cast<int>(k)];
      if (column >= n) return {};
      size_t from = (*shared_starts)[i];
      const int first = static_cast<int>(i * n);
      for (size_t c = 0; c < column; ++c) from += packed.lengths(first + static_cast<int>(c));
      return data.substr(from, packed.lengths(first + static_cast<int>(column)));
    };
    // Reads only: called from several threads at once.
    return RowsIn{count, [&packed, &index, data, n, shared_starts](
                             size_t i, std::vector<std::string_view>& values) {
                    values.clear();
                    size_t from = (*shared_starts)[i];
                    const int first = static_cast<int>(i * n);
                    for (size_t c = 0; c < n; ++c) {
                      const uint32_t len = packed.lengths(first + static_cast<int>(c));
                      values.push_back(data.substr(from, len));
                      from += len;
                    }
                    if (!index.empty()) {
                      // Indexed: pick the fields' values out of the row's (several fields may
                      // share one). Views, so the shuffle copies no text.
                      thread_local std::vector<std::string_view> all;
                      all.swap(values);
                      values.clear();
                      for (uint32_t k : index) values.push_back(all[k]);
                    }
                  },
                  std::move(value), std::move(*kinds)};
  }
  bool all_products = true;
  for (int i = 0; i < rows.size(); ++i) {
    const size_t n = static_cast<size_t>(rows[i].values_size());
    if (index.empty() ? n != width : n < needed) return wrong_count(static_cast<uint64_t>(i), n);
    const auto kind = KindOf(rows[i].kind());
    if (!kind) return BadRows(UnknownKind(rows_before + i + 1, rows[i].kind()));
    all_products = all_products && *kind == RowKind::kProduct;
  }
  std::vector<RowKind> kinds;
  if (!all_products) {
    kinds.reserve(static_cast<size_t>(rows.size()));
    for (const v1::Row& row : rows) kinds.push_back(static_cast<RowKind>(row.kind()));
  }
  // Reads only: called from several threads at once.
  return RowsIn{static_cast<size_t>(rows.size()),
                [&rows, &index](size_t i, std::vector<std::string_view>& values) {
                  const v1::Row& row = rows[static_cast<int>(i)];
                  if (index.empty()) {
                    values.assign(row.values().begin(), row.values().end());
                  } else {
                    values.clear();
                    for (uint32_t k : index) values.emplace_back(row.values(static_cast<int>(k)));
                  }
                },
                [&rows, &index](size_t i, size_t k) -> std::string_view {
                  const v1::Row& row = rows[static_cast<int>(i)];
                  const size_t column = index.empty() ? k : index[static_cast<int>(k)];
                  if (column >= static_cast<size_t>(row.values_size())) return {};
                  return row.values(static_cast<int>(column));
                },
                std::move(kinds)};
}

}  // namespace

Result<std::unique_ptr<StreamValidation>> StreamValidation::Start(const ReferenceData& ref,
                                                                  const v1::BatchSpec& spec,
                                                                  WorkerPool* pool) {
  auto engine_spec = FromProto(spec);
  if (!engine_spec.ok()) return engine_spec.status();
  return std::unique_ptr<StreamValidation>(
      new StreamValidation(ref, std::move(*engine_spec), spec, pool));
}

Result<StreamValidation::Checked> StreamValidation::Check(const v1::RowChunk& chunk,
                                                          uint64_t rows_before) const {
  auto read = ReadRows(proto_spec_, Width(session_.spec()), chunk.rows(), chunk.packed(),
                       rows_before);
  if (!read.ok()) return read.status();
  const dates::DateOrder observed = session_.ObserveRows(read->count, read->value);
  return Checked{read->count, std::move(read->read), observed, std::move(read->kinds)};
}

Status StreamValidation::Begin(const v1::RowChunk& chunk) {
  auto checked = Check(chunk, session_.rows_begun());
  if (!checked.ok()) return checked.status();
  Begin(std::move(*checked));
  return Status::Ok();
}

void StreamValidation::Begin(Checked checked) {
  session_.BeginRows(checked.rows, std::move(checked.read), checked.observed,
                     std::move(checked.kinds));
  ++open_;
}

void StreamValidation::End(v1::IssueChunk* out) {
  out->Clear();
  if (open_ > 0) {
    auto* issues = out->mutable_issues();
    const bool bits = proto_spec_.channel_bits();
    session_.EndRows(
        [issues, bits](Issue&& issue) { ToProto(std::move(issue), issues->Add(), bits); });
    --open_;
  }
  out->set_rows_done(session_.rows());
}

void StreamValidation::Finish(v1::IssueChunk* issues, v1::Stats* stats) {
  issues->Clear();
  while (open_ > 0) {  // chunks still open (never, when used as documented)
    v1::IssueChunk chunk;
    End(&chunk);
    issues->mutable_issues()->MergeFrom(chunk.issues());
  }
  issues->set_rows_done(session_.rows());
  std::vector<Issue> batch;
  session_.Finish(batch);
  for (const Issue& i : batch) ToProto(i, issues->add_issues(), proto_spec_.channel_bits());
  ToProto(session_.stats(), stats);
}

Status CheckBatch(const ReferenceData& ref, const v1::ValidateRequest& request,
                  BatchAnswer* answer) {
  auto spec = FromProto(request.spec());
  if (!spec.ok()) return spec.status();
  Session session(ref, std::move(*spec));
  auto read = ReadRows(request.spec(), Width(session.spec()), request.rows(),
                       request.packed(), 0);
  if (!read.ok()) return read.status();
  std::vector<Issue>& issues = answer->issues;
  issues.clear();
  const dates::DateOrder observed = session.ObserveRows(read->count, read->value);
  session.BeginRows(read->count, std::move(read->read), observed, std::move(read->kinds));
  session.EndRows([&issues](Issue&& issue) { issues.push_back(std::move(issue)); });
  const auto rows_end = static_cast<std::ptrdiff_t>(issues.size());
  session.Finish(issues);
  // Batch-level issues come last; the response is ordered by row. The rows' issues come in row
  // order already, so only the batch-level ones (few, or none) are merged in, as a stable sort
  // would place them: after the rows' issues of the same row.
  auto by_row = [](const Issue& a, const Issue& b) { return a.row < b.row; };
  const auto mid = issues.begin() + rows_end;
  if (std::is_sorted(issues.begin(), mid, by_row) && std::is_sorted(mid, issues.end(), by_row)) {
    if (mid != issues.end()) std::inplace_merge(issues.begin(), mid, issues.end(), by_row);
  } else {
    std::stable_sort(issues.begin(), issues.end(), by_row);
  }
  // The answer is bounded before it is built: values of tens of KB mapped to many fields make
  // an issue list far larger than the request (the gateway's channel takes at most 64 MiB).
  size_t answer_bytes = 0;
  for (const Issue& i : issues) {
    answer_bytes += i.original.size() + (i.fixed ? i.fixed->size() : 0) + i.Message().size() + 64;
  }
  if (answer_bytes > kMaxAnswerBytes) {
    issues.clear();
    return Status(ErrorCode::kPayloadTooLarge,
                  "the answer would be about " + std::to_string(answer_bytes >> 20) +
                      " MiB, over the " + std::to_string(kMaxAnswerBytes >> 20) +
                      " MiB an answer may carry");
  }
  answer->stats = session.stats();
  answer->channel_bits = request.spec().channel_bits();
  return Status::Ok();
}

Status ValidateBatch(const ReferenceData& ref, const v1::ValidateRequest& request,
                     v1::ValidateResponse* response) {
  BatchAnswer answer;
  if (Status s = CheckBatch(ref, request, &answer); !s.ok()) return s;
  response->mutable_issues()->Reserve(static_cast<int>(answer.issues.size()));
  for (Issue& i : answer.issues) ToProto(std::move(i), response->add_issues(), answer.channel_bits);
  ToProto(answer.stats, response->mutable_stats());
  return Status::Ok();
}

}  // namespace dq::validator::rpc
