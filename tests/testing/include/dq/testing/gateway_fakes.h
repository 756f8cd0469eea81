// In-memory stand-ins for the gateway's I/O interfaces: rate limiter, quota, validator.
#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "clients/validator_client.h"
#include "dq/http/ordered_output.h"
#include "dq/common/clock.h"
#include "limits/quota.h"
#include "limits/rate_limiter.h"

namespace dq::testing {

// The records of packed rows (the form the gateway sends), one Row each, for fakes and tests.
std::vector<validator::v1::Row> RowsOf(const validator::v1::PackedRows& packed);

// The fixed-window algorithm over a map, driven by a Clock (use FakeClock).
class InMemoryRateLimiter final : public gateway::RateLimiter {
 public:
  InMemoryRateLimiter(const Clock& clock, gateway::RateLimitPolicy policy)
      : clock_(clock), policy_(policy) {}
  Result<gateway::RateDecision> Acquire(std::string_view subject, gateway::RateClass c) override;
  Result<gateway::RateDecision> Peek(std::string_view subject, gateway::RateClass c) override;
  gateway::RateDecision Unknown(gateway::RateClass c) const override;
  void SetUnavailable(bool down) { down_ = down; }

 private:
  Result<gateway::RateDecision> Run(std::string_view subject, gateway::RateClass c, bool consume);
  const Clock& clock_;
  gateway::RateLimitPolicy policy_;
  std::mutex mu_;
  bool down_ = false;
  std::map<std::string, std::pair<int64_t, int64_t>> windows_;  // key -> (window start, count)
};

class InMemoryQuotaService final : public gateway::QuotaService {
 public:
  explicit InMemoryQuotaService(gateway::QuotaPolicy policy) : policy_(policy) {}
  Result<gateway::QuotaReservation> Reserve(const Account& account, int64_t records,
                                            std::string id = "") override;
  Status Release(const gateway::QuotaReservation& r) override;
  Result<gateway::QuotaUsage> Usage(const Account& account) override;
  int64_t used(const std::string& account_id) {
    std::lock_guard lock(mu_);
    return used_[account_id];
  }

 private:
  gateway::QuotaPolicy policy_;
  std::mutex mu_;
  std::map<std::string, int64_t> used_;
};

// Answers with whatever `respond` returns; counts calls. Thread-safe: the validate pool calls it
// from several threads at once (the responder runs outside the lock, so one hung call does not
// hold the others).
class FakeValidatorClient final : public gateway::ValidatorClient {
 public:
  using Responder = std::function<Result<validator::v1::ValidateResponse>(
      const validator::v1::ValidateRequest&)>;
  explicit FakeValidatorClient(Responder respond) : respond_(std::move(respond)) {}
  Status Validate(const validator::v1::ValidateRequest& request,
                  validator::v1::ValidateResponse* response) override {
    {
      std::lock_guard lock(mu_);
      ++calls_;
      last_ = request;
    }
    auto answer = respond_(request);
    if (!answer.ok()) return answer.status();
    response->CopyFrom(*answer);  // the caller's message may live on an arena
    return Status::Ok();
  }
  bool Healthy() override { return healthy_.load(); }
  void SetHealthy(bool h) { healthy_.store(h); }
  int calls() const {
    std::lock_guard lock(mu_);
    return calls_;
  }
  // The last request; read it once the calls are over.
  validator::v1::ValidateRequest last() const {
    std::lock_guard lock(mu_);
    return last_;
  }

 private:
  Responder respond_;
  mutable std::mutex mu_;
  int calls_ = 0;
  std::atomic<bool> healthy_{true};
  validator::v1::ValidateRequest last_;
};

// A connection as OrderedOutput sees it: a socket that takes `accept` more bytes (then reports
// a full buffer, or a failure once `failed`), and a library queue that writes its entries, in
// order, only when the test calls Drain(). `wire` is what the client receives.
class FakeOutputSink final : public http::OutputSink {
 public:
  ssize_t TrySend(std::string_view first, std::string_view second) override {
    ++direct_sends;
    if (failed) return -1;
    size_t n = 0;
    for (std::string_view part : {first, second}) {
      const size_t take = std::min(part.size(), accept);
      wire.append(part.substr(0, take));
      accept -= take;
      n += take;
    }
    return static_cast<ssize_t>(n);
  }
  void Enqueue(std::string bytes, std::function<void()> done) override {
    queue.emplace_back(std::move(bytes), std::move(done));
  }
  // Writes every queued entry to the wire, oldest first, and runs its completion.
  void Drain() {
    while (!queue.empty()) {
      auto [bytes, done] = std::move(queue.front());
      queue.erase(queue.begin());
      wire += bytes;
      done();
    }
  }

  size_t accept = static_cast<size_t>(-1);
  bool failed = false;
  std::string wire;
  int direct_sends = 0;
  std::vector<std::pair<std::string, std::function<void()>>> queue;
};

}  // namespace dq::testing
