#include "dq/webhook/retry_policy.h"

#include <algorithm>

namespace dq::webhook {

int64_t RetryPolicy::NominalDelayMs(int failed_attempts) const {
  int64_t delay = std::max<int64_t>(schedule_.base_ms, 1);
  for (int i = 1; i < failed_attempts && delay < schedule_.max_delay_ms; ++i) delay *= 2;
  return std::min(delay, std::max<int64_t>(schedule_.max_delay_ms, 1));
}

std::optional<int64_t> RetryPolicy::NextAttemptMs(int failed_attempts, int64_t first_attempt_ms,
                                                  int64_t now_ms) const {
  const int64_t nominal = NominalDelayMs(std::max(failed_attempts, 1));
  const int64_t half = nominal / 2;
  double u = random_.Uniform01();
  u = std::clamp(u, 0.0, 1.0);
  const int64_t delay = half + static_cast<int64_t>(static_cast<double>(nominal - half) * u);
  const int64_t due = now_ms + delay;
  if (due > first_attempt_ms + schedule_.total_ms) return std::nullopt;
  return due;
}

}  // namespace dq::webhook
