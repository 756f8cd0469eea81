// Wiring of the self-service parts from settings: users, sessions, sign-in throttling, password
// hashing, the console API and the webhook API (with the notifier's delivery log). Owned by
// GatewayApp.
#pragma once

#include <memory>

#include "limits/quota.h"
#include "limits/rate_limiter.h"
#include "webhooks/webhook_api.h"
#include "console_api.h"
#include "dq/common/delivery_log.h"
#include "dq/common/account_store.h"
#include "dq/common/redis_client.h"
#include "dq/common/settings.h"

namespace dq::gateway {

class SelfService {
 public:
  SelfService(const Settings& s, RedisClient& redis, AccountStore& accounts, QuotaService& quota,
              RateLimiter& limiter, const Clock& clock);
  ConsoleApi* console() { return console_.get(); }
  WebhookApi* webhooks() { return webhooks_.get(); }

 private:
  std::unique_ptr<RedisUserStore> users_;
  std::unique_ptr<RedisSessionStore> sessions_;
  std::unique_ptr<RedisLoginThrottle> throttle_;
  std::unique_ptr<Mailer> mailer_;
  std::unique_ptr<Argon2PasswordHasher> hasher_;
  std::unique_ptr<ConsoleApi> console_;
  std::unique_ptr<webhook::RedisDeliveryLog> delivery_log_;
  std::unique_ptr<WebhookApi> webhooks_;
};

}  // namespace dq::gateway
