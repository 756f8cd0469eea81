// Exact limits across two gateway replicas sharing one real Redis, under concurrency.
#include <gtest/gtest.h>

#include <atomic>
#include <ctime>
#include <thread>

#include "stack.h"

namespace dq::testing {
namespace {

// Waits until at least `needed` seconds are left in the current UTC minute, so a burst lands in
// one window.
void WaitForRoomInWindow(int needed) {
  while (60 - (std::time(nullptr) % 60) < needed) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

struct Tally {
  std::atomic<int> ok{0};
  std::atomic<int> limited{0};
  std::atomic<int> other{0};
  std::atomic<int> missing_headers{0};
};

void Burst(Stack& stack, const std::string& method, const std::string& path,
           const std::string& key, int threads, int per_thread, Tally& t) {
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] {
      for (int j = 0; j < per_thread; ++j) {
        HttpResult r = Http(method, stack.GatewayUrl((i + j) % 2) + path, {{"X-API-Key", key}});
        if (r.Header("x-ratelimit-limit").empty() || r.Header("x-ratelimit-remaining").empty() ||
            r.Header("x-ratelimit-reset").empty()) {
          ++t.missing_headers;
        }
        if (r.status == 429) {
          ++t.limited;
          if (r.Header("retry-after").empty()) ++t.missing_headers;
        } else if (r.status > 0 && r.status < 500) {
          ++t.ok;
        } else {
          ++t.other;
        }
      }
    });
  }
  for (auto& th : pool) th.join();
}

TEST(RateLimitIntegrationTest, ExactlySixtyGeneralAndTenUploadAcrossTwoReplicas) {
  Stack stack(StackOptions{2, false, {}});
  auto [id, key] = stack.NewAccount();
  WaitForRoomInWindow(20);
  Tally general;
  Burst(stack, "GET", "/v1/usage", key, 8, 25, general);
  EXPECT_EQ(general.ok, 60);
  EXPECT_EQ(general.limited, 140);
  EXPECT_EQ(general.other, 0);
  EXPECT_EQ(general.missing_headers, 0);

  Tally upload;
  Burst(stack, "POST", "/v1/jobs", key, 8, 5, upload);
  EXPECT_EQ(upload.ok, 10);
  EXPECT_EQ(upload.limited, 30);
  EXPECT_EQ(upload.missing_headers, 0);
}

}  // namespace
}  // namespace dq::testing
