// Wires the validator: settings, the gRPC server with the service and the standard health
// service. main() only starts it and waits for a signal.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "dq/common/settings.h"
#include "rpc/validator_service.h"

namespace dq::validator {

struct ValidatorConfig {
  std::string bind = "0.0.0.0";
  int port = 50051;  // 0: pick a free port
  int max_threads = 0;

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

 private:
  ValidatorConfig config_;
  rpc::ValidatorService service_;
  std::unique_ptr<grpc::Server> server_;
  int bound_port_ = 0;
};

}  // namespace dq::validator
