// dq-validator: the rule engine over gRPC. Stateless; scale it with replicas.
#include <cstdio>
#include <cstdlib>

#include "dq/common/allocator.h"
#include "dq/common/log.h"
#include "dq/common/settings.h"
#include "dq/common/signals.h"
#include "validator_server.h"

int main() {
  dq::TuneAllocator(std::getenv("GLIBC_TUNABLES"));  // keeps memory between jobs (allocator.h)
  dq::BlockTerminationSignals();
  auto settings = dq::Settings::FromEnvironment(dq::kValidator);
  if (!settings.ok()) {
    std::fprintf(stderr, "dq-validator: %s\n", settings.status().message().c_str());
    return 2;
  }
  dq::log::Level level = dq::log::Level::kInfo;
  dq::log::ParseLevel(settings->String("DQ_LOG_LEVEL"), &level);
  dq::log::Init("validator", level);
  dq::log::Info("starting", {{"settings", settings->Describe()}});

  dq::validator::ValidatorServer server(dq::validator::ValidatorConfig::FromSettings(*settings));
  if (!server.Start()) {
    dq::log::Error("could not start the gRPC server");
    return 1;
  }
  const int sig = dq::WaitForTerminationSignal();
  dq::log::Info("shutting down", {{"signal", std::to_string(sig)}});
  server.Shutdown(std::chrono::seconds(10));
  return 0;
}
