#include "dq/report/cleaned_file.h"

#include <algorithm>
#include <utility>

namespace dq::report {
namespace {

void AppendVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// Reads a varint at *at; false when the piece ends inside it or it is longer than 64 bits.
bool ReadVarint(std::string_view s, size_t* at, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*at >= s.size()) return false;
    const auto byte = static_cast<uint8_t>(s[(*at)++]);
    *v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return shift < 63 || byte <= 1;
  }
  return false;
}

Status Damaged(const std::string& what) {
  return Status(ErrorCode::kInternal, "The job's stored fixes are damaged: " + what + ".");
}

}  // namespace

void AppendFix(std::string& piece, uint64_t row, uint32_t column, std::string_view value) {
  AppendVarint(piece, row);
  AppendVarint(piece, column);
  AppendVarint(piece, value.size());
  piece.append(value);
}

Status DecodeFixes(std::string_view piece, std::vector<Fix>* out) {
  size_t at = 0;
  while (at < piece.size()) {
    uint64_t row = 0, column = 0, size = 0;
    if (!ReadVarint(piece, &at, &row) || !ReadVarint(piece, &at, &column) ||
        !ReadVarint(piece, &at, &size)) {
      return Damaged("a fix is cut off");
    }
    if (column > UINT32_MAX) return Damaged("a column number is out of range");
    if (size > piece.size() - at) return Damaged("a fixed value is cut off");
    out->push_back({row, static_cast<uint32_t>(column), piece.substr(at, size)});
    at += size;
  }
  return Status::Ok();
}

CleanedFile::CleanedFile(const FileCheck& job, UploadPiece upload, FixPiece fixes,
                         ingest::FormulaCells formulas)
    : upload_(std::move(upload)),
      fixes_(std::move(fixes)),
      file_pieces_(job.file_pieces),
      reader_(ingest::MakeRowReader(job.format)),
      writer_(job.format, job.dialect, job.header, formulas) {
  writer_.set_source(reader_.get());  // an XML feed is written from its own text
  format_ = job.format;
  header_size_ = job.header.size();
  raw_ = job.format == ingest::FileFormat::kCsv || job.format == ingest::FileFormat::kTsv;
  delimiter_ = job.format == ingest::FileFormat::kTsv ? '\t' : job.dialect.delimiter;
  neutralise_ = raw_ && formulas == ingest::FormulaCells::kNeutralise;
  // A header that starts like a formula is written by the writer, neutralised; otherwise the
  // upload's own header bytes are copied.
  header_from_writer_ = false;
  if (neutralise_) {
    for (const std::string& name : job.header) {
      header_from_writer_ = header_from_writer_ || StartsLikeAFormula(name);
    }
  }
  if (raw_ && !header_from_writer_) writer_.out().clear();
}

size_t CleanedFile::held_bytes() const {
  size_t fixes = 0;
  for (const auto& [column, value] : pending_fixes_) fixes += sizeof(column) + value.capacity();
  return piece_.capacity() + raw_buf_.capacity() + fix_piece_.capacity() + fixed_.capacity() +
         writer_.out().capacity() + pending_.capacity() * sizeof(Fix) + fixes;
}

Result<bool> CleanedFile::Next(std::string* out, size_t want) {
  if (!error_.ok()) return error_;  // sticky: a retry must not skip what failed
  while (!ended_ && writer_.out().size() < want) {
    if (Status s = Step(want); !s.ok()) {
      error_ = s;
      return s;
    }
  }
  out->append(writer_.out());
  writer_.out().clear();
  return !ended_;
}

