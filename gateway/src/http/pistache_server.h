// The Pistache adapter: converts Pistache requests to HttpRequest, calls the Gateway, and writes
// the HttpResponse back. ~Everything the HTTP library would answer on its own (unknown routes,
// wrong methods, exceptions) reaches the Gateway instead, so every answer is JSON; see
// docs/api.md for the two library limits that remain (bodies past the hard cap, header timeout).
#pragma once

#include <memory>
#include <string>

#include "../gateway.h"

namespace Pistache::Http {
class Endpoint;
}

namespace dq::gateway {

struct HttpServerOptions {
  std::string bind = "0.0.0.0";
  int port = 8080;  // 0: any free port
  int threads = 8;
  size_t max_request_bytes = 64 * 1024 * 1024;  // hard cap on one buffered request
};

class HttpServer {
 public:
  HttpServer(Gateway& gateway, HttpServerOptions options);
  ~HttpServer();

  // Binds and starts serving on background threads. Errors: kUnavailable if the port cannot
  // be bound.
  Status Start();
  // Stops accepting and closes connections.
  void Shutdown();
  int port() const { return port_; }

 private:
  Gateway& gateway_;
  HttpServerOptions options_;
  std::unique_ptr<Pistache::Http::Endpoint> endpoint_;
  int port_ = 0;
};

}  // namespace dq::gateway
