// dq-gateway: the REST API (Pistache). Stateless; every replica shares one Redis.
#include <cstdio>

#include "dq/common/log.h"
#include "dq/common/settings.h"
#include "dq/common/signals.h"
#include "gateway_app.h"

int main() {
  dq::BlockTerminationSignals();
  auto settings = dq::Settings::FromEnvironment(dq::kGateway);
  if (!settings.ok()) {
    std::fprintf(stderr, "dq-gateway: %s\n", settings.status().message().c_str());
    return 2;
  }
  dq::log::Level level = dq::log::Level::kInfo;
  dq::log::ParseLevel(settings->String("DQ_LOG_LEVEL"), &level);
  dq::log::Init("gateway", level);
  dq::log::Info("starting", {{"settings", settings->Describe()}});

  dq::gateway::GatewayApp app(*settings);
  if (dq::Status s = app.Start(); !s.ok()) {
    dq::log::Error("could not start", {{"error", s.message()}});
    return 1;
  }
  const int sig = dq::WaitForTerminationSignal();
  dq::log::Info("shutting down", {{"signal", std::to_string(sig)}});
  app.Shutdown();
  return 0;
}
