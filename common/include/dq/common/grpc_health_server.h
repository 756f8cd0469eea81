// A gRPC server that serves only the standard health service (grpc.health.v1.Health), for a
// service whose own protocol is not gRPC (the notifier), so that Kubernetes' native gRPC probes
// work for it too. SERVING follows ready(), re-checked every second; NOT_SERVING from the start
// of Shutdown().
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "dq/common/status.h"

namespace grpc {
class Server;
class ServerCompletionQueue;
}

namespace dq {

class GrpcHealthServer {
 public:
  GrpcHealthServer(std::string bind, int port, std::function<bool()> ready);
  ~GrpcHealthServer();
  // Errors: kUnavailable when the port cannot be bound.
  Status Start();
  void Shutdown();
  int port() const { return port_; }

 private:
  std::string bind_;
  int port_;
  std::function<bool()> ready_;
  std::unique_ptr<grpc::Server> server_;
  // gRPC refuses to start a server that has neither a sync service nor a completion queue that
  // someone polls; the health service is callback-based, so we own a queue and drain it.
  std::unique_ptr<grpc::ServerCompletionQueue> cq_;
  std::thread cq_drainer_;
  std::thread poller_;
  std::atomic<bool> stop_{false};
};

}  // namespace dq
