// Wires the validator: settings, the gRPC server with the service and the standard health
// service. main() only starts it and waits for a signal.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <memory>
#include <string>

#include "dq/common/ops_http_server.h"
#include "dq/common/settings.h"
#include "engine/worker_pool.h"
#include "rpc/validator_service.h"

namespace dq::validator {

struct ValidatorConfig {
  std::string bind = "0.0.0.0";
  int port = 50051;  // 0: pick a free port
  int max_threads = 0;
  // Threads that evaluate the chunks of streams (DQ_VALIDATOR_EVAL_THREADS); 0: AvailableCpus().
  int eval_threads = 0;
  int ops_port = 9090;  // HTTP /healthz /readyz /metrics
  static ValidatorConfig FromSettings(const Settings& s);
};

class ValidatorServer {
 public:
  explicit ValidatorServer(ValidatorConfig config);
  ~ValidatorServer();

  // Starts serving; false if the port could not be bound. port() is then the bound port.
  bool Start();
  // Marks the health service NOT_SERVING, then lets in-flight calls finish for up to the grace
  // period before cancelling them.
  void Shutdown(std::chrono::milliseconds grace);
  int port() const { return bound_port_; }
  int ops_port() const { return ops_ ? ops_->port() : 0; }

 private:
  ValidatorConfig config_;
  std::unique_ptr<WorkerPool> pool_;  // before service_, which uses it
  rpc::ValidatorService service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<OpsHttpServer> ops_;
  std::atomic<bool> serving_{false};
  int bound_port_ = 0;
};

}  // namespace dq::validator
