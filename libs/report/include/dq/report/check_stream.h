// A file's rows through the validator: the one loop an upload's job and `dq check` both run.
// Reads the file's pieces with its reader, sends its rows in chunks (several in flight), applies
// each answer to a JobOutput as it comes, then collects the batch-level issues and the stats.
// What to do between answers (a job stores its output; the CLI does nothing) is the caller's.
//
//   StreamInput in{check, [&](int64_t i) { return Piece(i); }, plan.data_rows};
//   validator::v1::Stats stats;
//   Status s = StreamCheck(in, output, stream, options, [&](bool last) { ... }, stages, &stats);
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "dq/common/status.h"
#include "dq/report/file_check.h"
#include "dq/report/job_output.h"
#include "dq/report/validator_stream.h"
#include "dq/validator/v1/validator.pb.h"

namespace dq::report {

struct StreamOptions {
  size_t chunk_rows = 4096;  // rows per RowChunk
  // Chunks sent to the validator and not yet answered, at most. More than one lets the validator
  // check the next chunks while the caller applies and stores an answer. Memory:
  // (chunks_in_flight + 1) chunks of rows.
  size_t chunks_in_flight = 4;
};

// Where one attempt's wall time went, in milliseconds (logged with each finished job; see
// docs/PERFORMANCE.md, issue 15). send includes waiting for the validator's flow control, wait
// the time Receive blocked for an answer. StreamCheck fills all but store and finish.
struct JobStages {
  double fetch = 0, read = 0, encode = 0, send = 0, wait = 0, apply = 0, store = 0, tail = 0,
         finish = 0;
};

struct StreamInput {
  const FileCheck& check;  // its format names the reader
  // Piece i of the file (0 <= i < check.file_pieces), decompressed.
  std::function<Result<std::string>(int64_t)> piece;
  // The data rows the file was found to have (PlanFile): the validator must check exactly these.
  int64_t expected_rows = 0;
  // Only the first max_rows data rows are read and checked (0: all). expected_rows counts them.
  int64_t max_rows = 0;
};

// Called after each answer is applied to the output; `last` for the last chunk's answer (whose
// output goes with the caller's final write). An error stops the stream and is returned.
using AfterAnswer = std::function<Status(bool last)>;

// Streams the rows and fills *stats. Errors: the pieces', the reader's (a file that read at
// upload reads again, so only a changed file fails), the stream's (validator_stream.h), and
// kInternal when the validator checked another number of rows than expected; kUnavailable when
// the stream ended without stats.
Status StreamCheck(const StreamInput& input, JobOutput& output, ValidatorStream& stream,
                   const StreamOptions& options, const AfterAnswer& after_answer,
                   JobStages& stages, validator::v1::Stats* stats);

// Names the items of the batch-level issues the output holds (JobOutput::TailRows), from the
// names it kept (JobOutput::NameTailFromKept) or, when it kept too few, reading the file again,
// and hands them to the output (StreamCheck's last step).
Status NameTail(const StreamInput& input, JobOutput& output);

}  // namespace dq::report
