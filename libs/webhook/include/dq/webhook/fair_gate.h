// Fairness between tenants for webhook attempts: how many may be in flight at once per account
// and per destination, and a circuit breaker per destination.
//
// A receiver that never answers holds each attempt for the whole timeout. Without limits, one
// tenant's dead endpoint (or many accounts pointed at one) occupied every delivery thread and
// delayed everyone else's deliveries by minutes. The gate lets an attempt start only while its
// account has fewer than per_account attempts in flight and its destination fewer than
// per_host; an attempt that may not start now is put back on the schedule (it costs no attempt
// and no thread), so the threads stay free for everybody else.
//
// The breaker: after `breaker_failures` attempts in a row to one destination that got no answer
// (a timeout, a refused or failed connection), the destination is "open" for `cooldown`; its
// attempts then fail at once, without a connection ("not answering"), and go on along their
// schedule like any failed attempt. When the cooldown ends one attempt is let through (half
// open): an answer of any status closes the breaker, no answer opens it again for twice the
// cooldown (at most max_cooldown).
//
// A destination is "host:port" of the webhook URL. Pure logic over the times passed in;
// thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace dq::webhook {

struct FairnessLimits {
  int per_account = 2;             // DQ_NOTIFIER_PER_ACCOUNT
  int per_host = 4;                // DQ_NOTIFIER_PER_HOST
  int breaker_failures = 3;        // DQ_WEBHOOK_BREAKER_FAILURES
  int64_t cooldown_ms = 30'000;    // DQ_WEBHOOK_BREAKER_COOLDOWN_MS
  int64_t max_cooldown_ms = 600'000;
};

enum class Admission {
  kGo,           // start the attempt now; call Done() when it has ended
  kAccountBusy,  // the account has per_account attempts in flight: put it back
  kHostBusy,     // the destination has per_host attempts in flight (or its probe): put it back
  kHostOpen,     // the destination's breaker is open: fail this attempt without a connection
};

// How an attempt went, for the breaker.
enum class Reach { kAnswered, kNoAnswer };

class FairGate {
 public:
  explicit FairGate(FairnessLimits limits) : limits_(limits) {}

  Admission Admit(std::string_view account, std::string_view host, int64_t now_ms);
  // Ends an attempt that Admit() let start.
  void Done(std::string_view account, std::string_view host, Reach reach, int64_t now_ms);
  // Ends an attempt that Admit() let start but that was not made (another attempt of its
  // delivery was sending): it counts neither as an answer nor as a failure.
  void Release(std::string_view account, std::string_view host);

  // Accounts that may not start an attempt now: at their own cap, or last seen sending to a
  // destination at its cap. The schedule's claim leaves their retries where they are.
  std::vector<std::string> BusyAccounts() const;
  // Until when the destination's breaker is open (0: closed or half open).
  int64_t OpenUntil(std::string_view host) const;
  int InFlight(std::string_view account) const;

 private:
  struct Host {
    int in_flight = 0;
    int failures = 0;        // attempts in a row with no answer
    int64_t open_until = 0;  // > 0: open until then; afterwards half open
    int64_t cooldown = 0;    // the last cooldown, doubled on each reopening
    bool probing = false;    // the half-open attempt is in flight
  };

  using HostMap = std::map<std::string, Host, std::less<>>;
  // One attempt of account to host ends (under mu_): both in-flight counts go down, an account
  // with none left is forgotten. Returns the host's entry (hosts_.end() when it has none).
  HostMap::iterator EndAttemptLocked(std::string_view account, std::string_view host);

  const FairnessLimits limits_;
  mutable std::mutex mu_;
  std::map<std::string, int, std::less<>> accounts_;
  HostMap hosts_;
  std::map<std::string, std::string, std::less<>> last_host_;  // account -> destination
};

// "host:port" of an http(s) URL (the scheme's default port when none is given); "" when the
// URL has no host.
std::string DestinationOf(std::string_view url);

}  // namespace dq::webhook
