#include "notifier_settings.h"

#include <array>
#include <charconv>

extern char** environ;

namespace dq::notifier {
namespace {

constexpr std::array<ExtraSetting, 8> kExtras = {{
    {"DQ_NOTIFIER_WORKERS", 8, 1, 256, "delivery threads (one connection cache each)"},
    {"DQ_NOTIFIER_BATCH", 16, 1, 1000, "stream entries read per XREADGROUP"},
    {"DQ_WEBHOOK_TIMEOUT_MS", 10'000, 50, 120'000, "whole-request timeout of one webhook POST"},
    {"DQ_NOTIFIER_CLAIM_IDLE_MS", 120'000, 100, 86'400'000,
     "pending events idle this long are reclaimed from their (dead) consumer"},
    {"DQ_NOTIFIER_POLL_MS", 250, 10, 60'000, "how often due retries and stale events are polled"},
    {"DQ_WEBHOOK_RETRY_BASE_MS", 30'000, 1, 86'400'000, "first retry delay (doubles each time)"},
    {"DQ_WEBHOOK_RETRY_MAX_DELAY_MS", 21'600'000, 1, 7 * 86'400'000LL,
     "longest delay between two attempts"},
    {"DQ_WEBHOOK_RETRY_TOTAL_MS", 259'200'000, 1, 30 * 86'400'000LL,
     "retry schedule length; then dead letter"},
}};

}  // namespace

std::span<const ExtraSetting> NotifierExtraSettings() { return kExtras; }

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
  std::map<std::string, std::string> shared = env;
  std::map<std::string, int64_t> extra;
  std::string describe_extra;
  for (const auto& spec : kExtras) {
    int64_t value = spec.default_value;
    if (auto it = shared.find(std::string(spec.name)); it != shared.end()) {
      const std::string& text = it->second;
      const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) {
        return Status(ErrorCode::kInvalidRequest,
                      std::string(spec.name) + " must be an integer, got \"" + text + "\"");
      }
      if (value < spec.min || value > spec.max) {
        return Status(ErrorCode::kInvalidRequest,
                      std::string(spec.name) + " must be between " + std::to_string(spec.min) +
                          " and " + std::to_string(spec.max) + ", got " + text);
      }
      shared.erase(it);
    }
    extra[std::string(spec.name)] = value;
    describe_extra.append(" ").append(spec.name).append("=").append(std::to_string(value));
  }
  auto s = Settings::Load(kNotifier, shared);
  if (!s.ok()) return s.status();

  NotifierSettings out;
  out.log_level = s->String("DQ_LOG_LEVEL");
  out.redis.host = s->String("DQ_REDIS_HOST");
  out.redis.port = static_cast<int>(s->Int("DQ_REDIS_PORT"));
  out.redis.password = s->String("DQ_REDIS_PASSWORD");
  out.redis.timeout = std::chrono::milliseconds(s->Int("DQ_REDIS_TIMEOUT_MS"));
  out.redis.pool_size = static_cast<size_t>(s->Int("DQ_REDIS_POOL_SIZE"));
  out.bind = s->String("DQ_NOTIFIER_BIND");
  out.port = static_cast<int>(s->Int("DQ_NOTIFIER_PORT"));
  out.allow_http = s->Int("DQ_WEBHOOK_ALLOW_HTTP") == 1;
  out.allow_private = s->Int("DQ_WEBHOOK_ALLOW_PRIVATE") == 1;
  out.workers = static_cast<int>(extra["DQ_NOTIFIER_WORKERS"]);
  out.batch = static_cast<int>(extra["DQ_NOTIFIER_BATCH"]);
  out.timeout_ms = extra["DQ_WEBHOOK_TIMEOUT_MS"];
  out.claim_idle_ms = extra["DQ_NOTIFIER_CLAIM_IDLE_MS"];
  out.poll_ms = extra["DQ_NOTIFIER_POLL_MS"];
  out.schedule.base_ms = extra["DQ_WEBHOOK_RETRY_BASE_MS"];
  out.schedule.max_delay_ms = extra["DQ_WEBHOOK_RETRY_MAX_DELAY_MS"];
  out.schedule.total_ms = extra["DQ_WEBHOOK_RETRY_TOTAL_MS"];
  out.describe = s->Describe() + describe_extra;
  return out;
}

}  // namespace dq::notifier
