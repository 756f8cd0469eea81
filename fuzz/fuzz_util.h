// Shared by the fuzz drivers: read an input through a RowReader whole and in chunks, and check
// the two agree; write the rows back and check they read back the same.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "dq/ingest/row_reader.h"
#include "dq/ingest/row_writer.h"

namespace dq::ingest::fuzz {

struct Read {
  bool ok = true;
  ErrorCode code = ErrorCode::kOk;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::vector<CellKind>> kinds;
  CsvDialect dialect;
  uint64_t comment_lines = 0;  // CSV: comment lines skipped before the header
};

inline void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
    std::abort();
  }
}

inline ReaderLimits SmallLimits() {
  ReaderLimits limits;
  limits.max_record_bytes = 2048;
  limits.max_cells = 64;
  limits.max_json_depth = 16;
  return limits;
}

// chunk 0: everything in one Feed. Chunks are copied and scribbled over once the reader asks for
// more, so a reader holding views into released input is caught by the sanitizers or the
// comparison.
template <typename MakeReader>
Read ReadWith(MakeReader make, std::string_view data, size_t chunk) {
  auto reader = make();
  Read out;
  auto drain = [&] {
    while (true) {
      Result<ReadState> s = reader->Next();
      if (!s.ok()) {
        out.ok = false;
        out.code = s.status().code();
        Check(!s.status().message().empty(), "error without a message");
        return false;
      }
      if (*s == ReadState::kNeedMore) return true;
      if (*s == ReadState::kEnd) return false;
      Check(reader->row().size() == reader->header().size(), "row width != header width");
      out.rows.emplace_back(reader->row().begin(), reader->row().end());
      out.kinds.emplace_back(reader->cell_kinds().begin(), reader->cell_kinds().end());
    }
  };
  if (chunk == 0) chunk = data.size() + 1;
  std::string buffer;
  bool go = true;
  for (size_t at = 0; go && at < data.size(); at += chunk) {
    buffer.assign(data.substr(at, chunk));
    reader->Feed(buffer);
    go = drain();
    for (char& c : buffer) c = '\x7f';
  }
  if (go) {
    reader->Finish();
    Result<ReadState> s = reader->Next();  // drain after Finish never asks for more
    while (s.ok() && *s == ReadState::kRow) {
      out.rows.emplace_back(reader->row().begin(), reader->row().end());
      out.kinds.emplace_back(reader->cell_kinds().begin(), reader->cell_kinds().end());
      s = reader->Next();
    }
    if (!s.ok()) {
      out.ok = false;
      out.code = s.status().code();
    } else {
      Check(*s == ReadState::kEnd, "Next() asked for more input after Finish()");
    }
  }
  out.header = reader->header();
  out.dialect = reader->dialect();
  if constexpr (requires { reader->comment_lines(); }) out.comment_lines = reader->comment_lines();
  return out;
}

// Whole vs chunked: the rows returned before any error agree, and both succeed or both fail.
inline void CheckChunkingAgrees(const Read& whole, const Read& chunked) {
  Check(whole.ok == chunked.ok, "whole and chunked reads disagree on success");
  if (whole.ok) {
    Check(whole.rows == chunked.rows, "whole and chunked rows differ");
    Check(whole.kinds == chunked.kinds, "whole and chunked kinds differ");
    Check(whole.header == chunked.header, "whole and chunked headers differ");
    Check(whole.code == chunked.code, "whole and chunked codes differ");
  } else {
    const size_t n = std::min(whole.rows.size(), chunked.rows.size());
    for (size_t i = 0; i < n; ++i) Check(whole.rows[i] == chunked.rows[i], "row differs");
  }
}

// Writes a successful read back out in `format`.
inline std::string WriteBack(FileFormat format, const Read& read) {
  RowWriter w(format, read.dialect, read.header);
  for (size_t i = 0; i < read.rows.size(); ++i) {
    std::vector<std::string_view> cells(read.rows[i].begin(), read.rows[i].end());
    w.WriteRow(cells, read.kinds[i]);
  }
  // A writer that cannot finish is a failed round trip (the callers would abort on reading it).
  Check(w.Finish().ok(), "the writer could not finish the read rows");
  return w.out();
}

}  // namespace dq::ingest::fuzz
