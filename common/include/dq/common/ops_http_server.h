// The operations port of a service that serves no HTTP API of its own (validator, notifier):
// GET /healthz (alive), /readyz (ready() says yes) and /metrics (Prometheus text from
// Metrics::Global()). Pistache, one worker thread: these are probes, not traffic.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "dq/common/status.h"

namespace Pistache::Http {
class Endpoint;
}

namespace dq {

class OpsHttpServer {
 public:
  OpsHttpServer(std::string bind, int port, std::function<bool()> ready);
  ~OpsHttpServer();
  // Errors: kUnavailable when the port cannot be bound.
  Status Start();
  void Shutdown();
  int port() const { return port_; }

 private:
  std::string bind_;
  int port_;
  std::function<bool()> ready_;
  std::unique_ptr<Pistache::Http::Endpoint> endpoint_;
};

}  // namespace dq
