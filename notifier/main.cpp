// dq-notifier: delivers signed job.complete webhooks from the dq:events stream.
#include <cstdio>

#include "dq/webhook/curl_http_sender.h"
#include "dq/common/log.h"
#include "dq/common/signals.h"
#include "notifier_app.h"
#include "notifier_settings.h"

int main() {
  dq::BlockTerminationSignals();
  dq::webhook::CurlHttpSender::GlobalInit();
  auto settings = dq::notifier::LoadNotifierSettings(dq::notifier::ProcessEnvironment());
  if (!settings.ok()) {
    std::fprintf(stderr, "dq-notifier: %s\n", settings.status().message().c_str());
    return 2;
  }
  dq::log::Level level = dq::log::Level::kInfo;
  dq::log::ParseLevel(settings->log_level, &level);
  dq::log::Init("notifier", level);
  dq::log::Info("starting", {{"settings", settings->describe}});

  dq::notifier::NotifierApp app(*settings);
  if (dq::Status s = app.Start(); !s.ok()) {
    dq::log::Error("could not start", {{"error", s.message()}});
    return 1;
  }
  const int sig = dq::WaitForTerminationSignal();
  dq::log::Info("shutting down", {{"signal", std::to_string(sig)}});
  app.Shutdown();
  return 0;
}
