// The notifier's only HTTP surface: GET /healthz (alive), /readyz (Redis reachable) and /metrics
// (Prometheus text). Pistache, one worker thread: these are probes, not traffic.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "dq/common/status.h"

namespace Pistache::Http {
class Endpoint;
}

namespace dq::notifier {

class HealthServer {
 public:
  HealthServer(std::string bind, int port, std::function<bool()> ready);
  ~HealthServer();
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

}  // namespace dq::notifier
