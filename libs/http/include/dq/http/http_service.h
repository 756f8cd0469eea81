// What an HTTP adapter serves. The adapter (libs/http: pistache_server) owns sockets and bytes; the service
// (the Gateway) owns meaning. Nothing in http/ depends on the Gateway: it depends on this.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "dq/common/status.h"
#include "dq/http/http_types.h"

namespace dq::http {

// One finished exchange, for the access log.
struct ExchangeRecord {
  const HttpRequest* request = nullptr;  // body may be empty (moved out, or never read)
  const HttpResponse* response = nullptr;
  size_t bytes_in = 0;
  std::chrono::steady_clock::duration duration{};
  bool refused_at_edge = false;  // answered by the edge before the request was complete
};

class HttpService {
 public:
  virtual ~HttpService() = default;

  // A complete request in, its response out. Never throws.
  virtual HttpResponse Handle(const HttpRequest& request) = 0;

  // Called once a header block is in, before a body larger than the unauthenticated limit
  // (or of unknown length: chunked) is accepted; request.body is empty. nullopt: accept the
  // body. Otherwise the answer to send at once (401, 403, 404, 429...), after which the
  // connection is closed and the rest of the body discarded. Never throws.
  virtual std::optional<HttpResponse> Admit(const HttpRequest& head,
                                            std::optional<size_t> body_bytes) = 0;

  // The answer for an error the transport found itself (malformed or oversized head, a body
  // too large, overload, a timeout), carrying the headers every response carries. head holds
  // what could be parsed: its path may be empty. Never throws.
  virtual HttpResponse TransportError(const HttpRequest& head, const Status& status) = 0;

  // The access-log hook: called once per answered request, after the answer was handed to the
  // transport (edge refusals included). Default: nothing.
  virtual void Record(const ExchangeRecord& record) { (void)record; }
};

// The request id to use: the client's X-Request-Id when it is sane (1-128 of [A-Za-z0-9._-]),
// otherwise a new UUID.
std::string RequestIdFor(const HttpRequest& request);

}  // namespace dq::http

namespace dq::http {

// The response as HTTP/1.1 bytes: status line, the response's headers, Content-Type,
// Content-Length, X-Request-Id and Connection, then the body.
std::string SerializeResponse(const HttpResponse& response, const std::string& request_id,
                              bool close);

}  // namespace dq::http
