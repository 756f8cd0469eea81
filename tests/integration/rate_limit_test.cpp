// Exact limits across two gateway replicas sharing one real Redis, under concurrency.
#include <gtest/gtest.h>

#include <atomic>
#include <ctime>
#include <thread>

#include <nlohmann/json.hpp>

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

namespace dq::testing {
namespace {

using nlohmann::json;

TEST(RateLimitIntegrationTest, WindowRollsOverWithAFreshBudget) {
  // A 5-second window (a test-only setting) so rollover takes seconds, not a minute, and the
  // four requests below fit in one window on a loaded machine.
  Stack stack(StackOptions{1, false,
                           {{"DQ_RATE_LIMIT_WINDOW_SECONDS", "5"}, {"DQ_RATE_LIMIT_GENERAL", "3"}}});
  auto [id, key] = stack.NewAccount();
  const std::string url = stack.GatewayUrl() + "/v1/usage";
  // Start right after a window opens, so three requests fit in it.
  WaitFor([] { return std::time(nullptr) % 5 == 0; }, std::chrono::seconds(10));
  std::string reset;
  for (int i = 0; i < 3; ++i) {
    HttpResult r = Http("GET", url, {{"X-API-Key", key}});
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.Header("x-ratelimit-remaining"), std::to_string(2 - i));
    reset = r.Header("x-ratelimit-reset");
  }
  HttpResult refused = Http("GET", url, {{"X-API-Key", key}});
  ASSERT_EQ(refused.status, 429);
  EXPECT_EQ(refused.Header("x-ratelimit-reset"), reset);
  const long reset_at = std::stol(reset);
  ASSERT_TRUE(WaitFor([&] { return std::time(nullptr) >= reset_at; }, std::chrono::seconds(30)));
  HttpResult fresh = Http("GET", url, {{"X-API-Key", key}});
  EXPECT_EQ(fresh.status, 200);
  EXPECT_EQ(fresh.Header("x-ratelimit-remaining"), "2");
  EXPECT_GT(std::stol(fresh.Header("x-ratelimit-reset")), reset_at);
}

TEST(QuotaIntegrationTest, CrossingIsRefusedWholeAndFailuresRefund) {
  Stack stack;
  auto [id, key] = stack.NewAccount();
  ASSERT_TRUE(stack.accounts().SetQuota(id, 5).ok());
  auto validate = [&](int n) {
    json body = {{"records", json::array()}, {"mapping", {{"sku", "id"}}}};
    for (int i = 0; i < n; ++i) body["records"].push_back({{"id", std::to_string(i)}});
    return Http("POST", stack.GatewayUrl() + "/v1/validate",
                {{"X-API-Key", key}, {"Content-Type", "application/json"}}, body.dump());
  };
  auto used = [&] {
    return json::parse(
        Http("GET", stack.GatewayUrl() + "/v1/usage", {{"X-API-Key", key}}).body)["records_used"]
        .get<int>();
  };
  EXPECT_EQ(validate(3).status, 200);
  HttpResult crossing = validate(3);
  EXPECT_EQ(crossing.status, 429);
  EXPECT_EQ(json::parse(crossing.body)["error"], "quota_exceeded");
  EXPECT_EQ(used(), 3);  // the refused request used nothing
  stack.StopValidator();
  EXPECT_EQ(validate(2).status, 503);
  EXPECT_EQ(used(), 3);  // the failed request gave its records back
  stack.StartValidator();
  ASSERT_TRUE(WaitFor([&] { return Http("GET", stack.GatewayUrl() + "/readyz").status == 200; },
                      std::chrono::seconds(10)));
  EXPECT_EQ(validate(2).status, 200);  // exactly up to the quota
  EXPECT_EQ(used(), 5);
  EXPECT_EQ(validate(1).status, 429);
  // Raising the quota takes effect at once.
  ASSERT_TRUE(stack.accounts().SetQuota(id, 6).ok());
  EXPECT_EQ(validate(1).status, 200);
}

TEST(RedisOutageIntegrationTest, Answers503QuicklyAndRecoversByItself) {
  Stack stack(StackOptions{1, true, {}});  // append-only file: keys survive the restart
  auto [id, key] = stack.NewAccount();
  const std::string url = stack.GatewayUrl() + "/v1/usage";
  ASSERT_EQ(Http("GET", url, {{"X-API-Key", key}}).status, 200);
  stack.redis().Stop();
  for (int i = 0; i < 5; ++i) {
    const auto start = std::chrono::steady_clock::now();
    HttpResult r = Http("GET", url, {{"X-API-Key", key}});
    EXPECT_EQ(r.status, 503);
    EXPECT_EQ(json::parse(r.body)["error"], "service_unavailable");
    EXPECT_EQ(r.Header("retry-after"), "1");
    EXPECT_EQ(r.Header("x-ratelimit-limit"), "60");  // headers on every /v1 response
    EXPECT_EQ(r.Header("x-ratelimit-remaining"), "0");
    EXPECT_FALSE(r.Header("x-ratelimit-reset").empty());
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1500));
  }
  EXPECT_EQ(Http("GET", stack.GatewayUrl() + "/readyz").status, 503);
  EXPECT_EQ(Http("GET", stack.GatewayUrl() + "/healthz").status, 200);  // alive, not ready
  stack.redis().Restart();
  // The script cache is empty after the restart (NOSCRIPT): the limiter must reload it.
  ASSERT_TRUE(WaitFor([&] { return Http("GET", url, {{"X-API-Key", key}}).status == 200; },
                      std::chrono::seconds(10)));
  HttpResult r = Http("GET", url, {{"X-API-Key", key}});
  EXPECT_EQ(r.status, 200);
  EXPECT_FALSE(r.Header("x-ratelimit-remaining").empty());
}

}  // namespace
}  // namespace dq::testing

