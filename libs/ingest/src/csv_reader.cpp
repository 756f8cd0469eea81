#include "dq/ingest/csv_reader.h"

#include <array>
#include <cstring>

#include "dq/ingest/byte_scan.h"
#include "dq/ingest/utf8.h"

namespace dq::ingest {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

size_t Find(std::string_view s, size_t from, size_t to, char c) {
  if (from >= to) return std::string_view::npos;
  const void* p = std::memchr(s.data() + from, c, to - from);
  return p ? static_cast<size_t>(static_cast<const char*>(p) - s.data()) : std::string_view::npos;
}

// Find for the short distances inside a record (a field is ~12 bytes): eight bytes a step in
// line, where a memchr call per field cost more than the search (docs/performance-log.md, "Eighth
// round"). Reads only [from, to).
size_t FindNear(std::string_view s, size_t from, size_t to, char c) {
  const char* p = s.data();
  size_t k = from;
  for (; k + 8 <= to; k += 8) {
    if (const uint64_t m = bytes::Equal(bytes::Load8(p + k), c); m != 0) {
      return k + bytes::FirstFlagged(m);
    }
  }
  for (; k < to; ++k) {
    if (p[k] == c) return k;
  }
  return std::string_view::npos;
}

}  // namespace

bool CsvReader::StartsLikeComment(std::string_view line) {
  // A quoted "#" reads as # does: the space or TAB is then the delimiter after the quote.
  if (line.starts_with("\"#\"") && (line.size() == 3 || line[3] != '"')) {
    return line.size() > 3 && (line[3] == ' ' || line[3] == '\t');
  }
  if (line.starts_with('"')) line.remove_prefix(1);
  return line.size() >= 2 && line[0] == '#' && (line[1] == ' ' || line[1] == '\t');
}

bool CsvReader::IsCommentLine(std::string_view line) {
  if (!StartsLikeComment(line)) return false;
  // A comment under any delimiter the line has (Meta's description row has more '|' inside its
  // cells than ',' between them), or a line with none of them (one cell).
  bool any = false;
  for (char d : {',', '\t', ';', '|'}) {
    if (line.find(d) == std::string_view::npos) continue;
    any = true;
    if (LineIsComment(line, d)) return true;
  }
  return !any;
}

CsvReader::CsvReader(const ReaderLimits& limits, char delimiter)
    : limits_(limits), delimiter_known_(delimiter != 0) {
  if (delimiter != 0) dialect_.delimiter = delimiter;
}

std::string CsvReader::Where() const {
  const std::string at = " (byte " + std::to_string(record_offset_) + ")";
  return have_header_ ? "row " + std::to_string(rows_ + 1) + at : "header" + at;
}

Status CsvReader::Fail(Status status) {
  error_ = status;
  return status;
}

Result<ReadState> CsvReader::Next() {
  if (error_) return *error_;
  Result<ReadState> r = Step();
  if (!r.ok()) return Fail(r.status());
  if (*r == ReadState::kNeedMore) in_.Hold(limits_.max_record_bytes);
  return r;
}

CsvReader::RecordEnd CsvReader::FindRecordEnd(std::string_view s) const {
  const char d = dialect_.delimiter;
  const size_t n = s.size();
  size_t nl = Find(s, 0, n, '\n');
  size_t i = 0;
  while (true) {
    const size_t stop = nl == std::string_view::npos ? n : nl;
    // A quote opens a quoted field only at the start of a field.
    size_t q = Find(s, i, stop, '"');
    while (q != std::string_view::npos && q != 0 && s[q - 1] != d) q = Find(s, q + 1, stop, '"');
    if (q == std::string_view::npos) {
      if (nl != std::string_view::npos) return {nl, true, false};
      if (in_.finished()) return {n, true, false};
      return {};
    }
    size_t j = q + 1;
    while (true) {
      const size_t c = Find(s, j, n, '"');
      if (c == std::string_view::npos) {
        return {n, false, in_.finished()};
      }
      if (c + 1 == n && !in_.finished()) return {};  // "" or a closing quote: cannot tell yet
      if (c + 1 < n && s[c + 1] == '"') {
        j = c + 2;
        continue;
      }
      i = c + 1;
      break;
    }
    if (nl != std::string_view::npos && nl < i) nl = Find(s, i, n, '\n');
  }
}

