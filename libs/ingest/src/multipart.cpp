#include "dq/ingest/multipart.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "dq/ingest/utf8.h"
#include "dq/common/ascii.h"

namespace dq::ingest {
namespace {

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidRequest, std::move(message));
}

using Params = std::vector<std::pair<std::string, std::string>>;

// Parses `type; a=b; c="d"` into the lower-cased type and (lower-cased name, value) pairs.
// Returns false on a malformed parameter.
bool ParseHeaderValue(std::string_view value, std::string& type, Params& params) {
  size_t i = value.find(';');
  type = ascii::Lower(ascii::Trim(value.substr(0, i)));
  params.clear();
  while (i != std::string_view::npos && i < value.size()) {
    ++i;  // past ';'
    while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
    if (i >= value.size()) break;  // a trailing ';'
    const size_t eq = value.find('=', i);
    if (eq == std::string_view::npos) return false;
    std::string name = ascii::Lower(ascii::Trim(value.substr(i, eq - i)));
    if (name.empty()) return false;
    i = eq + 1;
    while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
    std::string v;
    if (i < value.size() && value[i] == '"') {
      ++i;
      bool closed = false;
      while (i < value.size()) {
        char c = value[i++];
        if (c == '"') {
          closed = true;
          break;
        }
        if (c == '\\' && i < value.size()) c = value[i++];
        v.push_back(c);
      }
      if (!closed) return false;
      while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
      if (i < value.size() && value[i] != ';') return false;
    } else {
      const size_t end = value.find(';', i);
      v = std::string(ascii::Trim(value.substr(i, end == std::string_view::npos ? end : end - i)));
      i = end;
    }
    params.emplace_back(std::move(name), std::move(v));
  }
  return true;
}

