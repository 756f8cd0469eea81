// What a check of one file is, and the one pass that learns it from the file: how the file reads
// (format, encoding, dialect, header) and what is checked (check types, platform, mapping, what
// the whole file shows of its dates). The gateway's Job is a FileCheck plus its life as a job;
// `dq check` runs on a FileCheck alone. Both get it from PlanFile, so an upload and the CLI read
// one file the same way.
//
//   auto plan = PlanFile(prepared, {.check_types = {"product"}});   // reads the whole file once
//   if (!plan.ok()) return plan.status();                          // the API's 400 / the CLI's 2
//   JobOutput out(plan->check, {});                                // then stream its rows
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dq/common/check_types.h"
#include "dq/common/status.h"
#include "dq/ingest/file_format.h"
#include "dq/ingest/row_reader.h"
#include "dq/ingest/source_scan.h"
#include "dq/ingest/upload_decode.h"

namespace dq::report {

struct FileCheck {
  CheckTypeList check_types;  // as asked; Text() is the API's "product,price"
  std::string platform;     // "" for none
  std::vector<std::pair<std::string, std::string>> mapping;  // (standard field, column)
  bool mapping_inferred = false;
  ingest::FileFormat format = ingest::FileFormat::kCsv;
  std::string encoding = "utf-8";  // of the upload, before conversion (ingest/text_encoding.h)
  ingest::CsvDialect dialect;
  std::vector<std::string> header;  // the file's columns, in order
  // The day/month order of the expiry_date column's A/B/YYYY dates over the whole file ("" when
  // unmapped or not shown), handed to the validator so every chunk reads them alike.
  std::string expiry_date_order;
  // The source platform the file was read as (ingest/source_profile.h), and why.
  std::string source;
  std::string source_reason;
  // What a person should know beside the results: core fields with no column, a source the
  // header contradicts (ingest/check_plan.h, ingest/source_detect.h).
  std::vector<std::string> notes;
  // The weight column's unit and why (shown with the mapping notes); "" without a weight column.
  std::string unit_note;
  // The check plan made when the file was planned. `planned` is false for jobs stored before it
  // existed: their worker then works the weight unit out of the header, as it did.
  bool planned = false;
  std::string weight_unit;  // BatchSpec.weight_unit
  // BatchSpec.conventions as JSON: [{field, list_separator, value_aliases}].
  std::string conventions;
  bool gtin_padding_evidence = false;
  // How many pieces the stored upload is kept in (CleanedFile reads them again). Stored as the
  // job hash field "file_chunks", its name before "piece" became the one word for it.
  int64_t file_pieces = 0;
};

// What the caller asked for, already checked on its own (check_options.h).
struct CheckRequest {
  std::vector<std::string> check_types = {"product"};
  std::string platform;
  // The mapping sent; nullopt to infer it from the header.
  std::optional<std::vector<std::pair<std::string, std::string>>> mapping;
  std::string source;       // the source platform sent ("" to detect it); a valid name
  std::string weight_unit;  // the unit of bare weights sent ("" for none)
};

struct FilePlan {
  FileCheck check;  // file_pieces left 0: the caller cuts the file
  uint64_t data_rows = 0;
  // Set when a requested check type has none of its fields in the file: the message of the
  // API's 400 check_types_do_not_fit (ingest::CheckTypesMisfit). An upload is refused with it,
  // before any quota is used.
  std::optional<std::string> misfit;
};

// One pass over the whole file: every record read (a bad file is refused now, not by a worker
// later), rows counted, header and dialect found, the mapping checked against the header or
// inferred from it, the expiry dates' order learnt (inventory checks). Errors: the readers'
// (kInvalidRequest naming the line, kEmptyFile), a mapped column the file does not have, or no
// column matching any standard field (kInvalidRequest, as the API words them).
// The same pass detects the source (or checks the one sent against the header), infers the
// mapping with the source's profile, and gathers the gtin column's padding evidence; the check
// plan (weight unit, conventions, notes) follows (ApplyScan).
Result<FilePlan> PlanFile(const ingest::PreparedFile& file, const CheckRequest& request);

// What the scan learnt, into `check` (whose mapping is set): source, source_reason, notes,
// unit_note and the check plan (ingest/check_plan.h). For PlanFile and the upload preview.
void ApplyScan(const ingest::SourceScan& scan, std::span<const std::string> check_types,
               const std::string& weight_unit, FileCheck& check);

// The members of a job detail (GET /v1/jobs/:id) that describe how the file was read and what was
// checked: check_types, platform, source, source_reason, notes, mapping, mapping_inferred,
// mapping_notes (with the weight unit's note), format, encoding. `dq check --format json` writes
// the same.
nlohmann::json FileCheckJson(const FileCheck& check);

// BatchSpec.conventions as a FileCheck keeps them (JSON), and back into a spec (job_output.cpp).
std::string ConventionsJson(const std::vector<ingest::SourceConvention>& conventions);

}  // namespace dq::report
