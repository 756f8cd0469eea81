#include "dq/ingest/json_reader.h"

#include <span>

#include "dq/ingest/json_fast.h"
#include "dq/ingest/utf8.h"

namespace dq::ingest {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidRequest, std::move(message));
}

std::string TooLong(const std::string& where, size_t max) {
  return where + ": the record is longer than " + std::to_string(max) + " bytes";
}

// One past the '}' or ']' that closes the object or array starting at s[0], skipping strings;
// npos when s ends first. Does not validate: it only finds where a record too long to read ends.
size_t FindCompositeEnd(std::string_view s) {
  size_t depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      if (i >= s.size()) return std::string_view::npos;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (depth <= 1) return i + 1;
      --depth;
    }
  }
  return std::string_view::npos;
}

}  // namespace

namespace internal {

// One record of an upload, fast (json_fast.h).
bool FastObjectReader::Read(std::string_view text, JsonObjectParser& parser) {
  namespace od = simdjson::ondemand;
  fields_.clear();
  if (text.size() > kFastRecordMaxBytes) return false;
  const std::string_view doc = PadForSimdjson(text, padded_);
  parser.ResetScratch(doc.size());
  od::document document;
  od::object object;
  if (simdjson_.iterate(padded_.data(), padded_.size(), padded_.capacity()).get(document) ||
      document.get_object().get(object)) {
    return false;
  }
  bool nested = false;  // the hand-written parser bounds a nested value's depth as it reads it
  return ReadMembersFast(object, doc, parser, fields_, nested) && AtEndFast(document);
}

}  // namespace internal

JsonReaderBase::JsonReaderBase(const ReaderLimits& limits)
    : limits_(limits),
      parser_(limits.max_json_depth),
      fast_(std::make_unique<internal::FastObjectReader>()),
      rows_builder_(limits) {}

JsonReaderBase::~JsonReaderBase() = default;

Status JsonReaderBase::ParseRecord(std::string_view text) {
  if (fast_->Read(text, parser_)) {
    if (auto e = rows_builder_.Build(fast_->fields())) return Invalid(Where() + ": " + *e);
    return Status::Ok();
  }
  // The parser checks the strings' UTF-8 as it reads them; a record that stops anywhere is named by
  // its first invalid UTF-8 byte when it has one, before any grammar error (json_body_reader.cpp).
  if (auto e = parser_.Parse(text)) {
    if (const size_t bad = FindInvalidUtf8(text); bad != std::string_view::npos) {
      return Invalid(Where() + ": invalid UTF-8 " + internal::DescribeByte(text, bad) +
                     " at byte " + std::to_string(record_offset_ + bad) +
                     "; save the file as UTF-8");
    }
    return Invalid(Where() + ": " + e->message + " at byte " +
                   std::to_string(record_offset_ + e->offset));
  }
  if (auto e = rows_builder_.Build(parser_.fields())) return Invalid(Where() + ": " + *e);
  return Status::Ok();
}