// RFC 5987 ext-value: UTF-8''percent%20encoded (other charsets are refused: nullopt).
std::optional<std::string> DecodeExtValue(std::string_view v) {
  const size_t q1 = v.find('\'');
  if (q1 == std::string_view::npos) return std::nullopt;
  const size_t q2 = v.find('\'', q1 + 1);
  if (q2 == std::string_view::npos) return std::nullopt;
  if (ascii::Lower(v.substr(0, q1)) != "utf-8") return std::nullopt;
  std::string out;
  for (size_t i = q2 + 1; i < v.size(); ++i) {
    if (v[i] != '%') {
      out.push_back(v[i]);
      continue;
    }
    auto hex = [](char c) {
      if (c >= '0' && c <= '9') return c - '0';
      c = absl::ascii_tolower(static_cast<unsigned char>(c));
      return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
    };
    if (i + 2 >= v.size()) return std::nullopt;
    const int hi = hex(v[i + 1]), lo = hex(v[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  if (FindInvalidUtf8(out) != std::string::npos) return std::nullopt;
  return out;
}

bool IsBoundaryChar(char c) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  return std::string_view("'()+_,-./:=? ").find(c) != std::string_view::npos;
}

}  // namespace

Result<std::string> BoundaryFromContentType(std::string_view content_type) {
  std::string type;
  Params params;
  if (!ParseHeaderValue(content_type, type, params)) {
    return Invalid("The Content-Type header is malformed.");
  }
  if (type != "multipart/form-data") {
    return Invalid("The Content-Type is not multipart/form-data.");
  }
  const std::string* boundary = nullptr;
  for (const auto& [name, value] : params) {
    if (name == "boundary") boundary = &value;
  }
  if (boundary == nullptr || boundary->empty()) {
    return Invalid("The multipart/form-data Content-Type has no boundary parameter.");
  }
  if (boundary->size() > 70 || boundary->back() == ' ' ||
      !std::all_of(boundary->begin(), boundary->end(), IsBoundaryChar)) {
    return Invalid("The multipart boundary is invalid: 1 to 70 letters, digits or '()+_,-./:=? "
                   "characters, not ending in a space.");
  }
  return *boundary;
}

MultipartParser::MultipartParser(std::string boundary, const MultipartLimits& limits,
                                 MultipartHandler& handler)
    : delimiter_("\r\n--" + boundary), limits_(limits), handler_(handler) {
  // The first boundary line may start the body: behave as if a CRLF came before it.
  carry_ = "\r\n";
}

Status MultipartParser::Fail(Status status) {
  state_ = State::kFailed;
  error_ = status;
  return status;
}

Status MultipartParser::Emit(std::string_view bytes) {
  if (state_ != State::kBody || bytes.empty()) return Status::Ok();
  return handler_.OnPartData(bytes);
}

Status MultipartParser::ScanForDelimiter(std::string_view bytes, size_t& used, bool& found) {
  const std::string_view d = delimiter_;
  used = 0;
  found = false;
  if (!carry_.empty()) {
    // Does a delimiter start inside the held-back bytes?
    for (size_t i = 0; i < carry_.size(); ++i) {
      const std::string_view c = std::string_view(carry_).substr(i);
      if (!d.starts_with(c)) continue;
      const std::string_view rest = d.substr(c.size());
      const size_t have = std::min(rest.size(), bytes.size());
      if (bytes.substr(0, have) != rest.substr(0, have)) continue;
      if (Status s = Emit(std::string_view(carry_).substr(0, i)); !s.ok()) return s;
      if (have == rest.size()) {
        used = have;
        carry_.clear();
        found = true;
      } else {
        carry_ = std::string(c) + std::string(bytes);
        used = bytes.size();
      }
      return Status::Ok();
    }
    const std::string held = std::move(carry_);
    carry_.clear();
    if (Status s = Emit(held); !s.ok()) return s;
  }
  const size_t pos = bytes.find(d);
  if (pos != std::string_view::npos) {
    used = pos + d.size();
    found = true;
    return Emit(bytes.substr(0, pos));
  }
  // Hold back the longest tail that could begin a delimiter.
  size_t k = std::min(d.size() - 1, bytes.size());
  for (; k > 0; --k) {
    if (d.starts_with(bytes.substr(bytes.size() - k))) break;
  }
  used = bytes.size();
  if (Status s = Emit(bytes.substr(0, bytes.size() - k)); !s.ok()) return s;
  carry_.assign(bytes.substr(bytes.size() - k));
  return Status::Ok();
}

Status MultipartParser::OnHeaderBlock() {
  PartHeaders part;
  bool have_disposition = false;
  std::string_view block = headers_;
  while (!block.empty()) {
    const size_t eol = block.find("\r\n");
    const std::string_view line = block.substr(0, eol);
    block.remove_prefix(eol == std::string_view::npos ? block.size() : eol + 2);
    if (line.empty()) continue;
    if (line.front() == ' ' || line.front() == '\t') {
      return Invalid("Part " + std::to_string(parts_) +
                     ": folded header lines are not supported.");
    }
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return Invalid("Part " + std::to_string(parts_) + ": malformed header line.");
    }
    const std::string name = ascii::Lower(ascii::Trim(line.substr(0, colon)));
    const std::string_view value = ascii::Trim(line.substr(colon + 1));
    if (name == "content-type") {
      part.content_type = std::string(value);
    } else if (name == "content-disposition") {
      std::string type;
      Params params;
      if (!ParseHeaderValue(value, type, params) || type != "form-data") {
        return Invalid("Part " + std::to_string(parts_) +
                       ": Content-Disposition must be form-data with a name.");
      }
      have_disposition = true;
      std::optional<std::string> ext_filename;
      for (auto& [key, v] : params) {
        if (key == "name") {
          part.name = v;
        } else if (key == "filename") {
          part.filename = v;
        } else if (key == "filename*") {
          ext_filename = DecodeExtValue(v);
          if (!ext_filename) {
            return Invalid("Part " + std::to_string(parts_) +
                           ": filename* must be UTF-8''percent-encoded.");
          }
        }
      }
      if (ext_filename) part.filename = std::move(ext_filename);
    }
  }
  if (!have_disposition || part.name.empty()) {
    return Invalid("Part " + std::to_string(parts_) +
                   ": no Content-Disposition: form-data header with a name.");
  }
  return handler_.OnPartBegin(part);
}

