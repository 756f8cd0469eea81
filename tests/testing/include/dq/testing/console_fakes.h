// In-memory stand-ins for the console's stores, so that a ConsoleApi (and the session step in
// front of it) runs in a unit test without Redis:
//   InMemorySessionStore  sessions that end at their absolute end on the given clock (the idle
//                         timeout, a Redis key expiry, is not modelled)
//   InMemoryUserStore     users by account and e-mail, verification tokens without expiry
//   InMemoryLoginThrottle never refuses; counts nothing
//   PlainPasswordHasher   "plain:" + password (fast, and nothing to keep secret in a test)
//   RecordingMailer       keeps the mails it was asked to send
// ConsoleFakes bundles them with ConsoleDeps over an account store, a quota and a limiter.
// Thread-safe.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "console/console_api.h"
#include "dq/common/clock.h"

namespace dq::testing {

class InMemorySessionStore final : public gateway::SessionStore {
 public:
  InMemorySessionStore(const Clock& clock, gateway::SessionPolicy policy = {})
      : clock_(clock), policy_(policy) {}
  // Ids "session-1", "session-2", ...; CSRF tokens "csrf-1", "csrf-2", ...
  Result<gateway::Session> Create(std::string_view account_id) override;
  // nullopt for an unknown id, or once the clock reaches the session's end.
  Result<std::optional<gateway::Session>> Find(std::string_view id) override;
  Status Delete(std::string_view id) override;
  void SetUnavailable(bool down) {
    std::lock_guard lock(mu_);
    down_ = down;
  }

 private:
  const Clock& clock_;
  gateway::SessionPolicy policy_;
  std::mutex mu_;
  bool down_ = false;
  int next_ = 0;
  std::map<std::string, gateway::Session, std::less<>> sessions_;
};

class InMemoryUserStore final : public gateway::UserStore {
 public:
  Status Create(const gateway::User& user) override;
  Result<std::optional<gateway::User>> FindByEmail(std::string_view email) override;
  Result<std::optional<gateway::User>> Get(std::string_view account_id) override;
  Result<bool> EmailTaken(std::string_view email) override;
  Status CreateUnclaimed(const gateway::User& user) override;
  Result<std::string> NewVerifyToken(std::string_view account_id,
                                     std::chrono::seconds ttl) override;
  Result<std::optional<std::string>> Verify(std::string_view token) override;

 private:
  std::mutex mu_;
  std::map<std::string, gateway::User, std::less<>> users_;   // by account id
  std::map<std::string, std::string, std::less<>> emails_;    // claimed e-mail -> account id
  std::map<std::string, std::string, std::less<>> tokens_;    // token -> account id
};

class InMemoryLoginThrottle final : public gateway::LoginThrottle {
 public:
  Result<gateway::LoginAttempt> Begin(std::string_view, std::string_view,
                                      std::string_view) override {
    return gateway::LoginAttempt{};
  }
  Status Succeeded(std::string_view, const gateway::LoginAttempt&) override {
    return Status::Ok();
  }
  Result<std::string> IssueDevice(std::string_view email) override {
    return "device-" + std::string(email);
  }
  Result<int64_t> CountSignup(std::string_view) override { return int64_t{0}; }
};

class PlainPasswordHasher final : public gateway::PasswordHasher {
 public:
  Result<std::string> Hash(std::string_view password) const override {
    return "plain:" + std::string(password);
  }
  bool Verify(std::string_view encoded, std::string_view password) const override {
    return encoded == "plain:" + std::string(password);
  }
  bool VerifyDummy(std::string_view) const override { return false; }
};

class RecordingMailer final : public gateway::Mailer {
 public:
  Status Send(const gateway::MailMessage& message) override {
    std::lock_guard lock(mu_);
    sent_.push_back(message);
    return Status::Ok();
  }
  std::vector<gateway::MailMessage> sent() {
    std::lock_guard lock(mu_);
    return sent_;
  }

 private:
  std::mutex mu_;
  std::vector<gateway::MailMessage> sent_;
};

// Every console store in memory, and the ConsoleDeps over them plus the caller's account store,
// quota and limiter (which must outlive it).
struct ConsoleFakes {
  ConsoleFakes(AccountStore& accounts, gateway::QuotaService& quota,
               gateway::RateLimiter& limiter, const Clock& clock)
      : sessions(clock),
        deps{accounts, users, sessions, throttle, hasher, quota, limiter, clock, mailer} {}

  InMemoryUserStore users;
  InMemorySessionStore sessions;
  InMemoryLoginThrottle throttle;
  PlainPasswordHasher hasher;
  RecordingMailer mailer;
  gateway::ConsoleDeps deps;
};

}  // namespace dq::testing