namespace internal {

std::optional<std::string> JsonRows::Build(const std::vector<JsonField>& fields) {
  ++generation_;
  nested_used_ = 0;
  set_order.clear();
  cells.assign(header.size(), std::string_view());
  kinds.assign(header.size(), CellKind::kMissing);
  for (const JsonField& f : fields) {
    path_.assign(1, f.key);
    if (f.kind == CellKind::kJson && f.value.size() > 2 && f.value.front() == '{') {
      if (auto e = AddObject(f.value)) return e;
      continue;
    }
    if (auto e = Set(f.key, f)) return e;
  }
  return std::nullopt;
}

namespace {

std::string PathName(std::span<const std::string_view> path) {
  std::string name;
  for (std::string_view k : path) {
    if (!name.empty()) name.push_back('.');
    name.append(k);
  }
  return name;
}

}  // namespace

std::optional<std::string> JsonRows::AddObject(std::string_view text) {
  if (path_.size() > limits_.max_json_path_depth) {
    return "the member \"" + PathName(path_) + "\" nests objects more than " +
           std::to_string(limits_.max_json_path_depth) +
           " levels deep; dq reads a nested object's members as columns down to " +
           std::to_string(limits_.max_json_path_depth) + " levels";
  }
  if (nested_used_ == nested_parsers_.size()) {
    nested_parsers_.push_back(std::make_unique<JsonObjectParser>(limits_.max_json_depth));
  }
  JsonObjectParser& parser = *nested_parsers_[nested_used_++];
  // The text is our own compact rendering of a value that has been parsed once already.
  if (auto e = parser.Parse(text)) return "a nested object: " + e->message;
  const size_t depth = path_.size();
  for (const JsonField& m : parser.fields()) {
    path_.resize(depth);
    path_.push_back(m.key);
    if (m.kind == CellKind::kJson && m.value.size() > 2 && m.value.front() == '{') {
      if (auto e = AddObject(m.value)) return e;
      continue;
    }
    const std::string name = PathName(path_);
    if (auto e = Set(name, m)) return e;
  }
  path_.resize(depth);
  return std::nullopt;
}

std::optional<std::string> JsonRows::Set(std::string_view name, const JsonField& f) {
  size_t col;
  auto it = index_.find(name);
  if (it != index_.end()) {
    col = it->second;
    const std::vector<std::string>& known = paths[col];
    bool same = known.size() == path_.size();
    for (size_t k = 0; same && k < known.size(); ++k) same = known[k] == path_[k];
    if (!same) {
      const std::string n(name);
      return "the key \"" + n + "\" and the member path " + PathName(path_) +
             " of a nested object would both be the column \"" + n + "\"; rename the key";
    }
  } else {
    if (header.size() >= limits_.max_cells) {
      if (path_.size() > 1) {
        return "more than " + std::to_string(limits_.max_cells) +
               " distinct keys (each member of a nested object counts as one)";
      }
      return "more than " + std::to_string(limits_.max_cells) + " distinct keys";
    }
    col = header.size();
    header.emplace_back(name);
    index_.emplace(header.back(), col);
    paths.emplace_back(path_.begin(), path_.end());
    if (path_.size() > 1) nested = true;
    seen_.push_back(0);
    cells.emplace_back();
    kinds.push_back(CellKind::kMissing);
  }
  if (seen_[col] == generation_) {
    if (path_.size() > 1) return "the member path " + PathName(path_) + " appears twice";
    return "the key \"" + std::string(name) + "\" appears twice";
  }
  seen_[col] = generation_;
  set_order.push_back(static_cast<uint32_t>(col));
  cells[col] = f.value;
  kinds[col] = f.kind;
  return std::nullopt;
}

}  // namespace internal

// ---- JSON array -------------------------------------------------------------------------------

std::string JsonReaderBase::Where() const {
  return "row " + std::to_string(rows_ + 1) + " (byte " + std::to_string(record_offset_) + ")";
}

Result<ReadState> JsonReaderBase::Next() {
  if (error_) return *error_;
  Result<ReadState> r = Step();
  if (!r.ok()) {
    error_ = r.status();
    return r;
  }
  if (*r == ReadState::kNeedMore) in_.Hold(limits_.max_record_bytes);
  return r;
}

