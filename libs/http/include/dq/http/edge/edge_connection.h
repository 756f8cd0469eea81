// One client connection as the edge sees it: every byte passes through here before the HTTP
// library may buffer it. The edge
//   - collects the header block itself (linear work; over the limit: 431 headers_too_large),
//   - parses it and checks the body's framing and size (400, 413),
//   - lets a body over the unauthenticated limit (or chunked) through only after the service's
//     Admit() accepts the headers, and otherwise answers at once and drops the rest,
//   - reserves the body's memory from the process-wide BodyBudget (past it: 503 + Retry-After),
//   - answers "Expect: 100-continue" only after all of that,
// then hands the request to the HTTP parser. A Content-Length body is collected here, into one
// buffer of its declared size, and handed over with its head once complete
// (EdgeTransport::ForwardRequest): one copy of the body, appended at memory speed. (Pistache
// 0.0.5 copied a body byte by byte into two buffers: ~16 ns a byte, 0.4 s for a 24 MB upload.)
// A chunked body is forwarded as it comes, after its head. Slowness is judged elsewhere
// (ConnectionTable, from progress()). Not thread-safe: one connection lives on one worker thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dq/http/edge/edge_limits.h"
#include "dq/http/edge/request_head.h"
#include "dq/http/http_service.h"

namespace dq::http::edge {

// The connection's I/O, as the edge needs it (Pistache in production, a fake in tests).
class EdgeTransport {
 public:
  virtual ~EdgeTransport() = default;
  // Hands request bytes to the HTTP parser. When they complete a request, the parser handles it
  // (and answers) before Forward returns.
  virtual void Forward(std::string_view bytes) = 0;
  // Hands a whole request with a Content-Length body to the HTTP parser, which handles it (and
  // answers) before this returns. The default forwards the bytes; the Pistache transport passes
  // the body aside, without copying it.
  virtual void ForwardRequest(std::string_view head, std::string body) {
    Forward(head);
    Forward(body);
  }
  // The HTTP parser's verdict on a head the edge has parsed and accepted, before any byte of it
  // is forwarded: a failed Status is answered by the edge (JSON, Connection: close) instead of
  // by the parser. The default accepts every head.
  virtual Status CheckHead(std::string_view block, const RequestHead& head) {
    (void)block;
    (void)head;
    return Status::Ok();
  }
  // Writes raw bytes to the client (the interim "100 Continue").
  virtual void SendRaw(std::string bytes) = 0;
  // Writes the edge's own answer; the connection is closed once it is written.
  virtual void SendAndClose(const HttpResponse& response, const std::string& request_id) = 0;
};

class EdgeConnection {
 public:
  EdgeConnection(EdgeTransport& transport, HttpService& service, BodyBudget& budget,
                 const EdgeLimits& limits, const TrustedProxies& proxies, std::string peer,
                 int64_t now_ms);
  ~EdgeConnection();
  EdgeConnection(const EdgeConnection&) = delete;
  EdgeConnection& operator=(const EdgeConnection&) = delete;

  void OnData(std::string_view data, int64_t now_ms);
  const Progress& progress() const { return progress_; }
  bool closed() const { return state_ == State::kClosed; }
  size_t reserved() const { return reserved_; }

 private:
  enum class State { kHead, kBody, kClosed };
  void HeadComplete(int64_t now_ms);
  bool Reserve(size_t bytes);
  void RequestDone(int64_t now_ms);
  void Refuse(const Status& status);
  HttpRequest HeadRequest() const;

  EdgeTransport& transport_;
  HttpService& service_;
  BodyBudget& budget_;
  const EdgeLimits& limits_;
  const TrustedProxies& proxies_;
  const std::string peer_;

  State state_ = State::kHead;
  std::string head_;
  HeadScanner scanner_;
  RequestHead current_;
  bool parsed_ = false;
  size_t body_left_ = 0;
  std::string body_;  // a Content-Length body being collected (its head waits in head_)
  size_t body_seen_ = 0;
  ChunkedBodyTracker chunked_;
  size_t reserved_ = 0;
  Progress progress_;
};

}  // namespace dq::http::edge