namespace dq::testing {
namespace {

TEST(RateLimitIntegrationTest, CountersCanLiveInARedisOfTheirOwn) {
  RedisServer counters;
  Stack stack(StackOptions{1, false,
                           {{"DQ_RATE_LIMIT_REDIS_PORT", std::to_string(counters.port())},
                            {"DQ_RATE_LIMIT_GENERAL", "3"}}});
  auto [id, key] = stack.NewAccount();
  WaitForRoomInWindow(5);
  int ok = 0, limited = 0;
  for (int i = 0; i < 5; ++i) {
    int s = Http("GET", stack.GatewayUrl() + "/v1/usage", {{"X-API-Key", key}}).status;
    ok += s == 200;
    limited += s == 429;
  }
  EXPECT_EQ(ok, 3);
  EXPECT_EQ(limited, 2);
  const std::string counter_key = "dq:{" + id + "}:rl:general";
  EXPECT_EQ(counters.Cli({"EXISTS", counter_key}), "1");
  EXPECT_EQ(stack.redis().Cli({"EXISTS", counter_key}), "0");
  // The counter Redis going away makes the gateway unready and refuse writes, like the main one;
  // reads go on uncounted (issue 34: they never depend on a rate-limit write).
  counters.Stop();
  EXPECT_EQ(Http("GET", stack.GatewayUrl() + "/readyz").status, 503);
  HttpResult read = Http("GET", stack.GatewayUrl() + "/v1/usage", {{"X-API-Key", key}});
  EXPECT_EQ(read.status, 200) << read.body;
  EXPECT_EQ(read.Header("x-ratelimit-remaining"), "0");
  HttpResult write = Http("POST", stack.GatewayUrl() + "/v1/validate",
                          {{"X-API-Key", key}, {"Content-Type", "application/json"}},
                          R"({"records":[{"SKU":"A1","Price":"1.00"}]})");
  EXPECT_EQ(write.status, 503) << write.body;
}

}  // namespace
}  // namespace dq::testing
