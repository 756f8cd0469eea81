// Helpers for the dq_ingest tests: read a whole input through a RowReader in chunks of a given
// size, copying every row, so a test can compare outcomes across chunkings.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "dq/ingest/row_reader.h"

namespace dq::ingest::testing {

struct ReadOutcome {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::vector<CellKind>> kinds;
  ErrorCode code = ErrorCode::kOk;
  std::string message;
  CsvDialect dialect;
  bool operator==(const ReadOutcome&) const = default;
};

// chunk 0: the whole input in one Feed. Each chunk is copied into a buffer that is overwritten
// as soon as the reader asks for more, to catch readers that keep views into released input.
inline ReadOutcome ReadAll(FileFormat format, std::string_view input, size_t chunk = 0,
                           const ReaderLimits& limits = {}) {
  auto reader = MakeRowReader(format, limits);
  ReadOutcome out;
  auto drain = [&]() -> bool {  // false: stop (error or end)
    while (true) {
      Result<ReadState> s = reader->Next();
      if (!s.ok()) {
        out.code = s.status().code();
        out.message = s.status().message();
        return false;
      }
      if (*s == ReadState::kNeedMore) return true;
      if (*s == ReadState::kEnd) return false;
      out.rows.emplace_back(reader->row().begin(), reader->row().end());
      out.kinds.emplace_back(reader->cell_kinds().begin(), reader->cell_kinds().end());
    }
  };
  if (chunk == 0) chunk = std::max<size_t>(input.size(), 1);
  std::string buffer;
  bool go = true;
  for (size_t at = 0; go && at < input.size(); at += chunk) {
    buffer.assign(input.substr(at, chunk));
    reader->Feed(buffer);
    go = drain();
    std::fill(buffer.begin(), buffer.end(), '#');  // the reader must not read it any more
  }
  if (go) {
    reader->Finish();
    drain();
  }
  out.header = reader->header();
  out.dialect = reader->dialect();
  return out;
}

using Rows = std::vector<std::vector<std::string>>;

}  // namespace dq::ingest::testing
