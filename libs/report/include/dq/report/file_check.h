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
#include <string>
#include <utility>
#include <vector>

#include "dq/common/status.h"
#include "dq/ingest/file_format.h"
#include "dq/ingest/row_reader.h"
#include "dq/ingest/upload_decode.h"

namespace dq::report {

struct FileCheck {
  std::string check_types;  // "product,price"
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
  // The pieces the file is read in (CleanedFile reads them again): the stored upload's pieces.
  int64_t file_chunks = 0;
};

// What the caller asked for, already checked on its own (check_options.h).
struct CheckRequest {
  std::vector<std::string> check_types = {"product"};
  std::string platform;
  // The mapping sent; nullopt to infer it from the header.
  std::optional<std::vector<std::pair<std::string, std::string>>> mapping;
};

struct FilePlan {
  FileCheck check;  // file_chunks left 0: the caller cuts the file
  uint64_t data_rows = 0;
};

// One pass over the whole file: every record read (a bad file is refused now, not by a worker
// later), rows counted, header and dialect found, the mapping checked against the header or
// inferred from it, the expiry dates' order learnt (inventory checks). Errors: the readers'
// (kInvalidRequest naming the line, kEmptyFile), a mapped column the file does not have, or no
// column matching any standard field (kInvalidRequest, as the API words them).
Result<FilePlan> PlanFile(const ingest::PreparedFile& file, const CheckRequest& request);

}  // namespace dq::report
