// dq-gateway: the REST API (Pistache) and the job workers. Stateless; every replica shares one
// Redis. DQ_ROLE=api|worker|all picks what this process runs (gateway/src/role.h).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "dq/webhook/curl_http_sender.h"
#include "dq/common/allocator.h"
#include "dq/common/log.h"
#include "dq/common/settings.h"
#include "dq/common/signals.h"
#include "gateway_app.h"
#include "gateway_settings.h"
#include "role.h"

int main() {
  dq::TuneAllocator(std::getenv("GLIBC_TUNABLES"));  // keeps memory between jobs (allocator.h)
  dq::BlockTerminationSignals();
  dq::webhook::CurlHttpSender::GlobalInit();  // test deliveries; before any thread starts
  auto settings = dq::Settings::FromEnvironment(dq::kGateway);
  if (!settings.ok()) {
    std::fprintf(stderr, "dq-gateway: %s\n", settings.status().message().c_str());
    return 2;
  }
  auto typed = dq::gateway::BindGatewaySettings(*settings);
  if (!typed.ok()) {
    std::fprintf(stderr, "dq-gateway: %s\n", typed.status().message().c_str());
    return 2;
  }
  dq::log::Level level = dq::log::Level::kInfo;
  dq::log::ParseLevel(typed->log_level, &level);
  dq::log::Init("gateway", level);
  dq::log::Info("starting", {{"settings", settings->Describe()}});

  dq::gateway::GatewayApp app(*typed, *settings);
  if (dq::Status s = app.Start(); !s.ok()) {
    dq::log::Error("could not start", {{"error", s.message()}});
    return 1;
  }
  const int sig = dq::WaitForTerminationSignal();
  // Drain: readiness fails first so load balancers stop routing here, in-flight requests finish,
  // then the server stops. A second signal is not waited for; SIGKILL ends it early.
  const auto grace = typed->shutdown_grace;
  dq::log::Info("draining", {{"signal", std::to_string(sig)},
                             {"grace_ms", std::to_string(grace.count())}});
  app.BeginDrain();
  // The worker role has no HTTP traffic to drain: its workers stop taking jobs at once, and
  // Shutdown() gives running ones a moment; an unfinished job is taken over by another worker.
  if (typed->role != dq::gateway::Role::kWorker) std::this_thread::sleep_for(grace);
  app.Shutdown();
  dq::log::Info("stopped");
  return 0;
}
