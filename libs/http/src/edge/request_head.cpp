#include "dq/http/edge/request_head.h"

#include "dq/http/edge/text.h"


namespace dq::http::edge {
namespace {

Status Bad(std::string message) { return Status(ErrorCode::kInvalidRequest, std::move(message)); }

bool IsToken(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 32 || u >= 127 || c == ':' || c == '(' || c == ')' || c == '"' || c == '/' ||
        c == '[' || c == ']' || c == '{' || c == '}' || c == '\\' || c == ',' || c == ';' ||
        c == '<' || c == '>' || c == '=' || c == '?' || c == '@') {
      return false;
    }
  }
  return true;
}

// Headers a request may carry once: Host (RFC 9112 requires a 400 for two), and those whose
// value the gateway acts on, where two would leave it to the HTTP library which one counts.
bool IsSingleton(std::string_view lower_name) {
  static constexpr std::string_view kOnce[] = {"host", "x-api-key", "authorization",
                                               "content-type", "content-encoding",
                                               "x-csrf-token", "idempotency-key"};
  for (std::string_view n : kOnce) {
    if (n == lower_name) return true;
  }
  return false;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

const std::string* RequestHead::Header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (k == name) return &v;
  }
  return nullptr;
}

std::string_view RequestHead::Path() const {
  std::string_view t = target;
  return t.substr(0, t.find('?'));
}

size_t HeadScanner::Feed(std::string_view data) {
  static constexpr char kEnd[] = "\r\n\r\n";
  for (size_t i = 0; i < data.size(); ++i) {
    const char c = data[i];
    if (c == kEnd[matched_]) {
      if (++matched_ == 4) {
        matched_ = 0;
        return i + 1;
      }
    } else if (c == '\n') {
      return kBareLf;  // not after a CR (that would have matched)
    } else {
      matched_ = c == '\r' ? 1 : 0;
    }
  }
  return kNotYet;
}

Result<RequestHead> ParseRequestHead(std::string_view block) {
  RequestHead head;
  size_t eol = block.find("\r\n");
  if (eol == std::string_view::npos) return Bad("The request line is not terminated.");
  const std::string_view line = block.substr(0, eol);
  const size_t sp1 = line.find(' ');
  const size_t sp2 = line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1 || sp2 == sp1 + 1 ||
      !IsToken(line.substr(0, sp1))) {
    return Bad("The request line is not a valid HTTP/1.0 or HTTP/1.1 request line.");
  }
  head.method = std::string(line.substr(0, sp1));
  head.target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
  head.version = std::string(line.substr(sp2 + 1));
  if (head.version != "HTTP/1.1" && head.version != "HTTP/1.0") {
    return Bad("The request line is not a valid HTTP/1.0 or HTTP/1.1 request line.");
  }
  if (head.target.empty()) return Bad("The request target is malformed.");
  for (char c : head.target) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f) {
      return Bad("The request target contains a space or a control character.");
    }
  }

  bool have_length = false;
  size_t pos = eol + 2;
  while (pos < block.size()) {
    eol = block.find("\r\n", pos);
    if (eol == std::string_view::npos) eol = block.size();
    const std::string_view h = block.substr(pos, eol - pos);
    pos = eol + 2;
    if (h.empty()) break;  // the blank line
    const size_t colon = h.find(':');
    if (colon == std::string_view::npos || !IsToken(h.substr(0, colon))) {
      return Bad("A header line is malformed.");
    }
    std::string name = Lower(h.substr(0, colon));
    std::string value(Trim(h.substr(colon + 1)));
    for (char c : value) {
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t') || u == 0x7f) {
        return Bad("The value of the " + std::string(h.substr(0, colon)) +
                   " header contains a control character.");
      }
    }
    if (name == "content-length") {
      if (value.empty() || value.size() > 15 ||
          value.find_first_not_of("0123456789") != std::string::npos) {
        return Bad("Content-Length is not a number.");
      }
      const size_t n = std::stoull(value);
      if (have_length && n != head.content_length) {
        return Bad("The request has two different Content-Length headers.");
      }
      have_length = true;
      head.content_length = n;
    } else if (name == "transfer-encoding") {
      if (!EqualsIgnoreCase(value, "chunked")) {
        return Bad("Only Transfer-Encoding: chunked is supported.");
      }
      head.framing = RequestHead::Framing::kChunked;
    } else if (name == "expect") {
      head.expect_continue = EqualsIgnoreCase(value, "100-continue");
    }
    if (IsSingleton(name) && head.Header(name) != nullptr) {
      return Bad("The request has more than one " + std::string(h.substr(0, colon)) +
                 " header.");
    }
    head.headers.emplace_back(std::move(name), std::move(value));
  }
  if (head.framing == RequestHead::Framing::kChunked) {
    if (have_length) return Bad("Content-Length and Transfer-Encoding must not be combined.");
  } else if (have_length && head.content_length > 0) {
    head.framing = RequestHead::Framing::kLength;
  }
  return head;
}