Status CleanedFile::Step(size_t want) {
  while (true) {
    auto state = reader_->Next();
    if (!state.ok()) {
      // A job ran on this upload, so it reads: only "no rows at all" can come back, and that
      // file's cleaned form is its header alone.
      if (state.status().code() != ErrorCode::kEmptyFile) return state.status();
      state = ingest::ReadState::kEnd;
    }
    if (*state == ingest::ReadState::kRow) {
      if (Status s = raw_ ? KeepRow() : WriteRow(); !s.ok()) return s;
      if (writer_.out().size() >= want) return Status::Ok();
      continue;
    }
    if (*state == ingest::ReadState::kNeedMore && next_piece_ < file_pieces_) {
      auto piece = upload_(next_piece_++);
      if (!piece.ok()) return piece.status();
      if (raw_) {
        reader_->Feed(TakeRawPiece(std::move(*piece)));
      } else {
        piece_ = std::move(*piece);
        reader_->Feed(piece_);
      }
      if (next_piece_ == file_pieces_) {
        reader_->Finish();
        finished_input_ = true;
      }
      return Status::Ok();
    }
    if (*state == ingest::ReadState::kNeedMore) {
      // No pieces left: file_pieces was 0. A reader that asks for more after Finish() would
      // loop here forever; that is a broken reader, not an empty file.
      if (finished_input_) {
        return Status(ErrorCode::kInternal, "the reader wants more than the file");
      }
      reader_->Finish();
      finished_input_ = true;
      continue;
    }
    // The end of the upload: every fix must have found its row.
    if (Status s = LoadFixes(); !s.ok()) return s;
    if (next_fix_ < pending_.size()) {
      return Damaged("a fix names row " + std::to_string(pending_[next_fix_].row) +
                     " of a file of " + std::to_string(row_) + " rows");
    }
    if (raw_) {
      EmitRaw(fed_);  // the last row, or the header of a file without rows
      ended_ = true;
      return Status::Ok();
    }
    writer_.set_sheet_name(reader_->sheet_name());
    if (Status s = writer_.Finish(); !s.ok()) return s;
    ended_ = true;
    return Status::Ok();
  }
}

Status CleanedFile::LoadFixes() {
  while (next_fix_ == pending_.size() && !fixes_ended_) {
    auto piece = fixes_(next_fix_piece_++);
    if (!piece.ok()) return piece.status();
    pending_.clear();
    next_fix_ = 0;
    if (!piece->has_value()) {
      fixes_ended_ = true;
      break;
    }
    fix_piece_ = std::move(**piece);
    if (Status s = DecodeFixes(fix_piece_, &pending_); !s.ok()) return s;
  }
  return Status::Ok();
}

