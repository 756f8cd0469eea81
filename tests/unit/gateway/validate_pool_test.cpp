// POST /v1/validate waits for the validator on a bounded pool, never on an HTTP thread: the
// pool's admission (per account, queue), its deadline, and the gateway's deferred answer while
// the validator hangs.
#include "clients/validate_pool.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>

#include "dq/testing/fake_clock.h"
#include "dq/testing/gateway_fakes.h"
#include "dq/testing/in_memory_account_store.h"
#include "gateway.h"

namespace dq::gateway {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// A latch the pool's work waits on, so the test decides when a call finishes.
class Gate {
 public:
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  void Wait() {
    std::unique_lock lock(mu_);
    ++waiting_;
    cv_.notify_all();
    cv_.wait(lock, [this] { return open_; });
  }
  // Blocks until n callers wait.
  void AwaitWaiters(int n) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return waiting_ >= n; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
  int waiting_ = 0;
};

TEST(ValidatePoolTest, AnAccountHoldsAtMostItsOwnSlots) {
  ValidatePool pool({/*threads=*/2, /*per_account=*/2, /*queue=*/8, 5s});
  auto a1 = pool.Admit("acct_a");
  auto a2 = pool.Admit("acct_a");
  ASSERT_TRUE(a1.ok() && a2.ok());
  auto a3 = pool.Admit("acct_a");
  ASSERT_FALSE(a3.ok());
  EXPECT_EQ(a3.status().code(), ErrorCode::kTooManyRequests);
  EXPECT_EQ(a3.status().message(),
            "This account already has 2 validation calls in progress (the limit); retry when one "
            "has finished.");
  // Another account is not affected.
  EXPECT_TRUE(pool.Admit("acct_b").ok());
  // A ticket given back (never run) frees its slot.
  *a1 = ValidatePool::Ticket();
  EXPECT_EQ(pool.admitted("acct_a"), 1);
  EXPECT_TRUE(pool.Admit("acct_a").ok());
}

TEST(ValidatePoolTest, TheQueueIsBounded) {
  Gate gate;
  ValidatePool pool({/*threads=*/1, /*per_account=*/100, /*queue=*/2, 5s});
  std::atomic<int> done{0};
  std::promise<void> all_done;
  auto work = [&](ValidatePool::Deadline) {
    gate.Wait();
    if (++done == 3) all_done.set_value();
  };
  pool.Run(pool.Admit("a").value(), work, [] {});
  gate.AwaitWaiters(1);  // the one thread is busy
  pool.Run(pool.Admit("a").value(), work, [] {});
  pool.Run(pool.Admit("a").value(), work, [] {});
  auto refused = pool.Admit("b");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(refused.status().message(), "The validation service is busy; retry shortly.");
  gate.Open();
  all_done.get_future().wait();  // the queued calls run once the thread is free
  EXPECT_EQ(done.load(), 3);
}

TEST(ValidatePoolTest, ACallQueuedPastItsDeadlineIsNotStarted) {
  Gate gate;
  ValidatePool pool({/*threads=*/1, /*per_account=*/10, /*queue=*/10, 50ms});
  std::promise<void> first_started;
  pool.Run(pool.Admit("a").value(), [&](ValidatePool::Deadline) {
    first_started.set_value();
    gate.Wait();
  }, [] { FAIL() << "the first call was on time"; });
  first_started.get_future().wait();
  auto ticket = pool.Admit("a");
  ASSERT_TRUE(ticket.ok());
  const auto deadline = ticket->deadline();
  std::promise<std::string> second;
  pool.Run(std::move(*ticket), [&](ValidatePool::Deadline) { second.set_value("ran"); },
           [&] { second.set_value("expired"); });
  // Hold the only thread until the second call's deadline has passed.
  std::this_thread::sleep_until(deadline + 10ms);
  gate.Open();
  EXPECT_EQ(second.get_future().get(), "expired");
  pool.Stop();
  EXPECT_EQ(pool.admitted("a"), 0);
}

TEST(ValidatePoolTest, WorkGetsTheDeadlineCountedFromAdmission) {
  ValidatePool pool({1, 1, 1, 800ms});
  auto ticket = pool.Admit("a");
  ASSERT_TRUE(ticket.ok());
  const auto admitted = std::chrono::steady_clock::now();
  std::promise<ValidatePool::Deadline> got;
  pool.Run(std::move(*ticket), [&](ValidatePool::Deadline d) { got.set_value(d); }, [] {});
  const auto d = got.get_future().get();
  EXPECT_GE(d, admitted + 700ms);
  EXPECT_LE(d, admitted + 800ms);
}

TEST(ValidatePoolTest, StopAnswersQueuedCallsAndRefusesNewOnes) {
  Gate gate;
  ValidatePool pool({1, 10, 10, 5s});
  pool.Run(pool.Admit("a").value(), [&](ValidatePool::Deadline) { gate.Wait(); }, [] {});
  gate.AwaitWaiters(1);
  std::promise<std::string> queued;
  pool.Run(pool.Admit("a").value(), [&](ValidatePool::Deadline) { queued.set_value("ran"); },
           [&] { queued.set_value("expired"); });
  std::thread stopper([&] { pool.Stop(); });
  // Stop() waits for the running call; open it once stopping has begun.
  while (pool.Admit("b").ok()) std::this_thread::yield();
  gate.Open();
  stopper.join();
  EXPECT_EQ(queued.get_future().get(), "expired");
  auto late = pool.Admit("c");
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.status().code(), ErrorCode::kUnavailable);
}