bool CsvReader::DetectDelimiter(std::string_view s) {
  // Counts candidates on the header line, outside quotes (a quote anywhere toggles: header names
  // rarely contain quotes, and the delimiter is not known yet). Blank lines and comment lines
  // (IsCommentLine) before it are passed.
  // Only the first max_record_bytes + 1 bytes count, so the choice does not depend on how the
  // input was chunked.
  static constexpr std::array<char, 4> kCandidates = {',', '\t', ';', '|'};
  const bool capped = s.size() > limits_.max_record_bytes;
  if (capped) s = s.substr(0, limits_.max_record_bytes + 1);
  size_t i = 0;
  for (uint64_t comments = 0;; ++comments) {
    while (i < s.size() && (s[i] == '\r' || s[i] == '\n')) ++i;  // blank lines
    std::array<size_t, 4> count{};
    bool quoted = false;
    const size_t begin = i;
    for (; i < s.size(); ++i) {
      const char c = s[i];
      if (c == '"') {
        quoted = !quoted;
      } else if (!quoted) {
        if (c == '\n') break;
        for (size_t k = 0; k < kCandidates.size(); ++k) count[k] += c == kCandidates[k];
      }
    }
    const bool complete = i < s.size() || in_.finished() || capped;
    if (!complete) return false;
    size_t best = 0;
    for (size_t k = 1; k < kCandidates.size(); ++k) {
      if (count[k] > count[best]) best = k;
    }
    const char d = count[best] > 0 ? kCandidates[best] : ',';
    if (i < s.size() && comments < kMaxCommentLines &&
        IsCommentLine(s.substr(begin, i - begin))) {
      ++i;
      continue;
    }
    dialect_.delimiter = d;
    delimiter_known_ = true;
    return true;
  }
}

bool CsvReader::LineIsComment(std::string_view line, char d) {
  if (!StartsLikeComment(line)) return false;
  // Fields are split as ParseRecord splits them: a quote opens a quoted field only as the
  // field's first byte, and "" inside one is a quote. (Toggling at any quote would read
  // `#\t",u""x"` as one field under ',' although the parser sees two.)
  size_t k = 0;
  while (true) {
    if (k < line.size() && line[k] == '"') {
      size_t at = k + 1;
      const bool empty = at + 1 >= line.size() ? at >= line.size() || line[at] == '"'
                                               : line[at] == '"' && line[at + 1] != '"';
      if (!empty && line[at] != '#') return false;
      while (at < line.size()) {  // to the closing quote
        if (line[at] == '"' && at + 1 < line.size() && line[at + 1] == '"') {
          at += 2;
        } else if (line[at] == '"') {
          break;
        } else {
          ++at;
        }
      }
      k = at;
    } else if (k < line.size() && line[k] != d && line[k] != '\r' && line[k] != '#') {
      return false;
    }
    k = line.find(d, k);
    if (k == std::string_view::npos) return true;
    ++k;
  }
}

