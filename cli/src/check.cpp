#include "check.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "dq/ingest/mapping_inference.h"
#include "dq/report/check_stream.h"
#include "dq/report/cleaned_file.h"
#include "dq/report/issue_json.h"
#include "engine/worker_pool.h"
#include "in_process_validator.h"

namespace dq::offline {
namespace {

namespace v1 = validator::v1;

void Tally(CheckOutcome& outcome, const v1::Issue& i) {
  const bool error = i.severity() == v1::SEVERITY_ERROR;
  CodeTally& t = outcome.codes[{error ? "error" : "warning", i.code(), i.field()}];
  ++t.count;
  if (t.examples.size() < CheckOutcome::kExamples) {
    t.examples.push_back({i.row(), i.original_value(),
                          i.has_fixed_value() ? std::optional<std::string>(i.fixed_value())
                                              : std::nullopt});
  }
}

void Keep(CheckOutcome& outcome, report::JobWrite write) {
  for (auto& issue : write.issues) outcome.issues.push_back(std::move(issue));
  if (!write.fixes.empty()) outcome.fixes.push_back(std::move(write.fixes));
  outcome.issues_found = write.issues_found;
  if (!write.summary_json.empty()) outcome.summary_json = std::move(write.summary_json);
}

}  // namespace

Result<CheckOutcome> RunCheck(const CheckInput& input) {
  // Read as an upload is: an empty file is refused before its format is looked at.
  if (input.bytes.empty()) return Status(ErrorCode::kEmptyFile, "The file is empty.");
  auto prepared = ingest::PrepareFile("", input.name, input.bytes, input.max_bytes);
  if (!prepared.ok()) return prepared.status();
  CheckOutcome outcome;
  outcome.prepared = std::make_shared<ingest::PreparedFile>(std::move(*prepared));
  auto plan = report::PlanFile(*outcome.prepared, input.request);
  if (!plan.ok()) return plan.status();
  // A check type none of whose fields has a column: refused, as an upload is (400
  // check_types_do_not_fit), with the check types that would fit.
  if (plan->misfit) return Status(ErrorCode::kInvalidRequest, *plan->misfit);
  outcome.check = std::move(plan->check);
  outcome.data_rows = plan->data_rows;

  // Cut as the service stores an upload: pieces of piece_bytes, read again in order.
  const std::string_view text = outcome.prepared->data();
  outcome.piece_bytes = std::max<size_t>(1, input.piece_bytes);
  outcome.check.file_pieces =
      static_cast<int64_t>((text.size() + outcome.piece_bytes - 1) / outcome.piece_bytes);
  const size_t piece_bytes = outcome.piece_bytes;
  auto piece = [text, piece_bytes](int64_t i) -> Result<std::string> {
    return std::string(text.substr(static_cast<size_t>(i) * piece_bytes, piece_bytes));
  };

  StreamObserver observer;
  observer.issue = [&outcome](const v1::Issue& i) { Tally(outcome, i); };
  const uint64_t total = outcome.data_rows;
  if (input.progress) {
    observer.progress = [&input, total](uint64_t done) { input.progress(done, total); };
  }
  validator::WorkerPool pool(std::max<size_t>(1, input.threads));
  InProcessValidatorFactory validators(&pool, observer);
  auto stream = validators.Open();

  report::OutputOptions output_options;
  output_options.max_stored_issues = input.max_issues;
  report::JobOutput output(outcome.check, output_options);
  report::StreamInput stream_input{outcome.check, piece, static_cast<int64_t>(total)};
  // Between answers the service stores what is pending; here it is kept in memory.
  auto after_answer = [&](bool last) -> Status {
    if (!last && output.WriteDue()) Keep(outcome, output.TakeWrite());
    return Status::Ok();
  };
  report::JobStages stages;
  Status s = report::StreamCheck(stream_input, output, *stream, report::StreamOptions{},
                                 after_answer, stages, &outcome.stats);
  if (!s.ok()) {
    stream->Cancel();
    return s;
  }
  Keep(outcome, output.TakeWrite());
  return outcome;
}

Status WriteCleaned(const CheckOutcome& outcome, std::ostream& out,
                    ingest::FormulaCells formulas) {
  const std::string_view text = outcome.prepared->data();
  const size_t piece_bytes = outcome.piece_bytes;
  report::CleanedFile file(
      outcome.check,
      [text, piece_bytes](int64_t i) -> Result<std::string> {
        return std::string(text.substr(static_cast<size_t>(i) * piece_bytes, piece_bytes));
      },
      [&outcome](int64_t i) -> Result<std::optional<std::string>> {
        if (i >= static_cast<int64_t>(outcome.fixes.size())) return std::optional<std::string>();
        return std::optional<std::string>(outcome.fixes[static_cast<size_t>(i)]);
      },
      formulas);
  std::string part;
  while (true) {
    auto more = file.Next(&part, size_t{1} << 20);
    if (!more.ok()) return more.status();
    out.write(part.data(), static_cast<std::streamsize>(part.size()));
    part.clear();
    if (!*more) return Status::Ok();
  }
}

void WriteJson(const CheckOutcome& o, std::string_view name, std::ostream& out) {
  using nlohmann::json;
  // How the file was read and checked, as the job detail says it (report::FileCheckJson).
  json head = report::FileCheckJson(o.check);
  head.update(json{
      {"filename", std::string(name)},
      {"rows_total", o.stats.rows()},
      {"rows_error", o.stats.rows_error()},
      {"rows_warning", o.stats.rows_warning()},
      {"rows_fixed", o.stats.rows_fixed()},
      {"health_score", o.stats.score()},
      {"stats",
       {{"rows", o.stats.rows()},
        {"errors", o.stats.errors()},
        {"warnings", o.stats.warnings()},
        {"fixes", o.stats.fixes()},
        {"score", o.stats.score()}}},
      {"issues_total", std::max<int64_t>(static_cast<int64_t>(o.issues.size()), o.issues_found)},
      {"issues_truncated", o.issues_found > static_cast<int64_t>(o.issues.size())}});
  // Written as the API writes a job detail: the members, then what the job stores as it is: the
  // summary (as GET /v1/jobs/:id/summary splices it) and the issue records.
  std::string text = head.dump(-1, ' ', false, json::error_handler_t::replace);
  text.pop_back();  // '}'
  text += ",\"summary\":";
  text += o.summary_json.empty() ? R"({"by_field":[],"by_code":[]})" : o.summary_json;
  text += ",\"issues\":[";
  out << text;
  for (size_t i = 0; i < o.issues.size(); ++i) {
    if (i) out << ',';
    out << o.issues[i];
  }
  out << "]}\n";
}

void WriteCsv(const CheckOutcome& o, std::ostream& out) {
  std::string text = report::IssuesCsvHeader();
  for (const std::string& record : o.issues) {
    report::AppendIssueCsvRow(text, record);
    if (text.size() > (1u << 20)) {
      out << text;
      text.clear();
    }
  }
  out << text;
}

}  // namespace dq::offline
