// The notifier's settings, loaded once from the environment.
//
// Every setting is a row of the shared table (common/src/settings.cpp); this turns the validated
// values into the notifier's typed struct.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "dq/common/redis_client.h"
#include "dq/common/settings.h"
#include "dq/webhook/fair_gate.h"
#include "dq/webhook/retry_policy.h"

namespace dq::notifier {

struct NotifierSettings {
  std::string log_level = "info";
  RedisOptions redis;
  std::string bind = "0.0.0.0";
  int port = 9091;
  int grpc_port = 9092;  // DQ_NOTIFIER_GRPC_PORT: grpc.health.v1 only
  bool allow_http = false;
  bool allow_private = false;
  int workers = 8;                 // DQ_NOTIFIER_WORKERS: delivery threads (one curl handle each)
  int batch = 16;                  // DQ_NOTIFIER_BATCH: entries per XREADGROUP
  int64_t timeout_ms = 10'000;     // DQ_WEBHOOK_TIMEOUT_MS
  int64_t connect_timeout_ms = 2'000;  // DQ_WEBHOOK_CONNECT_TIMEOUT_MS
  webhook::FairnessLimits fairness;    // DQ_NOTIFIER_PER_{ACCOUNT,HOST}, DQ_WEBHOOK_BREAKER_*
  int64_t claim_idle_ms = 120'000; // DQ_NOTIFIER_CLAIM_IDLE_MS
  int64_t poll_ms = 250;           // DQ_NOTIFIER_POLL_MS: retry-schedule and reclaim poll
  webhook::RetrySchedule schedule;          // DQ_WEBHOOK_RETRY_{BASE,MAX_DELAY,TOTAL}_MS
  std::string describe;            // for the start-up log line
};

// Loads from env (name -> value). Errors: kInvalidRequest naming the variable.
Result<NotifierSettings> LoadNotifierSettings(const std::map<std::string, std::string>& env);
// The process environment.
std::map<std::string, std::string> ProcessEnvironment();

}  // namespace dq::notifier