Result<ReadState> CsvReader::Step() {
  while (true) {
    if (!in_.WorthTrying()) return ReadState::kNeedMore;
    std::string_view s = in_.available();
    if (!started_) {
      if (s.size() < kBom.size() && !in_.finished() && kBom.starts_with(s)) {
        return ReadState::kNeedMore;
      }
      if (s.starts_with(kBom)) {
        dialect_.bom = true;
        in_.Consume(kBom.size());
        s = in_.available();
      }
      started_ = true;
    }
    record_offset_ = in_.offset();
    if (s.empty()) {
      if (!in_.finished()) return ReadState::kNeedMore;
      if (!have_header_ && comment_lines_ > 0) {
        return Status(ErrorCode::kEmptyFile,
                      "The file has only comment lines (starting with '# ') and no header row.");
      }
      if (!have_header_) return Status(ErrorCode::kEmptyFile, "The file is empty.");
      if (rows_ == 0) {
        return Status(ErrorCode::kEmptyFile, "The file has a header row but no data rows.");
      }
      return ReadState::kEnd;
    }
    if (!delimiter_known_ && !DetectDelimiter(s)) return ReadState::kNeedMore;

    const RecordEnd end = FindRecordEnd(s);
    if (end.open_quote) {
      return Status(ErrorCode::kInvalidRequest,
                    Where() + ": a quoted field is not closed before the end of the file");
    }
    if (!end.found) {
      if (s.size() > limits_.max_record_bytes) {
        return Status(ErrorCode::kInvalidRequest,
                      Where() + ": the record is longer than " +
                          std::to_string(limits_.max_record_bytes) + " bytes");
      }
      return ReadState::kNeedMore;
    }
    if (end.end > limits_.max_record_bytes) {
      return Status(ErrorCode::kInvalidRequest,
                    Where() + ": the record is longer than " +
                        std::to_string(limits_.max_record_bytes) + " bytes");
    }
    std::string_view record = s.substr(0, end.end);
    in_.Consume(end.end < s.size() ? end.end + 1 : end.end);
    const bool crlf = record.ends_with('\r');
    if (crlf) record.remove_suffix(1);
    if (record.empty()) continue;  // blank line

    const size_t bad = FindInvalidUtf8(record);
    if (bad != std::string_view::npos) {
      return Status(ErrorCode::kInvalidRequest,
                    Where() + ": " + InvalidUtf8Words(record, bad) + " at byte " +
                        std::to_string(record_offset_ + bad) + "; save the file as UTF-8");
    }
    if (Status st = ParseRecord(record); !st.ok()) return st;

    if (!have_header_) {
      if (comment_lines_ < kMaxCommentLines && LineIsComment(record, dialect_.delimiter)) {
        ++comment_lines_;
        continue;
      }
      dialect_.crlf = crlf;
      header_.assign(cells_.begin(), cells_.end());
      have_header_ = true;
      continue;
    }
    fields_read_ = cells_.size();
    cells_.resize(header_.size());  // pads short rows with empty cells, drops extra ones
    ++rows_;
    return ReadState::kRow;
  }
}

Status CsvReader::ParseRecord(std::string_view rec) {
  const char d = dialect_.delimiter;
  const size_t n = rec.size();
  const size_t max_cells = have_header_ ? std::max(limits_.max_cells, header_.size())
                                        : limits_.max_cells;
  cells_.clear();
  scratch_.clear();
  bool reserved = false;
  size_t i = 0;
  while (true) {
    if (cells_.size() >= max_cells) {
      return Status(ErrorCode::kInvalidRequest,
                    Where() + ": more than " + std::to_string(max_cells) + " cells");
    }
    if (i < n && rec[i] == '"') {
      const size_t start = i + 1;
      size_t j = start;
      bool escaped = false;
      size_t close;
      while (true) {
        close = FindNear(rec, j, n, '"');
        if (close == std::string_view::npos) {  // FindRecordEnd rules this out
          return Status(ErrorCode::kInvalidRequest, Where() + ": a quoted field is not closed");
        }
        if (close + 1 < n && rec[close + 1] == '"') {
          escaped = true;
          j = close + 2;
          continue;
        }
        break;
      }
      std::string_view content = rec.substr(start, close - start);
      if (escaped) {
        // Unescaped text is never longer than the record, so one reservation keeps every view
        // into scratch_ valid for the whole record.
        if (!reserved) {
          scratch_.reserve(n);
          reserved = true;
        }
        const size_t from = scratch_.size();
        for (size_t k = 0; k < content.size(); ++k) {
          scratch_.push_back(content[k]);
          if (content[k] == '"') ++k;  // skip the second quote of ""
        }
        content = std::string_view(scratch_).substr(from);
      }
      cells_.push_back(content);
      i = close + 1;
      if (i == n) break;
      if (rec[i] != d) {
        return Status(ErrorCode::kInvalidRequest,
                      Where() + ": unexpected character after a closing quote at byte " +
                          std::to_string(record_offset_ + i) +
                          " (a quote inside a quoted field must be doubled)");
      }
      ++i;
      continue;
    }
    const size_t e = FindNear(rec, i, n, d);
    if (e == std::string_view::npos) {
      cells_.push_back(rec.substr(i));
      break;
    }
    cells_.push_back(rec.substr(i, e - i));
    i = e + 1;
  }
  return Status::Ok();
}

}  // namespace dq::ingest