validator::v1::ValidateResponse RowsAnswer(const validator::v1::ValidateRequest& req) {
  validator::v1::ValidateResponse resp;
  resp.mutable_stats()->set_rows(testing::RowsOf(req.packed()).size());
  resp.mutable_stats()->set_score(100);
  return resp;
}

constexpr const char* kBody = R"({"records":[{"id":"A"}],"mapping":{"sku":"id"}})";

// The gateway with a pool and a validator that hangs until the test lets it answer.
class DeferredValidateTest : public ::testing::Test {
 protected:
  DeferredValidateTest()
      : clock_(std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'010))),
        limiter_(clock_, RateLimitPolicy{}),
        quota_(QuotaPolicy{}),
        validator_([this](const auto& req) {
          gate_.Wait();
          return RowsAnswer(req);
        }),
        pool_({/*threads=*/4, /*per_account=*/2, /*queue=*/8, 5s}) {
    GatewayDeps deps{store_, limiter_, quota_, validator_, [] { return true; }};
    deps.validate_pool = &pool_;
    gateway_ = std::make_unique<Gateway>(std::move(deps), GatewayOptions{1024 * 1024, 500});
    a_ = *store_.CreateAccount(Plan::kPro, "a");
    a_key_ = store_.CreateKey(a_.id)->api_key;
    b_ = *store_.CreateAccount(Plan::kPro, "b");
    b_key_ = store_.CreateKey(b_.id)->api_key;
  }
  ~DeferredValidateTest() override {
    gate_.Open();
    pool_.Stop();
  }

  http::HttpResponse Call(std::string method, std::string path, const std::string& key,
                          std::string body = "") {
    http::HttpRequest r;
    r.method = std::move(method);
    r.path = std::move(path);
    r.body = std::move(body);
    r.client_ip = "10.0.0.1";
    r.request_id = "req-" + std::to_string(++requests_);
    r.headers["x-api-key"] = key;
    r.headers["content-type"] = "application/json";
    return gateway_->Handle(r);
  }

  Gate gate_;
  testing::FakeClock clock_;
  testing::InMemoryAccountStore store_;
  testing::InMemoryRateLimiter limiter_;
  testing::InMemoryQuotaService quota_;
  testing::FakeValidatorClient validator_;
  ValidatePool pool_;
  std::unique_ptr<Gateway> gateway_;
  Account a_, b_;
  std::string a_key_, b_key_;
  int requests_ = 0;
};

TEST_F(DeferredValidateTest, AHungValidatorHoldsNoHttpThread) {
  // Handle() returns at once with a deferred answer; the call waits on the pool.
  http::HttpResponse first = Call("POST", "/v1/validate", a_key_, kBody);
  ASSERT_TRUE(first.deferred);
  std::promise<http::HttpResponse> answer;
  first.deferred([&](http::HttpResponse r) { answer.set_value(std::move(r)); });
  http::HttpResponse second = Call("POST", "/v1/validate", a_key_, kBody);
  ASSERT_TRUE(second.deferred);
  std::promise<http::HttpResponse> second_answer;
  second.deferred([&](http::HttpResponse r) { second_answer.set_value(std::move(r)); });
  gate_.AwaitWaiters(2);  // both calls are inside the (hung) validator

  // The account is at its cap: the third call is refused at once.
  http::HttpResponse third = Call("POST", "/v1/validate", a_key_, kBody);
  ASSERT_FALSE(third.deferred);
  EXPECT_EQ(third.status, 429);
  EXPECT_EQ(json::parse(third.body)["error"], "too_many_requests");
  EXPECT_EQ(*third.FindHeader("Retry-After"), "1");
  EXPECT_EQ(json::parse(third.body)["request_id"], "req-3");

  // Another tenant is served on the spot.
  http::HttpResponse usage = Call("GET", "/v1/usage", b_key_);
  ASSERT_FALSE(usage.deferred);
  EXPECT_EQ(usage.status, 200) << usage.body;

  gate_.Open();
  http::HttpResponse done = answer.get_future().get();
  EXPECT_EQ(done.status, 200) << done.body;
  EXPECT_EQ(json::parse(done.body)["stats"]["rows"], 1);
  // The finished answer carries what every answer carries.
  EXPECT_EQ(json::parse(done.body).contains("request_id"), false);  // success bodies carry none
  ASSERT_NE(done.FindHeader("X-RateLimit-Limit"), nullptr);
  EXPECT_EQ(*done.FindHeader("X-RateLimit-Remaining"), "59");
  EXPECT_EQ(second_answer.get_future().get().status, 200);
}

TEST_F(DeferredValidateTest, ACallPastItsDeadlineAnswers503AndGivesTheQuotaBack) {
  pool_.Stop();  // a stopped pool refuses admission: 503 with Retry-After
  http::HttpResponse r = Call("POST", "/v1/validate", a_key_, kBody);
  ASSERT_FALSE(r.deferred);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(*r.FindHeader("Retry-After"), "1");
  EXPECT_EQ(quota_.used(a_.id), 0);
}

}  // namespace
}  // namespace dq::gateway
