#include "dq/webhook/dispatcher.h"

#include <gtest/gtest.h>

#include <functional>

#include <map>

#include "dq/webhook/signer.h"

namespace dq::webhook {
namespace {

class TestClock final : public Clock {
 public:
  std::chrono::system_clock::time_point Now() const override {
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(now_ms));
  }
  int64_t now_ms = 1'800'000'000'000;
};

class FixedRandom final : public RandomSource {
 public:
  double Uniform01() override { return 1.0; }
};

class FakeSender final : public HttpSender {
 public:
  HttpResult Post(const HttpPost& post) override {
    posts.push_back(post);
    if (during) during();  // what happens elsewhere while this POST is in flight
    return next;
  }
  std::function<void()> during;
  HttpResult next{200, 3, ""};
  std::vector<HttpPost> posts;
};

class FakeStore final : public DeliveryStore {
 public:
  Status Record(std::string_view account, const DeliveryAttempt& a) override {
    log[std::string(account)].push_back(a);
    if (on_record) on_record();  // what happens elsewhere once the attempt shows in the log
    return Status::Ok();
  }
  Status ScheduleRetry(const Event& e, int64_t due, std::string_view replace) override {
    if (down) return Status(ErrorCode::kUnavailable, "down");
    if (!replace.empty()) {
      // As the Redis script: nothing is scheduled when the member to replace is gone.
      if (retries.erase(std::string(replace)) == 0) return Status::Ok();
    }
    retries[EventToJson(e)] = due;
    return Status::Ok();
  }
  Status RemoveRetry(std::string_view member) override {
    if (down) return Status(ErrorCode::kUnavailable, "down");
    retries.erase(std::string(member));
    return Status::Ok();
  }
  Status AddDeadLetter(const DeadLetter& d) override {
    if (down) return Status(ErrorCode::kUnavailable, "down");
    dead.push_back(d);
    return Status::Ok();
  }
  // The send lease, as RedisDeliveryLog keeps it: delivery id -> token.
  Result<SendClaim> BeginSend(std::string_view, std::string_view delivery,
                              std::string_view member, std::string_view token,
                              int64_t) override {
    if (down) return Status(ErrorCode::kUnavailable, "down");
    if (!member.empty() && !retries.contains(std::string(member))) return SendClaim::kSuperseded;
    auto it = leases.find(std::string(delivery));
    if (it != leases.end() && it->second != token) return SendClaim::kBusy;
    leases[std::string(delivery)] = std::string(token);
    return SendClaim::kGo;
  }
  Status EndSend(std::string_view, std::string_view delivery, std::string_view token,
                 bool delivered) override {
    if (auto it = leases.find(std::string(delivery)); it != leases.end() && it->second == token) {
      leases.erase(it);
    }
    if (delivered) {
      std::erase_if(retries, [&](const auto& r) {
        return r.first.find("\"delivery_id\":\"" + std::string(delivery) + "\"") != std::string::npos;
      });
    }
    return Status::Ok();
  }
  bool down = false;
  std::function<void()> on_record;
  std::map<std::string, std::string> leases;
  std::map<std::string, std::vector<DeliveryAttempt>> log;
  std::map<std::string, int64_t> retries;
  std::vector<DeadLetter> dead;
};

class DispatcherTest : public ::testing::Test {
 protected:
  DispatcherTest()
      : policy_(RetrySchedule{1000, 4000, 10'000}, random_),
        dispatcher_([this](std::string_view a) { return Lookup(a); }, store_, policy_, clock_,
                    UrlPolicy{true, true}) {}

  Result<std::optional<Webhook>> Lookup(std::string_view account) {
    if (lookup_down_) return Status(ErrorCode::kUnavailable, "redis down");
    auto it = hooks_.find(std::string(account));
    if (it == hooks_.end()) return std::optional<Webhook>();
    return std::optional<Webhook>(it->second);
  }

  Event MakeEvent() {
    Event e;
    e.type = "job.complete";
    e.account_id = "acct_1";
    e.delivery_id = "d-1";
    e.payload = R"({"event":"job.complete"})";
    e.created_ms = clock_.now_ms;
    e.first_attempt_ms = clock_.now_ms;
    return e;
  }

  TestClock clock_;
  FixedRandom random_;
  RetryPolicy policy_;
  FakeStore store_;
  FakeSender sender_;
  std::map<std::string, Webhook> hooks_{{"acct_1", {"http://127.0.0.1:9/h", "sec"}}};
  bool lookup_down_ = false;
  Dispatcher dispatcher_;
};

TEST_F(DispatcherTest, DeliversSignedAndLogs) {
  auto o = dispatcher_.Handle(MakeEvent(), "", sender_);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(*o, Outcome::kDelivered);
  ASSERT_EQ(sender_.posts.size(), 1u);
  EXPECT_EQ(sender_.posts[0].body, R"({"event":"job.complete"})");
  ASSERT_EQ(store_.log["acct_1"].size(), 1u);
  const auto& a = store_.log["acct_1"][0];
  EXPECT_EQ(a.outcome, "delivered");
  EXPECT_EQ(a.http_status, 200);
  EXPECT_EQ(a.url, "http://127.0.0.1:9/h");
  EXPECT_EQ(a.time, "2027-01-15T08:00:00.000Z");
  EXPECT_TRUE(store_.retries.empty());
}

TEST_F(DispatcherTest, LogsTheTestFlagAndTheResponseHead) {
  Event e = MakeEvent();
  e.test = true;
  sender_.next = {422, 4, "", std::string(kResponseBodyKept, 'x'), true};
  ASSERT_EQ(*dispatcher_.Handle(e, "", sender_), Outcome::kFailed);
  const auto& a = store_.log["acct_1"].at(0);
  EXPECT_TRUE(a.test);
  EXPECT_EQ(a.response, std::string(kResponseBodyKept, 'x'));
  EXPECT_TRUE(a.response_truncated);
  EXPECT_EQ(a.payload, e.payload);
  EXPECT_EQ(a.latency_ms, 4);
  // A failed test event is not retried.
  EXPECT_TRUE(store_.retries.empty());
}

TEST_F(DispatcherTest, SignsWithBothSecretsDuringAnOverlap) {
  hooks_["acct_1"].previous_secret = "old";
  hooks_["acct_1"].previous_until_ms = clock_.now_ms + 1;
  ASSERT_EQ(*dispatcher_.Handle(MakeEvent(), "", sender_), Outcome::kDelivered);
  clock_.now_ms += 1;
  ASSERT_EQ(*dispatcher_.Handle(MakeEvent(), "", sender_), Outcome::kDelivered);
  ASSERT_EQ(sender_.posts.size(), 2u);
  auto signature = [](const HttpPost& p) {
    for (const auto& [n, v] : p.headers) {
      if (n == "X-Service-Signature") return v;
    }
    return std::string();
  };
  const std::string body = MakeEvent().payload;
  EXPECT_EQ(signature(sender_.posts[0]), *SignatureHeaderValue(body, "old"));
  EXPECT_EQ(signature(sender_.posts[1]), *SignatureHeaderValue(body, "sec"));
}

TEST_F(DispatcherTest, NoWebhookIsSkippedAndLogged) {
  hooks_.clear();
  auto o = dispatcher_.Handle(MakeEvent(), "", sender_);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(*o, Outcome::kSkipped);
  EXPECT_TRUE(sender_.posts.empty());
  EXPECT_EQ(store_.log["acct_1"].at(0).outcome, "skipped");
}

TEST_F(DispatcherTest, FailureSchedulesRetryWithSameDeliveryId) {
  sender_.next = {500, 2, ""};
  ASSERT_EQ(*dispatcher_.Handle(MakeEvent(), "", sender_), Outcome::kRetry);
  ASSERT_EQ(store_.retries.size(), 1u);
  const auto& [member, due] = *store_.retries.begin();
  EXPECT_EQ(due, clock_.now_ms + 1000);
  Event next = *EventFromJson(member);
  EXPECT_EQ(next.delivery_id, "d-1");
  EXPECT_EQ(next.attempts, 1);

  // The retry fails again: its member is replaced by the next one.
  clock_.now_ms += 1000;
  ASSERT_EQ(*dispatcher_.Handle(next, member, sender_), Outcome::kRetry);
  ASSERT_EQ(store_.retries.size(), 1u);
  EXPECT_EQ(EventFromJson(store_.retries.begin()->first)->attempts, 2);
  EXPECT_EQ(store_.retries.begin()->second, clock_.now_ms + 2000);

  // Then succeeds: removed.
  sender_.next = {204, 2, ""};
  const std::string m2 = store_.retries.begin()->first;
  ASSERT_EQ(*dispatcher_.Handle(*EventFromJson(m2), m2, sender_), Outcome::kDelivered);
  EXPECT_TRUE(store_.retries.empty());
  for (const auto& p : sender_.posts) {
    EXPECT_EQ(p.headers[2].second, "d-1");  // X-Service-Delivery, the same every time
  }
}

TEST_F(DispatcherTest, EndOfScheduleDeadLetters) {
  sender_.next = {0, 10, "timeout"};
  Event e = MakeEvent();
  e.attempts = 5;
  e.first_attempt_ms = clock_.now_ms - 9000;
  const std::string member = EventToJson(e);
  store_.retries[member] = clock_.now_ms;
  ASSERT_EQ(*dispatcher_.Handle(e, member, sender_), Outcome::kDeadLetter);
  EXPECT_TRUE(store_.retries.empty());
  ASSERT_EQ(store_.dead.size(), 1u);
  EXPECT_EQ(store_.dead[0].last_error, "timeout");
  EXPECT_EQ(store_.dead[0].event.attempts, 6);
  EXPECT_EQ(store_.log["acct_1"].back().outcome, "dead_letter");
}

TEST_F(DispatcherTest, RefusedUrlIsAFailedAttemptWithoutAPost) {
  Dispatcher strict([this](std::string_view a) { return Lookup(a); }, store_, policy_, clock_,
                    UrlPolicy{false, false});
  ASSERT_EQ(*strict.Handle(MakeEvent(), "", sender_), Outcome::kRetry);
  EXPECT_TRUE(sender_.posts.empty());
  EXPECT_EQ(store_.log["acct_1"][0].error, "webhook URL must start with https://");
}

TEST_F(DispatcherTest, StoreOrLookupDownIsAnErrorSoTheEventStaysPending) {
  lookup_down_ = true;
  EXPECT_EQ(dispatcher_.Handle(MakeEvent(), "", sender_).status().code(),
            ErrorCode::kUnavailable);
  lookup_down_ = false;
  store_.down = true;
  sender_.next = {500, 1, ""};
  EXPECT_EQ(dispatcher_.Handle(MakeEvent(), "", sender_).status().code(),
            ErrorCode::kUnavailable);
}

TEST_F(DispatcherTest, AFailedTestEventIsNotRetried) {
  sender_.next = {500, 2, ""};
  Event e = MakeEvent();
  e.test = true;
  ASSERT_EQ(*dispatcher_.Handle(e, "", sender_), Outcome::kFailed);
  EXPECT_TRUE(store_.retries.empty());
  EXPECT_TRUE(store_.dead.empty());
  EXPECT_EQ(store_.log["acct_1"].at(0).outcome, "failed");
  EXPECT_EQ(store_.log["acct_1"].at(0).next_attempt_ms, 0);
  // Queued as a retry member (as the gateway queues it): the member is removed.
  store_.retries[EventToJson(e)] = clock_.now_ms;
  ASSERT_EQ(*dispatcher_.Handle(e, EventToJson(e), sender_), Outcome::kFailed);
  EXPECT_TRUE(store_.retries.empty());
}

// One sender per delivery (issue 33): an attempt made while another attempt of the same delivery
// holds the send lease (a redeliver while a retry is in flight) is put back, unchanged and not
// logged, and goes once that one has ended.
TEST_F(DispatcherTest, AnAttemptOfADeliveryBeingSentIsPutBackUntilItEnds) {
  store_.leases["d-1"] = "the attempt in flight";
  const Event e = MakeEvent();
  ASSERT_EQ(*dispatcher_.Handle(e, "", sender_), Outcome::kDeferred);
  EXPECT_TRUE(sender_.posts.empty());
  EXPECT_TRUE(store_.log["acct_1"].empty());
  ASSERT_EQ(store_.retries.size(), 1u);
  EXPECT_EQ(store_.retries.begin()->first, EventToJson(e));
  EXPECT_EQ(store_.retries.begin()->second, clock_.now_ms + 1000);
  const std::string member = store_.retries.begin()->first;
  ASSERT_EQ(*dispatcher_.Handle(e, member, sender_), Outcome::kDeferred);  // still in flight
  EXPECT_TRUE(sender_.posts.empty());
  store_.leases.clear();  // the attempt in flight ended
  ASSERT_EQ(*dispatcher_.Handle(e, member, sender_), Outcome::kDelivered);
  EXPECT_EQ(sender_.posts.size(), 1u);
  EXPECT_TRUE(store_.retries.empty());
  EXPECT_TRUE(store_.leases.empty()) << "the lease is given back";
}

// A claimed retry that a redeliver replaced before its POST is not sent at all.
TEST_F(DispatcherTest, ARetryReplacedByARedeliverIsNotSent) {
  Event e = MakeEvent();
  e.attempts = 2;
  ASSERT_EQ(*dispatcher_.Handle(e, EventToJson(e), sender_), Outcome::kSuperseded);
  EXPECT_TRUE(sender_.posts.empty());
  EXPECT_TRUE(store_.log["acct_1"].empty());
  EXPECT_TRUE(store_.retries.empty());
  EXPECT_TRUE(store_.leases.empty());
}

// A redeliver made while a retry's attempt is in flight replaces the retry on the schedule. When
// that attempt is delivered, the redeliver is cancelled; when it fails, its own reschedule is
// dropped and the redeliver stays, to go once the lease is free.
TEST_F(DispatcherTest, ARedeliverMadeWhileARetryIsInFlight) {
  for (const int status : {200, 500}) {
    SCOPED_TRACE(status);
    store_.retries.clear();
    Event retry = MakeEvent();
    retry.attempts = 1;
    const std::string member = EventToJson(retry);
    store_.retries[member] = clock_.now_ms;
    Event redelivered = MakeEvent();
    redelivered.first_attempt_ms = clock_.now_ms + 5;  // a fresh schedule: another member
    sender_.during = [&] {
      store_.retries.erase(member);
      store_.retries[EventToJson(redelivered)] = clock_.now_ms;
      // Taken by another thread now, it may not send: the lease is the attempt in flight's.
      FakeSender other;
      EXPECT_EQ(*dispatcher_.Handle(redelivered, EventToJson(redelivered), other),
                Outcome::kDeferred);
      EXPECT_TRUE(other.posts.empty());
    };
    sender_.next = {status, 3, ""};
    const Outcome o = *dispatcher_.Handle(retry, member, sender_);
    sender_.during = nullptr;
    EXPECT_TRUE(store_.leases.empty());
    if (status == 200) {
      EXPECT_EQ(o, Outcome::kDelivered);
      EXPECT_TRUE(store_.retries.empty()) << "the redeliver is cancelled";
    } else {
      EXPECT_EQ(o, Outcome::kRetry);
      ASSERT_EQ(store_.retries.size(), 1u) << "the retry's reschedule is dropped";
      EXPECT_EQ(store_.retries.begin()->first, EventToJson(redelivered));
    }
  }
}

// A redeliver is found through the delivery log, so one made once the attempt shows there comes
// after that attempt: it is not cancelled by it, and goes once the lease is free (it is already).
TEST_F(DispatcherTest, ARedeliverMadeOnceTheAttemptIsLoggedIsKept) {
  Event test = MakeEvent();
  test.test = true;
  Event redelivered = MakeEvent();
  redelivered.test = true;
  redelivered.first_attempt_ms = clock_.now_ms + 5;
  store_.on_record = [&] {
    EXPECT_TRUE(store_.leases.empty()) << "logged while its lease was held";
    store_.retries[EventToJson(redelivered)] = clock_.now_ms;
  };
  ASSERT_EQ(*dispatcher_.Handle(test, "", sender_), Outcome::kDelivered);
  store_.on_record = nullptr;
  ASSERT_EQ(store_.retries.size(), 1u) << "the redeliver was cancelled";
  FakeSender other;
  EXPECT_EQ(*dispatcher_.Handle(redelivered, EventToJson(redelivered), other),
            Outcome::kDelivered);
  EXPECT_EQ(other.posts.size(), 1u);
}

// A failed attempt's retry is on the schedule before the attempt shows in the log.
TEST_F(DispatcherTest, AnAttemptIsLoggedOnceWhatFollowsItIsStored) {
  sender_.next = {500, 2, ""};
  size_t scheduled_when_logged = 0;
  store_.on_record = [&] { scheduled_when_logged = store_.retries.size(); };
  ASSERT_EQ(*dispatcher_.Handle(MakeEvent(), "", sender_), Outcome::kRetry);
  EXPECT_EQ(scheduled_when_logged, 1u);
  EXPECT_EQ(store_.log["acct_1"].size(), 1u);
}

class GatedDispatcherTest : public DispatcherTest {
 protected:
  GatedDispatcherTest()
      : gate_(FairnessLimits{1, 4, 2, 5000, 60000}),
        gated_([this](std::string_view a) { return Lookup(a); }, store_, policy_, clock_,
               UrlPolicy{true, true}, &gate_, 700) {}
  FairGate gate_;
  Dispatcher gated_;
};

TEST_F(GatedDispatcherTest, AnAttemptThatMayNotStartIsPutBackUnchanged) {
  // Another attempt of the account is in flight.
  ASSERT_EQ(gate_.Admit("acct_1", "127.0.0.1:9", clock_.now_ms), Admission::kGo);
  const Event e = MakeEvent();
  ASSERT_EQ(*gated_.Handle(e, "", sender_), Outcome::kDeferred);
  EXPECT_TRUE(sender_.posts.empty());
  EXPECT_TRUE(store_.log["acct_1"].empty());  // not an attempt: not logged
  ASSERT_EQ(store_.retries.size(), 1u);
  EXPECT_EQ(store_.retries.begin()->first, EventToJson(e));  // attempts unchanged
  EXPECT_EQ(store_.retries.begin()->second, clock_.now_ms + 700);
  // A claimed retry put back replaces its own member.
  const std::string member = store_.retries.begin()->first;
  ASSERT_EQ(*gated_.Handle(e, member, sender_), Outcome::kDeferred);
  EXPECT_EQ(store_.retries.size(), 1u);
  // Once the other attempt ends, it goes.
  gate_.Done("acct_1", "127.0.0.1:9", Reach::kAnswered, clock_.now_ms);
  ASSERT_EQ(*gated_.Handle(e, member, sender_), Outcome::kDelivered);
  EXPECT_TRUE(store_.retries.empty());
  EXPECT_EQ(gate_.InFlight("acct_1"), 0);
}

TEST_F(GatedDispatcherTest, AnAttemptPutBackForTheSendLeaseGivesItsPlaceBack) {
  store_.leases["d-1"] = "the attempt in flight";
  ASSERT_EQ(*gated_.Handle(MakeEvent(), "", sender_), Outcome::kDeferred);
  EXPECT_EQ(gate_.InFlight("acct_1"), 0);
  EXPECT_TRUE(gate_.BusyAccounts().empty());
}

TEST_F(GatedDispatcherTest, ASilentDestinationFailsAtOnceOnceItsBreakerOpens) {
  sender_.next = {0, 5000, "timeout"};
  ASSERT_EQ(*gated_.Handle(MakeEvent(), "", sender_), Outcome::kRetry);
  ASSERT_EQ(*gated_.Handle(MakeEvent(), "", sender_), Outcome::kRetry);
  EXPECT_EQ(sender_.posts.size(), 2u);
  EXPECT_EQ(gate_.OpenUntil("127.0.0.1:9"), clock_.now_ms + 5000);
  // The third attempt makes no connection and is scheduled like any failure.
  ASSERT_EQ(*gated_.Handle(MakeEvent(), "", sender_), Outcome::kRetry);
  EXPECT_EQ(sender_.posts.size(), 2u);
  EXPECT_EQ(store_.log["acct_1"].back().error,
            "127.0.0.1:9 is not answering; attempts to it are paused until "
            "2027-01-15T08:00:05.000Z");
  // A test event to it fails at once too, and is not retried.
  Event test = MakeEvent();
  test.test = true;
  test.delivery_id = "d-test";
  ASSERT_EQ(*gated_.Handle(test, "", sender_), Outcome::kFailed);
  EXPECT_EQ(sender_.posts.size(), 2u);
}

TEST_F(GatedDispatcherTest, ARefusedAddressSaysNothingAboutTheDestination) {
  sender_.next = {0, 0, "refused address 10.0.0.1 (private)"};
  for (int i = 0; i < 4; ++i) ASSERT_EQ(*gated_.Handle(MakeEvent(), "", sender_), Outcome::kRetry);
  EXPECT_EQ(gate_.OpenUntil("127.0.0.1:9"), 0);
  EXPECT_EQ(sender_.posts.size(), 4u);
}

}  // namespace
}  // namespace dq::webhook
