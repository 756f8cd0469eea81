// The notifier's settings, loaded once from the environment.
//
// Most come from the shared table (common/src/settings.cpp). The ones listed in
// kNotifierExtraSettings are not in that table yet; they are read here, range-checked, and removed
// from the environment before the shared loader (which rejects unknown DQ_* names) runs. When the
// table gains them, this list shrinks to nothing.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "dq/common/redis_client.h"
#include "dq/common/settings.h"
#include "retry_policy.h"

namespace dq::notifier {

struct ExtraSetting {
  std::string_view name;
  int64_t default_value;
  int64_t min;
  int64_t max;
  std::string_view help;
};
std::span<const ExtraSetting> NotifierExtraSettings();

struct NotifierSettings {
  std::string log_level = "info";
  RedisOptions redis;
  std::string bind = "0.0.0.0";
  int port = 9091;
  bool allow_http = false;
  bool allow_private = false;
  int workers = 8;                 // DQ_NOTIFIER_WORKERS: delivery threads (one curl handle each)
  int batch = 16;                  // DQ_NOTIFIER_BATCH: entries per XREADGROUP
  int64_t timeout_ms = 10'000;     // DQ_WEBHOOK_TIMEOUT_MS
  int64_t claim_idle_ms = 120'000; // DQ_NOTIFIER_CLAIM_IDLE_MS
  int64_t poll_ms = 250;           // DQ_NOTIFIER_POLL_MS: retry-schedule and reclaim poll
  RetrySchedule schedule;          // DQ_WEBHOOK_RETRY_{BASE,MAX_DELAY,TOTAL}_MS
  std::string describe;            // for the start-up log line
};

// Loads from env (name -> value). Errors: kInvalidRequest naming the variable.
Result<NotifierSettings> LoadNotifierSettings(const std::map<std::string, std::string>& env);
// The process environment.
std::map<std::string, std::string> ProcessEnvironment();

}  // namespace dq::notifier
