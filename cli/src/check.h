// `dq check`, as logic with no terminal and no files: the bytes of one file and the options in,
// everything the service would keep of a job on it out (its check, stats, issue records, summary
// and fixes), by the service's own steps: PrepareFile and PlanFile (libs/ingest, libs/report) read
// it as an upload is read, StreamCheck streams its rows through the validator (in process here,
// over gRPC in the service) into a JobOutput, and CleanedFile writes the cleaned file from the
// fixes as a download does.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "dq/common/status.h"
#include "dq/ingest/row_writer.h"
#include "dq/ingest/upload_decode.h"
#include "dq/report/file_check.h"
#include "dq/report/job_output.h"

namespace dq::offline {

struct CheckInput {
  std::string name;        // the file's name: its extension helps decide the format ("" none)
  std::string_view bytes;  // as on disk (gzip and other encodings are undone here)
  report::CheckRequest request;
  size_t threads = 1;                                 // evaluation threads, the caller's included
  int64_t max_issues = report::OutputOptions{}.max_stored_issues;  // issue records kept
  size_t max_bytes = size_t{1} << 32;                 // decompressed or converted, at most
  size_t piece_bytes = 1u << 20;                      // the upload's pieces, as the service cuts
  // Rows checked so far, of the file's; called from the checking thread.
  std::function<void(uint64_t done, uint64_t total)> progress;
};

// One (code, field, severity) of the report: how many, and the first examples.
struct CodeTally {
  int64_t count = 0;
  struct Example {
    uint64_t row;
    std::string original;
    std::optional<std::string> fixed;
  };
  std::vector<Example> examples;
};

struct CheckOutcome {
  report::FileCheck check;
  uint64_t data_rows = 0;
  validator::v1::Stats stats;
  std::vector<std::string> issues;  // job records (report/issue_json.h), at most max_issues
  int64_t issues_found = 0;         // exact, past the cap too
  std::string summary_json;         // {"by_field":[...],"by_code":[...]}
  std::vector<std::string> fixes;   // fix pieces (report/cleaned_file.h)
  // Keyed by (severity "error"/"warning", code, field).
  std::map<std::tuple<std::string, std::string, std::string>, CodeTally> codes;
  static constexpr size_t kExamples = 3;

  // The file as read (UTF-8 text, or the workbook), which the cleaned file is written from. It
  // may view CheckInput::bytes, which must outlive the outcome.
  std::shared_ptr<ingest::PreparedFile> prepared;
  size_t piece_bytes = 0;
};

// Errors: the reading's (kEmptyFile, kInvalidRequest naming the line, kUnsupportedMediaType,
// kFileTooLarge), the plan's (a mapped column the file lacks, no column matched), the
// validator's.
Result<CheckOutcome> RunCheck(const CheckInput& input);

// Writes the cleaned file of `outcome` to out, in its format, as GET /v1/jobs/:id/cleaned sends
// it: CSV/TSV cells that start like a formula get a leading ' unless `formulas` is kKeep (the
// download's formulas=keep). Errors: CleanedFile's (kInternal for damaged fixes); out's state is
// the caller's.
Status WriteCleaned(const CheckOutcome& outcome, std::ostream& out,
                    ingest::FormulaCells formulas = ingest::FormulaCells::kNeutralise);

// The issues as GET /v1/jobs/:id answers (the job detail's keys that apply to a file, then the
// summary and "issues"), and as the issues CSV download.
void WriteJson(const CheckOutcome& outcome, std::string_view name, std::ostream& out);
void WriteCsv(const CheckOutcome& outcome, std::ostream& out);

}  // namespace dq::offline