std::string HeadWithoutBody(std::string_view block) {
  std::string out;
  out.reserve(block.size());
  size_t pos = 0;
  while (pos < block.size()) {
    size_t eol = block.find("\r\n", pos);
    eol = eol == std::string_view::npos ? block.size() : eol + 2;
    const std::string_view line = block.substr(pos, eol - pos);
    pos = eol;
    const size_t colon = line.find(':');
    if (pos > line.size() && colon != std::string_view::npos &&
        Lower(line.substr(0, colon)) == "content-length") {
      out.append(line.substr(0, colon + 1));
      out.append(" 0\r\n");
    } else {
      out.append(line);
    }
  }
  return out;
}

Result<size_t> ChunkedBodyTracker::Feed(std::string_view data, std::string* forward) {
  constexpr size_t kMaxLine = 4096;
  size_t i = 0;
  while (i < data.size() && state_ != State::kDone) {
    const char c = data[i];
    switch (state_) {
      case State::kSize:
      case State::kExtension:
        if (++line_ > kMaxLine) return Bad("A chunk-size line is too long.");
        if (c == '\n') {
          if (digits_.empty()) return Bad("A chunk has no size.");
          forward->append(digits_);
          forward->append("\r\n");
          line_ = 0;
          digits_.clear();
          state_ = size_ == 0 ? State::kTrailerStart : State::kData;
        } else if (state_ == State::kSize && HexDigit(c) >= 0) {
          if (digits_.size() >= 15) return Bad("A chunk size is too large.");
          digits_.push_back(c);
          size_ = size_ * 16 + static_cast<size_t>(HexDigit(c));
          if (total_ + size_ > max_body_) {
            return Status(ErrorCode::kPayloadTooLarge,
                          "The request body is larger than " + std::to_string(max_body_) +
                              " bytes, the most this server accepts.");
          }
        } else if (c == ';' || c == '\r' || c == ' ' || c == '\t') {
          state_ = State::kExtension;
        } else if (state_ == State::kSize) {
          return Bad("A chunk size is not hexadecimal.");
        }
        if (c == '\n') total_ += size_;
        ++i;
        break;
      case State::kData: {
        const size_t take = std::min(size_, data.size() - i);
        forward->append(data.substr(i, take));
        size_ -= take;
        i += take;
        if (size_ == 0) state_ = State::kDataCr;
        break;
      }
      case State::kDataCr:
        if (c == '\r') {
          state_ = State::kDataLf;
        } else if (c == '\n') {
          forward->append("\r\n");
          state_ = State::kSize;
        } else {
          return Bad("A chunk is longer than its size.");
        }
        ++i;
        break;
      case State::kDataLf:
        if (c != '\n') return Bad("A chunk is longer than its size.");
        forward->append("\r\n");
        state_ = State::kSize;
        ++i;
        break;
      case State::kTrailerStart:
        if (c == '\n') {
          state_ = State::kDone;
        } else if (c == '\r') {
          state_ = State::kTrailerEnd;
        } else {
          state_ = State::kTrailer;
        }
        ++i;
        break;
      case State::kTrailer:
        if (++line_ > kMaxLine) return Bad("A trailer line is too long.");
        if (c == '\n') {
          line_ = 0;
          state_ = State::kTrailerStart;
        }
        ++i;
        break;
      case State::kTrailerEnd:
        if (c != '\n') return Bad("The chunked body ends badly.");
        state_ = State::kDone;
        ++i;
        break;
      case State::kDone: break;
    }
  }
  return i;
}

}  // namespace dq::http::edge