Status MultipartParser::Feed(std::string_view bytes) {
  if (state_ == State::kFailed) return error_;
  while (!bytes.empty()) {
    switch (state_) {
      case State::kFailed: return error_;
      case State::kEpilogue: return Status::Ok();
      case State::kPreamble:
      case State::kBody: {
        size_t used = 0;
        bool found = false;
        if (Status s = ScanForDelimiter(bytes, used, found); !s.ok()) return Fail(s);
        bytes.remove_prefix(used);
        if (found) {
          if (state_ == State::kBody) {
            if (Status s = handler_.OnPartEnd(); !s.ok()) return Fail(s);
          }
          state_ = State::kAfterDelimiter;
        }
        break;
      }
      case State::kAfterDelimiter:
      case State::kPadding: {
        const char c = bytes.front();
        bytes.remove_prefix(1);
        if (c == '-' && state_ == State::kAfterDelimiter) {
          state_ = State::kCloseDash;
        } else if (c == ' ' || c == '\t') {
          state_ = State::kPadding;
        } else if (c == '\r') {
          state_ = State::kAfterPaddingCr;
        } else {
          return Fail(Invalid("Malformed multipart boundary line (after part " +
                              std::to_string(parts_) + ")."));
        }
        break;
      }
      case State::kAfterPaddingCr: {
        const char c = bytes.front();
        bytes.remove_prefix(1);
        if (c != '\n') {
          return Fail(Invalid("Malformed multipart boundary line (after part " +
                              std::to_string(parts_) + ")."));
        }
        if (parts_ >= limits_.max_parts) {
          return Fail(Invalid("The form has more than " + std::to_string(limits_.max_parts) +
                              " parts."));
        }
        ++parts_;
        headers_.clear();
        state_ = State::kHeaders;
        break;
      }
      case State::kCloseDash: {
        const char c = bytes.front();
        bytes.remove_prefix(1);
        if (c != '-') {
          return Fail(Invalid("Malformed multipart boundary line (after part " +
                              std::to_string(parts_) + ")."));
        }
        state_ = State::kEpilogue;
        break;
      }
      case State::kHeaders: {
        const size_t old = headers_.size();
        const size_t room = limits_.max_header_bytes + 4 - std::min(old, limits_.max_header_bytes + 4);
        const size_t take = std::min(bytes.size(), room);
        headers_.append(bytes.substr(0, take));
        size_t end = std::string::npos;
        size_t terminator = 4;
        if (headers_.starts_with("\r\n")) {
          end = 0;
          terminator = 2;
        } else {
          end = headers_.find("\r\n\r\n", old >= 3 ? old - 3 : 0);
        }
        if (end == std::string::npos) {
          if (headers_.size() >= limits_.max_header_bytes + 4 || take < bytes.size()) {
            return Fail(Invalid("Part " + std::to_string(parts_) +
                                ": the header block is longer than " +
                                std::to_string(limits_.max_header_bytes) + " bytes."));
          }
          bytes.remove_prefix(take);
          break;
        }
        if (end > limits_.max_header_bytes) {
          return Fail(Invalid("Part " + std::to_string(parts_) +
                              ": the header block is longer than " +
                              std::to_string(limits_.max_header_bytes) + " bytes."));
        }
        const size_t used = end + terminator - old;
        bytes.remove_prefix(used);
        headers_.resize(end);
        if (Status s = OnHeaderBlock(); !s.ok()) return Fail(s);
        headers_.clear();
        carry_.clear();
        state_ = State::kBody;
        break;
      }
    }
  }
  return Status::Ok();
}

Status MultipartParser::Finish() {
  switch (state_) {
    case State::kFailed: return error_;
    case State::kEpilogue: return Status::Ok();
    case State::kPreamble:
      return Fail(Invalid("The multipart body has no boundary line (--boundary from the "
                          "Content-Type)."));
    case State::kBody:
      return Fail(Invalid("The multipart body ends inside part " + std::to_string(parts_) +
                          ", before the closing boundary."));
    case State::kHeaders:
      return Fail(Invalid("The multipart body ends inside the headers of part " +
                          std::to_string(parts_) + "."));
    default:
      return Fail(Invalid("The multipart body ends inside a boundary line."));
  }
}

}  // namespace dq::ingest
