// notifier_bench [burst_events] [paced_rate_per_s] [paced_seconds]
//
// Phase 1 (throughput): XADD burst_events (default 20,000) as fast as a pipeline allows and time
// the first XADD to the last receipt: deliveries per second.
// Phase 2 (latency): XADD at paced_rate_per_s (default 1,000/s) for paced_seconds (default 5)
// and report p50/p99/max from XADD to receipt.
// Everything runs on 127.0.0.1; the notifier uses its default settings except ports,
// DQ_WEBHOOK_ALLOW_HTTP/PRIVATE=1 and DQ_LOG_LEVEL=warn.
#include <cstdlib>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "dq/common/crypto.h"
#include "dq/common/redis_client.h"
#include "dq/testing/harness.h"
#include "test_receiver.h"

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

struct Tracker {
  std::mutex mu;
  std::unordered_map<std::string, Clock::time_point> sent;
  std::vector<double> latencies_ms;
  size_t received = 0;
  Clock::time_point last;
};

std::string Payload(int i) {
  return R"({"event":"job.complete","timestamp":"2026-11-22T09:05:01.042Z","jobId":"job-)" +
         std::to_string(i) +
         R"(","filename":"products.csv","rows":120,"stats":{"errors":3,"warnings":5,"fixes":2,"score":96},"status":"done"})";
}

std::vector<std::string> Xadd(const std::string& delivery, int i) {
  return {"XADD", "dq:events", "MAXLEN", "~", "1000000", "*", "type", "job.complete",
          "account_id", "acct_bench", "delivery_id", delivery, "payload", Payload(i),
          "created_ms", std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::system_clock::now().time_since_epoch())
                                           .count())};
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  const int burst = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int rate = argc > 2 ? std::atoi(argv[2]) : 1000;
  const int seconds = argc > 3 ? std::atoi(argv[3]) : 5;

  dq::testing::RedisServer redis;
  dq::RedisOptions options;
  options.port = redis.port();
  options.timeout = 5s;
  dq::RedisClient client(options);

  Tracker tracker;
  dq::notifier::testing::TestReceiver receiver;
  receiver.SetRecording(false);
  receiver.OnRequest([&](const dq::notifier::testing::ReceivedRequest& r) {
    const auto now = Clock::now();
    std::lock_guard lock(tracker.mu);
    auto it = tracker.sent.find(r.Header("x-service-delivery"));
    if (it != tracker.sent.end()) {
      tracker.latencies_ms.push_back(
          std::chrono::duration<double, std::milli>(now - it->second).count());
      tracker.sent.erase(it);
    }
    ++tracker.received;
    tracker.last = now;
  });
  if (!client.Command({"HSET", dq::AccountKey("acct_bench", "webhook"), "url", receiver.Url(),
                       "secret", "bench_secret"})
           .ok()) {
    std::abort();  // without the webhook nothing is delivered
  }

  const int health = dq::testing::FreePort();
  dq::testing::ChildProcess notifier(DQ_NOTIFIER_BIN,
                                     {{"DQ_REDIS_PORT", std::to_string(redis.port())},
                                      {"DQ_NOTIFIER_PORT", std::to_string(health)},
                                      {"DQ_NOTIFIER_GRPC_PORT", "0"},
                                      {"DQ_NOTIFIER_BIND", "127.0.0.1"},
                                      {"DQ_WEBHOOK_ALLOW_HTTP", "1"},
                                      {"DQ_WEBHOOK_ALLOW_PRIVATE", "1"},
                                      {"DQ_LOG_LEVEL", "warn"}});
  if (!dq::testing::WaitFor([&] { return dq::testing::TcpConnects(health); }, 10s)) {
    std::fprintf(stderr, "notifier did not start:\n%s\n", notifier.Log().c_str());
    return 1;
  }

  // Phase 1: burst.
  const auto start = Clock::now();
  for (int i = 0; i < burst; i += 200) {
    std::vector<std::vector<std::string>> batch;
    for (int j = i; j < std::min(burst, i + 200); ++j) {
      const std::string id = dq::NewUuidV4();
      {
        std::lock_guard lock(tracker.mu);
        tracker.sent[id] = Clock::now();
      }
      batch.push_back(Xadd(id, j));
    }
    if (!client.Pipeline(batch).ok()) std::abort();  // the warm-up must be in Redis
  }
  const bool all = dq::testing::WaitFor(
      [&] {
        std::lock_guard lock(tracker.mu);
        return tracker.received >= static_cast<size_t>(burst);
      },
      300s);
  double secs;
  {
    std::lock_guard lock(tracker.mu);
    secs = std::chrono::duration<double>(tracker.last - start).count();
    std::printf("burst: %zu/%d delivered in %.2f s = %.0f deliveries/s (p99 in burst %.1f ms)\n",
                tracker.received, burst, secs, static_cast<double>(tracker.received) / secs,
                Percentile(tracker.latencies_ms, 0.99));
    tracker.latencies_ms.clear();
    tracker.received = 0;
  }
  if (!all) return 1;

  // Phase 2: paced.
  const int total = rate * seconds;
  const auto interval = std::chrono::nanoseconds(1'000'000'000LL / std::max(rate, 1));
  auto next = Clock::now();
  for (int i = 0; i < total; ++i) {
    const std::string id = dq::NewUuidV4();
    {
      std::lock_guard lock(tracker.mu);
      tracker.sent[id] = Clock::now();
    }
    if (!client.Command(Xadd(id, i)).ok()) std::abort();  // it would read as a lost delivery
    next += interval;
    std::this_thread::sleep_until(next);  // pacing the load, not synchronisation
  }
  dq::testing::WaitFor(
      [&] {
        std::lock_guard lock(tracker.mu);
        return tracker.received >= static_cast<size_t>(total);
      },
      60s);
  std::lock_guard lock(tracker.mu);
  std::printf("paced %d/s for %d s: %zu/%d delivered; XADD->receipt p50 %.2f ms, p99 %.2f ms, "
              "max %.2f ms\n",
              rate, seconds, tracker.received, total, Percentile(tracker.latencies_ms, 0.50),
              Percentile(tracker.latencies_ms, 0.99), Percentile(tracker.latencies_ms, 1.0));
  return 0;
}
