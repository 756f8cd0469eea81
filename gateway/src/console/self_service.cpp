#include "self_service.h"


namespace dq::gateway {

SelfService::SelfService(const Settings& s, RedisClient& redis, AccountStore& accounts,
                         QuotaService& quota, RateLimiter& limiter, const Clock& clock) {
  users_ = std::make_unique<RedisUserStore>(redis);
  SessionPolicy sp;
  sp.idle = std::chrono::seconds(s.Int("DQ_SESSION_IDLE_SECONDS"));
  sp.absolute = std::chrono::seconds(s.Int("DQ_SESSION_MAX_SECONDS"));
  sessions_ = std::make_unique<RedisSessionStore>(redis, clock, sp);
  LoginThrottlePolicy tp;
  tp.max_failures = s.Int("DQ_LOGIN_MAX_FAILURES");
  tp.window = std::chrono::seconds(s.Int("DQ_LOGIN_FAILURE_WINDOW_SECONDS"));
  tp.max_signups = s.Int("DQ_SIGNUPS_PER_ADDRESS");
  tp.signup_window = std::chrono::seconds(s.Int("DQ_SIGNUP_WINDOW_SECONDS"));
  throttle_ = std::make_unique<RedisLoginThrottle>(redis, tp);
  if (s.String("DQ_MAIL_TRANSPORT") == "file") {
    mailer_ = std::make_unique<FileMailer>(s.String("DQ_MAIL_DIR"), s.String("DQ_MAIL_FROM"));
  } else {
    mailer_ = std::make_unique<LogMailer>();
  }
  Argon2Params ap;
  ap.time_cost = static_cast<uint32_t>(s.Int("DQ_ARGON2_TIME_COST"));
  ap.memory_kib = static_cast<uint32_t>(s.Int("DQ_ARGON2_MEMORY_KIB"));
  ap.parallelism = static_cast<uint32_t>(s.Int("DQ_ARGON2_PARALLELISM"));
  hasher_ = std::make_unique<Argon2PasswordHasher>(ap);
  ConsoleOptions co;
  co.secure_cookie = s.Int("DQ_CONSOLE_ALLOW_HTTP") == 0;
  co.session_max = sp.absolute;
  co.rate_limiting = s.Int("DQ_RATE_LIMIT_ENABLED") == 1;
  co.base_url = s.String("DQ_CONSOLE_BASE_URL");
  while (!co.base_url.empty() && co.base_url.back() == '/') co.base_url.pop_back();
  console_ = std::make_unique<ConsoleApi>(
      ConsoleDeps{accounts, *users_, *sessions_, *throttle_, *hasher_, quota, limiter, clock,
                  *mailer_},
      co);

  delivery_log_ = std::make_unique<webhook::RedisDeliveryLog>(redis);
  const webhook::UrlPolicy up{s.Int("DQ_WEBHOOK_ALLOW_HTTP") == 1,
                               s.Int("DQ_WEBHOOK_ALLOW_PRIVATE") == 1};
  webhooks_ = std::make_unique<WebhookApi>(WebhookApiDeps{
      accounts, *delivery_log_, up, clock, s.Int("DQ_WEBHOOK_SECRET_OVERLAP_S") * 1000});
}

}  // namespace dq::gateway
