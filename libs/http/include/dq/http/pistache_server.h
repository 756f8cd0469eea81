// The Pistache adapter: every byte a client sends passes the edge (edge/EdgeConnection) first,
// then Pistache's parser; complete requests become HttpRequest, go to the HttpService, and the
// HttpResponse is written back. Everything the HTTP library would answer on its own (unknown
// routes, wrong methods, exceptions, timeouts) reaches the service instead, so every answer is
// JSON and carries the headers every response carries. It depends on the rest of libs/http only.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "dq/http/edge/edge_limits.h"
#include "dq/http/download_ledger.h"
#include "dq/http/http_service.h"
#include "dq/http/server_metrics.h"

namespace Pistache::Http {
class Endpoint;
}

namespace dq::http {

struct HttpServerOptions {
  std::string bind = "0.0.0.0";
  int port = 8080;  // 0: any free port
  int threads = 8;
  edge::EdgeLimits limits;
  DownloadLimits downloads;  // streamed answers: stall timeout and memory bound
  // The ledger the server counts streamed answers in, when shared with the handlers (they may
  // refuse a download before building it: JobsApi); it must outlive the server and was made
  // with `downloads`. nullptr: the server keeps its own.
  DownloadLedger* download_ledger = nullptr;
  std::string trusted_proxies;  // comma-separated IPs or CIDRs whose X-Forwarded-For is used
};

class HttpServer {
 public:
  HttpServer(HttpService& service, HttpServerOptions options,
             HttpServerMetrics& metrics = HttpServerMetrics::Global());
  ~HttpServer();

  // Binds and starts serving on background threads. Errors: kUnavailable if the port cannot
  // be bound; kInvalidRequest if trusted_proxies does not parse.
  Status Start();
  // Stops accepting and closes connections.
  void Shutdown();
  int port() const { return port_; }

  // The edge's shared state (one per server).
  struct Shared;

 private:
  void Reap();

  HttpService& service_;
  HttpServerOptions options_;
  HttpServerMetrics& metrics_;
  std::unique_ptr<Shared> shared_;
  std::unique_ptr<Pistache::Http::Endpoint> endpoint_;
  std::thread reaper_;
  std::atomic<bool> stop_{false};
  int port_ = 0;
};

}  // namespace dq::http
