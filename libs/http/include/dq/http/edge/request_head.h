// What the edge reads of a request before it lets a byte of the body be buffered: the header
// block, found and parsed in linear time, and the body's framing (Content-Length or chunked).
// Pure functions and small state machines; no I/O.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/common/status.h"

namespace dq::http::edge {

struct RequestHead {
  enum class Framing { kNone, kLength, kChunked };

  std::string method;
  std::string target;   // as sent: path and query
  std::string version;  // "HTTP/1.1" or "HTTP/1.0"
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, values trimmed
  Framing framing = Framing::kNone;
  size_t content_length = 0;  // kLength only
  bool expect_continue = false;

  // The first value of the header, or nullptr. name must be lower-case.
  const std::string* Header(std::string_view name) const;
  // The target without its query.
  std::string_view Path() const;
};

// Finds the blank line that ends a header block, across any number of reads, looking at each
// byte once (Pistache re-parses from the start on every read; this does not). A line that ends
// with LF alone (no CR) is reported at once: HTTP/1.1 heads end their lines with CRLF, and such a
// head would otherwise never end.
class HeadScanner {
 public:
  static constexpr size_t kNotYet = static_cast<size_t>(-1);
  static constexpr size_t kBareLf = static_cast<size_t>(-2);
  // The offset in data just past the blank line, kNotYet, or kBareLf.
  size_t Feed(std::string_view data);
  void Reset() { matched_ = 0; }

 private:
  int matched_ = 0;  // how much of "\r\n\r\n" the last bytes matched
};

// Parses a complete header block (request line through the blank line). Errors:
// kInvalidRequest naming what is wrong (bad request line, a control character or space in the
// target, header line without a colon, a control character in a header value, a second Host,
// X-API-Key, Authorization, Content-Type, Content-Encoding, X-CSRF-Token or Idempotency-Key,
// conflicting Content-Length, an unsupported Transfer-Encoding).
Result<RequestHead> ParseRequestHead(std::string_view block);

// `block` (a head ParseRequestHead accepted) with every Content-Length value replaced by 0: the
// head an HTTP parser is given when the edge has collected the body itself and hands it over
// aside (EdgeTransport::ForwardRequest).
std::string HeadWithoutBody(std::string_view block);

// Follows a chunked body to its end (last chunk and trailers) and writes out the same body in
// the one form Pistache's parser reads: each size line as its hex digits and CRLF (chunk
// extensions and whitespace dropped, as RFC 9112 lets a recipient ignore extensions), each
// chunk's data and CRLF, then "0\r\n"; the trailer section is not written (Pistache reads
// none: it ends the request at the last chunk's size line). Bare LF is read as CRLF.
class ChunkedBodyTracker {
 public:
  // max_body: the most data (the chunks' declared sizes summed) the body may have.
  explicit ChunkedBodyTracker(size_t max_body = static_cast<size_t>(-1)) : max_body_(max_body) {}
  // How many bytes of data belong to the body; fewer than data.size() once it has ended. What is
  // to be forwarded is appended to *forward.
  // Errors: kInvalidRequest on a malformed chunk size or an overlong size or trailer line;
  // kPayloadTooLarge once the declared sizes pass max_body.
  Result<size_t> Feed(std::string_view data, std::string* forward);
  bool done() const { return state_ == State::kDone; }

 private:
  enum class State { kSize, kExtension, kData, kDataCr, kDataLf, kTrailerStart, kTrailer,
                     kTrailerEnd, kDone };
  State state_ = State::kSize;
  std::string digits_;  // the size line's hex digits
  size_t size_ = 0;
  size_t total_ = 0;  // the declared sizes so far
  size_t max_body_;
  size_t line_ = 0;  // bytes of the current size or trailer line
};

}  // namespace dq::http::edge
