// The rate limiter's cost per decision against a real redis-server: one EVALSHA round trip.
// Starts its own redis-server on a free loopback port; prints p50/p90/p99/max in microseconds.
//
//   build/bench/limiter_bench [requests=20000] [threads=1]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "dq/common/clock.h"
#include "dq/testing/harness.h"
#include "limits/rate_limiter.h"

int main(int argc, char** argv) {
  const int requests = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  dq::testing::RedisServer redis;
  dq::RedisOptions ro;
  ro.port = redis.port();
  dq::RedisClient client(ro);
  dq::gateway::RateLimitPolicy policy;
  policy.general = 1'000'000'000;  // never refuse: measure the decision, not the refusal
  dq::gateway::RedisRateLimiter limiter(client, dq::SystemClock::Instance(), policy);

  std::vector<std::vector<double>> per_thread(threads);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      auto& lat = per_thread[t];
      lat.reserve(requests / threads);
      const std::string subject = "acct_bench" + std::to_string(t % 4);
      for (int i = 0; i < requests / threads; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        auto d = limiter.Acquire(subject, dq::gateway::RateClass::kGeneral);
        const auto t1 = std::chrono::steady_clock::now();
        if (!d.ok() || !d->allowed) {
          std::fprintf(stderr, "unexpected refusal\n");
          std::exit(1);
        }
        lat.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      }
    });
  }
  for (auto& th : pool) th.join();
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<double> all;
  for (auto& v : per_thread) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  auto pct = [&](double p) { return all[static_cast<size_t>(p * (all.size() - 1))]; };
  std::printf("limiter decisions: %zu in %.2f s (%.0f/s), threads %d\n", all.size(), secs,
              all.size() / secs, threads);
  std::printf("latency us: p50 %.1f  p90 %.1f  p99 %.1f  max %.1f\n", pct(0.50), pct(0.90),
              pct(0.99), all.back());
  return 0;
}
