// Sending one webhook POST. The interface keeps the dispatcher testable without a network;
// CurlHttpSender is the real one.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dq::webhook {

struct HttpPost {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

// How much of a receiver's answer a sender keeps (the delivery log shows it).
inline constexpr size_t kKeptResponseBytes = 1024;

struct HttpResult {
  int status = 0;          // HTTP status; 0 when no response arrived
  int64_t latency_ms = 0;  // from start to the end of the response (or the failure)
  std::string error;       // empty when a response arrived; else why not ("timeout", "refused
                           // address 127.0.0.1 (loopback)", curl's message)
  std::string body;        // the first kKeptResponseBytes of the answer
  bool body_truncated = false;  // the answer was longer
};

class HttpSender {
 public:
  virtual ~HttpSender() = default;
  // POSTs and waits for the answer, within the sender's timeout; never throws. Not thread-safe:
  // each delivery thread owns one sender (and so one connection cache).
  virtual HttpResult Post(const HttpPost& post) = 0;
};

}  // namespace dq::webhook