Result<ReadState> JsonArrayReader::Step() {
  while (true) {
    if (!in_.WorthTrying()) return ReadState::kNeedMore;
    std::string_view s = in_.available();
    if (state_ == State::kBom) {
      if (s.size() < kBom.size() && !in_.finished() && kBom.starts_with(s)) {
        return ReadState::kNeedMore;
      }
      if (s.starts_with(kBom)) in_.Consume(kBom.size());
      state_ = State::kOpen;
      continue;
    }
    size_t ws = 0;
    while (ws < s.size() && IsSpace(s[ws])) ++ws;
    if (ws > 0) {
      in_.Consume(ws);
      s.remove_prefix(ws);
    }
    record_offset_ = in_.offset();
    if (s.empty()) {
      if (!in_.finished()) return ReadState::kNeedMore;
      switch (state_) {
        case State::kOpen: return Status(ErrorCode::kEmptyFile, "The file is empty.");
        case State::kDone:
          if (rows_ == 0) return Status(ErrorCode::kEmptyFile, "The JSON array has no rows.");
          return ReadState::kEnd;
        default:
          return Invalid("The JSON array is not closed: the file ends before its ']' (byte " +
                         std::to_string(record_offset_) + ")");
      }
    }
    const char c = s[0];
    switch (state_) {
      case State::kBom: break;  // handled above
      case State::kOpen:
        if (c != '[') {
          return Invalid("The file is not a JSON array of objects: expected '[' at byte " +
                         std::to_string(record_offset_) + ", found " +
                         internal::DescribeByte(s, 0));
        }
        in_.Consume(1);
        state_ = State::kFirst;
        continue;
      case State::kFirst:
        if (c == ']') {
          in_.Consume(1);
          state_ = State::kDone;
          continue;
        }
        state_ = State::kElement;
        continue;
      case State::kAfter:
        if (c == ',') {
          in_.Consume(1);
          state_ = State::kElement;
          continue;
        }
        if (c == ']') {
          in_.Consume(1);
          state_ = State::kDone;
          continue;
        }
        return Invalid("after row " + std::to_string(rows_) + ": expected ',' or ']' at byte " +
                       std::to_string(record_offset_) + ", found " +
                       internal::DescribeByte(s, 0));
      case State::kDone:
        return Invalid("unexpected " + internal::DescribeByte(s, 0) + " at byte " +
                       std::to_string(record_offset_) + " after the end of the JSON array");
      case State::kElement: {
        if (c != '{') {
          return Invalid(Where() + ": expected a JSON object, found " +
                         internal::DescribeByte(s, 0));
        }
        const size_t end = FindCompositeEnd(s);
        if (end == std::string_view::npos) {
          if (s.size() > limits_.max_record_bytes) {
            return Invalid(TooLong(Where(), limits_.max_record_bytes));
          }
          if (in_.finished()) return Invalid(Where() + ": the object is not closed");
          return ReadState::kNeedMore;
        }
        if (end > limits_.max_record_bytes) {
          return Invalid(TooLong(Where(), limits_.max_record_bytes));
        }
        if (Status st = ParseRecord(s.substr(0, end)); !st.ok()) return st;
        in_.Consume(end);
        state_ = State::kAfter;
        ++rows_;
        return ReadState::kRow;
      }
    }
  }
}

// ---- NDJSON -----------------------------------------------------------------------------------

Result<ReadState> NdjsonReader::Step() {
  while (true) {
    if (!in_.WorthTrying()) return ReadState::kNeedMore;
    std::string_view s = in_.available();
    if (!started_) {
      if (s.size() < kBom.size() && !in_.finished() && kBom.starts_with(s)) {
        return ReadState::kNeedMore;
      }
      if (s.starts_with(kBom)) {
        in_.Consume(kBom.size());
        s = in_.available();
      }
      started_ = true;
    }
    record_offset_ = in_.offset();
    if (s.empty()) {
      if (!in_.finished()) return ReadState::kNeedMore;
      if (rows_ == 0) return Status(ErrorCode::kEmptyFile, "The file is empty.");
      return ReadState::kEnd;
    }
    size_t nl = s.find('\n');
    if (nl == std::string_view::npos) {
      if (s.size() > limits_.max_record_bytes) {
        return Invalid(TooLong(Where(), limits_.max_record_bytes));
      }
      if (!in_.finished()) return ReadState::kNeedMore;
      nl = s.size();
    }
    if (nl > limits_.max_record_bytes) return Invalid(TooLong(Where(), limits_.max_record_bytes));
    std::string_view line = s.substr(0, nl);
    in_.Consume(nl < s.size() ? nl + 1 : nl);
    size_t lead = 0;
    while (lead < line.size() && IsSpace(line[lead])) ++lead;
    if (lead == line.size()) continue;  // blank line
    if (Status st = ParseRecord(line); !st.ok()) return st;
    ++rows_;
    return ReadState::kRow;
  }
}

}  // namespace dq::ingest
