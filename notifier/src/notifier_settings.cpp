#include "notifier_settings.h"


extern char** environ;

namespace dq::notifier {

std::map<std::string, std::string> ProcessEnvironment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view kv(*e);
    const size_t eq = kv.find('=');
    if (eq == std::string_view::npos) continue;
    env.emplace(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
  }
  return env;
}

Result<NotifierSettings> LoadNotifierSettings(const std::map<std::string, std::string>& env) {
  auto s = Settings::Load(kNotifier, env);
  if (!s.ok()) return s.status();

  NotifierSettings out;
  out.log_level = s->String("DQ_LOG_LEVEL");
  auto redis = RedisOptionsFromSettings(*s);
  if (!redis.ok()) return redis.status();
  out.redis = std::move(*redis);
  out.bind = s->String("DQ_NOTIFIER_BIND");
  out.port = static_cast<int>(s->Int("DQ_NOTIFIER_PORT"));
  out.grpc_port = static_cast<int>(s->Int("DQ_NOTIFIER_GRPC_PORT"));
  out.allow_http = s->Int("DQ_WEBHOOK_ALLOW_HTTP") == 1;
  out.allow_private = s->Int("DQ_WEBHOOK_ALLOW_PRIVATE") == 1;
  out.workers = static_cast<int>(s->Int("DQ_NOTIFIER_WORKERS"));
  out.batch = static_cast<int>(s->Int("DQ_NOTIFIER_BATCH"));
  out.timeout_ms = s->Int("DQ_WEBHOOK_TIMEOUT_MS");
  out.connect_timeout_ms = s->Int("DQ_WEBHOOK_CONNECT_TIMEOUT_MS");
  out.fairness.per_account = static_cast<int>(s->Int("DQ_NOTIFIER_PER_ACCOUNT"));
  out.fairness.per_host = static_cast<int>(s->Int("DQ_NOTIFIER_PER_HOST"));
  out.fairness.breaker_failures = static_cast<int>(s->Int("DQ_WEBHOOK_BREAKER_FAILURES"));
  out.fairness.cooldown_ms = s->Int("DQ_WEBHOOK_BREAKER_COOLDOWN_MS");
  out.claim_idle_ms = s->Int("DQ_NOTIFIER_CLAIM_IDLE_MS");
  out.poll_ms = s->Int("DQ_NOTIFIER_POLL_MS");
  out.schedule.base_ms = s->Int("DQ_WEBHOOK_RETRY_BASE_MS");
  out.schedule.max_delay_ms = s->Int("DQ_WEBHOOK_RETRY_MAX_DELAY_MS");
  out.schedule.total_ms = s->Int("DQ_WEBHOOK_RETRY_TOTAL_MS");
  out.describe = s->Describe();
  return out;
}

}  // namespace dq::notifier