Status CleanedFile::TakeFixes(std::vector<std::pair<uint32_t, std::string>>* fixes) {
  fixes->clear();
  const size_t width = reader_->row().size();
  while (true) {
    if (Status s = LoadFixes(); !s.ok()) return s;
    if (next_fix_ == pending_.size() || pending_[next_fix_].row > row_) break;
    const Fix& fix = pending_[next_fix_++];
    if (fix.row < row_) {
      return Damaged("the fixes of row " + std::to_string(fix.row) + " come after row " +
                     std::to_string(row_));
    }
    if (fix.column >= width) {
      return Damaged("a fix names column " + std::to_string(fix.column + 1) + " of a row of " +
                     std::to_string(width) + " cells");
    }
    fixes->emplace_back(fix.column, std::string(fix.value));
  }
  // By column; of one cell's fixes the last made wins.
  std::stable_sort(fixes->begin(), fixes->end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return Status::Ok();
}

Status CleanedFile::KeepRow() {
  ++row_;
  const uint64_t start = reader_->record_offset();
  EmitRaw(start);
  have_pending_ = true;
  pending_start_ = start;
  if (Status s = TakeFixes(&pending_fixes_); !s.ok()) return s;
  if (neutralise_) NeutraliseFormulas(reader_->row(), &pending_fixes_);
  return Status::Ok();
}

void NeutraliseFormulas(std::span<const std::string_view> row,
                        std::vector<std::pair<uint32_t, std::string>>* fixes) {
  std::vector<std::pair<uint32_t, std::string>> out;
  size_t next = 0;
  for (uint32_t c = 0; c < row.size(); ++c) {
    const std::string* last = nullptr;  // of one cell's fixes the last wins
    while (next < fixes->size() && (*fixes)[next].first == c) last = &(*fixes)[next++].second;
    const std::string_view value = last ? std::string_view(*last) : row[c];
    if (StartsLikeAFormula(value)) {
      out.emplace_back(c, "'" + std::string(value));
    } else if (last) {
      out.emplace_back(c, *last);
    }
  }
  while (next < fixes->size()) out.push_back(std::move((*fixes)[next++]));
  *fixes = std::move(out);
}

void CleanedFile::EmitRaw(uint64_t end) {
  const uint64_t begin = have_pending_ ? pending_start_ : 0;
  if (begin < raw_base_ || end < begin || end - raw_base_ > raw_buf_.size()) return;  // cannot be
  const std::string_view bytes =
      std::string_view(raw_buf_).substr(begin - raw_base_, end - begin);
  if (!have_pending_ && header_from_writer_) {
    // the header was written, neutralised, by the writer
  } else if (!have_pending_ || pending_fixes_.empty()) {
    writer_.out().append(bytes);
  } else {
    writer_.out() += SpliceCsvRecord(bytes, delimiter_, pending_fixes_);
  }
  written_ = end;  // dropped when the next piece comes (TakeRawPiece)
}

std::string_view CleanedFile::TakeRawPiece(std::string piece) {
  // The reader asked for more, so it keeps its own copy of an unfinished record: raw_buf_ may
  // move now (and only now, since the reader then reads the new bytes where they lie). What is
  // written is dropped, and the rest and the piece go into a buffer of exactly their size, so a
  // download holds one piece and a row, not a piece and a buffer grown to twice one.
  const size_t keep_from = static_cast<size_t>(written_ - raw_base_);
  const size_t kept = raw_buf_.size() - keep_from;
  fed_ += piece.size();
  if (kept == 0) {
    raw_buf_ = std::move(piece);
  } else {
    std::string next;
    next.reserve(kept + piece.size());
    next.append(raw_buf_, keep_from, kept);
    next.append(piece);
    raw_buf_ = std::move(next);
  }
  raw_base_ = written_;
  return std::string_view(raw_buf_).substr(kept);
}

Status CleanedFile::LearnJsonPaths() {
  if (json_paths_learnt_) return Status::Ok();
  json_paths_learnt_ = true;
  auto reader = ingest::MakeRowReader(format_);
  std::string piece;  // fed to the reader, kept until it asks for more
  int64_t next = 0;
  bool finished = false;
  while (true) {
    auto state = reader->Next();
    if (!state.ok()) return state.status();
    if (*state == ingest::ReadState::kRow) continue;
    if (*state == ingest::ReadState::kEnd) break;
    if (next < file_pieces_) {
      auto p = upload_(next++);
      if (!p.ok()) return p.status();
      piece = std::move(*p);
      reader->Feed(piece);
      if (next == file_pieces_) {
        reader->Finish();
        finished = true;
      }
      continue;
    }
    if (finished) return Status(ErrorCode::kInternal, "the reader wants more than the file");
    reader->Finish();
    finished = true;
  }
  if (const auto* paths = reader->json_paths()) {
    json_paths_ = *paths;
  } else {
    for (const std::string& name : reader->header()) json_paths_.push_back({name});
  }
  writer_.set_json_paths(&json_paths_);
  return Status::Ok();
}

Status CleanedFile::WriteRow() {
  ++row_;
  const auto row = reader_->row();
  const auto kinds = reader_->cell_kinds();
  cells_.assign(row.begin(), row.end());
  kinds_.assign(kinds.begin(), kinds.end());
  kinds_.resize(cells_.size(), ingest::CellKind::kString);
  // This row's fixes: copied out (with their columns) before the views are taken, because the
  // next fix piece may be loaded halfway through the row.
  fixed_.clear();
  struct At {
    uint32_t column;
    size_t at, size;
  };
  std::vector<At> fixed_at;
  while (true) {
    if (Status s = LoadFixes(); !s.ok()) return s;
    if (next_fix_ == pending_.size() || pending_[next_fix_].row > row_) break;
    const Fix& fix = pending_[next_fix_++];
    if (fix.row < row_) {
      return Damaged("the fixes of row " + std::to_string(fix.row) + " come after row " +
                     std::to_string(row_));
    }
    if (fix.column >= cells_.size() && fix.column < header_size_ &&
        (format_ == ingest::FileFormat::kJsonArray || format_ == ingest::FileFormat::kNdjson)) {
      // A column of the file the reader has not met yet: the record lacks it.
      if (Status s = LearnJsonPaths(); !s.ok()) return s;
      cells_.resize(header_size_);
      kinds_.resize(header_size_, ingest::CellKind::kMissing);
    }
    if (fix.column >= cells_.size()) {
      return Damaged("a fix names column " + std::to_string(fix.column + 1) + " of a row of " +
                     std::to_string(cells_.size()) + " cells");
    }
    fixed_at.push_back({fix.column, fixed_.size(), fix.value.size()});
    fixed_.append(fix.value);
  }
  for (const At& f : fixed_at) {
    cells_[f.column] = std::string_view(fixed_).substr(f.at, f.size);
    kinds_[f.column] = ingest::CellKind::kString;
  }
  writer_.WriteRow(cells_, kinds_);
  return Status::Ok();
}

std::string SpliceCsvRecord(std::string_view record, char delimiter,
                            std::span<const std::pair<uint32_t, std::string>> fixes) {
  std::string out;
  out.reserve(record.size() + 32);
  size_t i = 0;
  size_t next = 0;  // the next fix
  uint32_t column = 0;
  auto write_value = [&](std::string_view v, bool quoted) {
    bool quote = quoted || (!v.empty() && (v.front() == ' ' || v.back() == ' '));
    for (char c : v) quote = quote || c == delimiter || c == '"' || c == '\n' || c == '\r';
    if (!quote) {
      out.append(v);
      return;
    }
    out.push_back('"');
    for (char c : v) {
      if (c == '"') out.push_back('"');
      out.push_back(c);
    }
    out.push_back('"');
  };
  while (true) {
    // One cell: [i, end), quoted or not.
    const size_t start = i;
    const bool quoted = i < record.size() && record[i] == '"';
    if (quoted) {
      ++i;
      while (i < record.size()) {
        if (record[i] == '"') {
          if (i + 1 < record.size() && record[i + 1] == '"') {
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        ++i;
      }
    }
    while (i < record.size() && record[i] != delimiter && record[i] != '\n' && record[i] != '\r') {
      ++i;
    }
    // The last fix of this column wins.
    const std::string* value = nullptr;
    while (next < fixes.size() && fixes[next].first == column) value = &fixes[next++].second;
    while (next < fixes.size() && fixes[next].first < column) ++next;
    if (value != nullptr) {
      write_value(*value, quoted);
    } else {
      out.append(record.substr(start, i - start));
    }
    if (i < record.size() && record[i] == delimiter) {
      out.push_back(delimiter);
      ++i;
      ++column;
      continue;
    }
    break;
  }
  // Fixes past the record's cells: the missing cells, empty, then the value.
  while (next < fixes.size()) {
    while (column < fixes[next].first) {
      out.push_back(delimiter);
      ++column;
    }
    const std::string* value = &fixes[next++].second;
    while (next < fixes.size() && fixes[next].first == column) value = &fixes[next++].second;
    write_value(*value, false);
  }
  out.append(record.substr(i));  // the line end and any blank lines after it
  return out;
}

}  // namespace dq::report
