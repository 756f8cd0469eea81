// When to try a failed webhook delivery again, and when to give up.
//
// Exponential backoff with "equal jitter": after the n-th failed attempt (n >= 1) the nominal
// delay is min(max_delay, base * 2^(n-1)) and the actual delay is drawn uniformly from
// [nominal/2, nominal]. Jitter spreads the retries of many events that failed together (a
// receiver outage) so they do not return as one burst. The schedule is measured from the first
// attempt: once the next attempt would fall after first_attempt + total, the event is
// dead-lettered instead.
//
// Production schedule (defaults): base 30 s, max delay 6 h, total 3 days: about 20 attempts.
// Tests compress it (e.g. base 50 ms, max 200 ms, total 1 s) through settings; see
// docs/notifier.md. Pure: the random source is injected; no clock is read.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>

namespace dq::webhook {

struct RetrySchedule {
  int64_t base_ms = 30'000;
  int64_t max_delay_ms = 6 * 3'600'000LL;
  int64_t total_ms = 3 * 86'400'000LL;
};

// Uniform doubles in [0, 1). Implementations must be thread-safe.
class RandomSource {
 public:
  virtual ~RandomSource() = default;
  virtual double Uniform01() = 0;
};

// A seeded Mersenne Twister behind a mutex.
class MtRandomSource final : public RandomSource {
 public:
  explicit MtRandomSource(uint64_t seed) : rng_(seed) {}
  double Uniform01() override {
    std::lock_guard lock(mu_);
    return std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
  }

 private:
  std::mutex mu_;
  std::mt19937_64 rng_;
};

class RetryPolicy {
 public:
  // random must outlive the policy.
  RetryPolicy(RetrySchedule schedule, RandomSource& random)
      : schedule_(schedule), random_(random) {}

  // The nominal (un-jittered) delay after the failed_attempts-th failure (>= 1).
  int64_t NominalDelayMs(int failed_attempts) const;

  // Unix ms of the next attempt after failed_attempts failures, the last at now_ms, for an event
  // whose first attempt was at first_attempt_ms; nullopt when the schedule is exhausted and the
  // event must be dead-lettered.
  std::optional<int64_t> NextAttemptMs(int failed_attempts, int64_t first_attempt_ms,
                                       int64_t now_ms) const;

  const RetrySchedule& schedule() const { return schedule_; }

 private:
  RetrySchedule schedule_;
  RandomSource& random_;
};

}  // namespace dq::webhook
