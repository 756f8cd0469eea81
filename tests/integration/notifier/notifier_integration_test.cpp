// dq-notifier end to end: redis-server, the dq-notifier binary and a local receiver, all on
// 127.0.0.1. The retry schedule is compressed through settings; nothing sleeps to synchronise:
// every wait polls a condition with a deadline.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>

#include "dq/common/delivery_log.h"
#include "dq/common/job_event.h"
#include "dq/common/partitions.h"
#include "dq/common/clock.h"
#include "dq/common/crypto.h"
#include "dq/common/redis_client.h"
#include "dq/testing/harness.h"
#include "dq/webhook/signer.h"
#include "test_receiver.h"

namespace dq::notifier {
namespace {

using namespace std::chrono_literals;
using dq::testing::ChildProcess;
using dq::testing::FreePort;
using dq::testing::RedisServer;
using dq::testing::WaitFor;
using testing::ReceivedRequest;
using testing::ReceiverReply;
using testing::BlackHole;
using testing::TestReceiver;
using webhook::DeadLetter;
using webhook::RedisDeliveryLog;
using webhook::VerifySignature;

class NotifierIntegrationTest : public ::testing::Test {
 protected:
  NotifierIntegrationTest() : redis_client_(Options()), log_(redis_client_) {}

  RedisOptions Options() {
    RedisOptions o;
    o.port = redis_.port();
    o.timeout = 5s;
    return o;
  }

  std::map<std::string, std::string> Env(std::map<std::string, std::string> extra = {}) {
    std::map<std::string, std::string> env = {
        {"DQ_REDIS_PORT", std::to_string(redis_.port())},
        {"DQ_NOTIFIER_PORT", std::to_string(health_port_)},
        {"DQ_NOTIFIER_GRPC_PORT", "0"},
        {"DQ_NOTIFIER_BIND", "127.0.0.1"},
        {"DQ_WEBHOOK_ALLOW_HTTP", "1"},
        {"DQ_WEBHOOK_ALLOW_PRIVATE", "1"},
        {"DQ_WEBHOOK_TIMEOUT_MS", "500"},
        {"DQ_WEBHOOK_RETRY_BASE_MS", "50"},
        {"DQ_WEBHOOK_RETRY_MAX_DELAY_MS", "200"},
        {"DQ_WEBHOOK_RETRY_TOTAL_MS", "60000"},
        {"DQ_NOTIFIER_CLAIM_IDLE_MS", "1000"},
        {"DQ_NOTIFIER_POLL_MS", "50"},
        {"DQ_NOTIFIER_WORKERS", "4"},
    };
    for (auto& [k, v] : extra) env[k] = v;
    return env;
  }

  std::unique_ptr<ChildProcess> StartNotifier(std::map<std::string, std::string> extra = {}) {
    auto p = std::make_unique<ChildProcess>(DQ_NOTIFIER_BIN, Env(std::move(extra)));
    const bool up = WaitFor([&] { return dq::testing::TcpConnects(health_port_); }, 10s);
    EXPECT_TRUE(up) << p->Log();
    return p;
  }

  void SetWebhook(const std::string& account, const std::string& url, const std::string& secret) {
    ASSERT_TRUE(redis_client_
                    .Command({"HSET", AccountKey(account, "webhook"), "url", url, "secret",
                              secret})
                    .ok());
  }

  // XADDs a job.complete event exactly as the job worker does (to the account's partition of
  // the stream; `legacy`: to the single stream of releases before partitions); returns its
  // delivery id.
  std::string Publish(const std::string& account, const std::string& job_id = "job-1",
                      bool legacy = false) {
    const std::string delivery = NewUuidV4();
    const std::string payload =
        R"({"event":"job.complete","timestamp":"2026-11-22T09:05:01.042Z","jobId":")" + job_id +
        R"(","filename":"products.csv","rows":120,"stats":{"errors":3,"warnings":5,"fixes":2,"score":96},"status":"done"})";
    const int64_t now = UnixMillis(std::chrono::system_clock::now());
    const std::string stream =
        legacy ? std::string(events::kStreamKey)
               : PartitionKey(events::kStreamKey, PartitionOf(account, DefaultPartitions(/*cluster=*/false)));
    auto r = redis_client_.Command({"XADD", stream, "MAXLEN", "~", "1000000", "*", "type",
                                    "job.complete", "account_id", account, "delivery_id",
                                    delivery, "payload", payload, "created_ms",
                                    std::to_string(now)});
    EXPECT_TRUE(r.ok()) << r.status().message();
    return delivery;
  }

  // Pending events, over every partition and the old stream.
  int64_t Pending() {
    int64_t total = 0;
    for (int p = kLegacyPartition; p < DefaultPartitions(/*cluster=*/false); ++p) {
      auto r = redis_client_.Command(
          {"XPENDING", PartitionKey(events::kStreamKey, p), "notifier"});
      if (!r.ok() || r->elements.empty()) return -1;
      total += r->elements[0].integer;
    }
    return total;
  }
  // Scheduled retries, over every partition and the old set.
  int64_t Retries() {
    int64_t total = 0;
    for (int p = kLegacyPartition; p < DefaultPartitions(/*cluster=*/false); ++p) {
      total += redis_client_.Command({"ZCARD", webhook::RetryKey(p)})->integer;
    }
    return total;
  }

  RedisServer redis_;
  RedisClient redis_client_;
  RedisDeliveryLog log_;
  int health_port_ = FreePort();
};

std::string OpensslHmac(const std::string& secret, const std::string& body) {
  const std::string path = dq::testing::TempDir() + "/body";
  std::ofstream(path, std::ios::binary) << body;
  const std::string cmd = "openssl dgst -sha256 -hmac '" + secret + "' '" + path + "'";
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return "";
  char out[512] = {0};
  const size_t n = fread(out, 1, sizeof out - 1, f);
  pclose(f);
  std::string s(out, n);
  const size_t eq = s.rfind("= ");
  if (eq == std::string::npos) return "";
  s = s.substr(eq + 2);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// After an upgrade to partitions (issue 35): events and retries written by an older release to
// the single dq:events stream and dq:webhooks:retry set are still delivered, beside new ones on
// the partitions; the old retry moves to its partition when it is claimed.
TEST_F(NotifierIntegrationTest, DrainsTheSingleStreamAndRetrySetOfOlderReleases) {
  TestReceiver receiver;
  SetWebhook("acct_old", receiver.Url(), "s");
  SetWebhook("acct_new", receiver.Url(), "s");
  webhook::Event old_retry;
  old_retry.type = "job.complete";
  old_retry.account_id = "acct_old";
  old_retry.delivery_id = "d-old-retry";
  old_retry.payload = R"({"event":"job.complete","jobId":"job-old-retry"})";
  old_retry.created_ms = UnixMillis(std::chrono::system_clock::now());
  old_retry.first_attempt_ms = old_retry.created_ms;
  old_retry.attempts = 1;
  const std::string member = webhook::EventToJson(old_retry);
  ASSERT_TRUE(redis_client_.Command({"ZADD", "dq:webhooks:retry", "1", member}).ok());
  ASSERT_TRUE(
      redis_client_.Command({"HSET", "{dq:webhooks:retry}:ids", "d-old-retry", member}).ok());
  const std::string old_event = Publish("acct_old", "job-old", /*legacy=*/true);
  auto notifier = StartNotifier();
  const std::string new_event = Publish("acct_new", "job-new");
  ASSERT_TRUE(WaitFor([&] { return receiver.Count() >= 3; }, 15s)) << notifier->Log();
  std::set<std::string> delivered;
  for (const auto& r : receiver.Requests()) delivered.insert(r.Header("x-service-delivery"));
  EXPECT_EQ(delivered, (std::set<std::string>{old_event, new_event, "d-old-retry"}));
  ASSERT_TRUE(WaitFor([&] { return Pending() == 0 && Retries() == 0; }, 30s));
  EXPECT_EQ(redis_client_.Command({"HLEN", "{dq:webhooks:retry}:ids"})->integer, 0);
}

TEST_F(NotifierIntegrationTest, DeliversSignedEventThatVerifiesWithOpenssl) {
  TestReceiver receiver;
  SetWebhook("acct_sig", receiver.Url(), "whsec_test_secret");
  auto notifier = StartNotifier();
  const std::string delivery = Publish("acct_sig");
  ASSERT_TRUE(WaitFor([&] { return receiver.Count() >= 1; }, 10s)) << notifier->Log();
  const ReceivedRequest req = receiver.Requests()[0];
  EXPECT_EQ(req.method, "POST");
  EXPECT_EQ(req.path, "/hook");
  EXPECT_EQ(req.Header("content-type"), "application/json");
  EXPECT_EQ(req.Header("x-service-event"), "job.complete");
  EXPECT_EQ(req.Header("x-service-delivery"), delivery);
  EXPECT_NE(req.body.find(R"("jobId":"job-1")"), std::string::npos);
  const std::string independent = OpensslHmac("whsec_test_secret", req.body);
  ASSERT_EQ(independent.size(), 64u);
  EXPECT_EQ(req.Header("x-service-signature"), "sha256=" + independent);
  EXPECT_TRUE(VerifySignature(req.body, "whsec_test_secret", req.Header("x-service-signature")));

  ASSERT_TRUE(WaitFor([&] { return Pending() == 0; }, 30s));
  ASSERT_TRUE(WaitFor([&] { return log_.Deliveries("acct_sig")->size() == 1; }, 30s));
  const auto attempt = log_.Deliveries("acct_sig")->at(0);
  EXPECT_EQ(attempt.outcome, "delivered");
  EXPECT_EQ(attempt.http_status, 200);
  EXPECT_EQ(attempt.delivery_id, delivery);
  EXPECT_EQ(attempt.url, receiver.Url());

  // Probes and metrics.
  const std::string base = "http://127.0.0.1:" + std::to_string(health_port_);
  EXPECT_EQ(dq::testing::Http("GET", base + "/healthz").status, 200);
  EXPECT_EQ(dq::testing::Http("GET", base + "/readyz").status, 200);
  const auto metrics = dq::testing::Http("GET", base + "/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.body.find("dq_notifier_deliveries_total{outcome=\"delivered\"} 1"),
            std::string::npos)
      << metrics.body;
}

TEST_F(NotifierIntegrationTest, NoSecretMeansNoSignatureHeader) {
  TestReceiver receiver;
  SetWebhook("acct_plain", receiver.Url(), "");
  auto notifier = StartNotifier();
  Publish("acct_plain");
  ASSERT_TRUE(WaitFor([&] { return receiver.Count() >= 1; }, 10s)) << notifier->Log();
  EXPECT_EQ(receiver.Requests()[0].headers.count("x-service-signature"), 0u);
}

TEST_F(NotifierIntegrationTest, RetriesAfter500sWithTheSameDeliveryId) {
  TestReceiver receiver([](const ReceivedRequest&, int i) {
    return ReceiverReply{i < 2 ? 500 : 200, 0ms};
  });
  SetWebhook("acct_500", receiver.Url(), "s");
  auto notifier = StartNotifier();
  const std::string delivery = Publish("acct_500");
  ASSERT_TRUE(WaitFor([&] { return receiver.Count() >= 3; }, 10s)) << notifier->Log();
  for (const auto& r : receiver.Requests()) EXPECT_EQ(r.Header("x-service-delivery"), delivery);
  ASSERT_TRUE(WaitFor(
      [&] {
        auto d = log_.Deliveries("acct_500");
        return d.ok() && d->size() == 3 && d->at(0).outcome == "delivered";
      },
      30s));
  const auto attempts = *log_.Deliveries("acct_500");  // newest first
  EXPECT_EQ(attempts[2].outcome, "retry");
  EXPECT_EQ(attempts[2].http_status, 500);
  EXPECT_EQ(attempts[2].error, "HTTP 500");
  EXPECT_EQ(attempts[2].attempt, 1);
  EXPECT_EQ(attempts[1].attempt, 2);
  EXPECT_EQ(attempts[0].attempt, 3);
  ASSERT_TRUE(WaitFor([&] { return Retries() == 0; }, 30s));
  EXPECT_EQ(Pending(), 0);
}

TEST_F(NotifierIntegrationTest, RetriesAfterATimeout) {
  TestReceiver receiver([](const ReceivedRequest&, int i) {
    return ReceiverReply{200, i == 0 ? 1500ms : 0ms};  // first answer comes after the 500 ms timeout
  });
  SetWebhook("acct_slow", receiver.Url(), "s");
  auto notifier = StartNotifier();
  const std::string delivery = Publish("acct_slow");
  ASSERT_TRUE(WaitFor(
      [&] {
        auto d = log_.Deliveries("acct_slow");
        return d.ok() && !d->empty() && d->at(0).outcome == "delivered";
      },
      10s))
      << notifier->Log();
  const auto attempts = *log_.Deliveries("acct_slow");
  ASSERT_GE(attempts.size(), 2u);
  EXPECT_EQ(attempts.back().error, "timeout");
  EXPECT_EQ(attempts.back().outcome, "retry");
  for (const auto& r : receiver.Requests()) EXPECT_EQ(r.Header("x-service-delivery"), delivery);
}

TEST_F(NotifierIntegrationTest, DeadLetterAfterTheCompressedScheduleThenRedeliver) {
  std::atomic<int> status{500};
  TestReceiver receiver(
      [&](const ReceivedRequest&, int) { return ReceiverReply{status.load(), 0ms}; });
  SetWebhook("acct_dead", receiver.Url(), "s");
  auto notifier = StartNotifier({{"DQ_WEBHOOK_RETRY_TOTAL_MS", "800"}});
  const std::string delivery = Publish("acct_dead");
  // The attempt is logged last, once its dead letter is stored.
  ASSERT_TRUE(WaitFor(
      [&] {
        auto d = log_.Deliveries("acct_dead");
        return log_.DeadLetters("acct_dead")->size() == 1 && d.ok() && !d->empty() &&
               d->at(0).outcome == "dead_letter";
      },
      30s))
      << notifier->Log();
  const DeadLetter dead = log_.DeadLetters("acct_dead")->at(0);
  EXPECT_EQ(dead.event.delivery_id, delivery);
  EXPECT_EQ(dead.last_error, "HTTP 500");
  EXPECT_GE(dead.event.attempts, 3);
  EXPECT_EQ(log_.Deliveries("acct_dead")->at(0).outcome, "dead_letter");
  EXPECT_EQ(Retries(), 0);
  const size_t before = receiver.Count();

  // dqctl webhook redeliver: same delivery id, fresh schedule.
  status = 200;
  EXPECT_EQ(log_.Redeliver("acct_dead", "no-such-id", UnixMillis(std::chrono::system_clock::now()))
                .code(),
            ErrorCode::kNotFound);
  ASSERT_TRUE(
      log_.Redeliver("acct_dead", delivery, UnixMillis(std::chrono::system_clock::now())).ok());
  ASSERT_TRUE(WaitFor([&] { return log_.Deliveries("acct_dead")->at(0).outcome == "delivered"; },
                      10s));
  EXPECT_EQ(receiver.Requests().back().Header("x-service-delivery"), delivery);
  EXPECT_GT(receiver.Count(), before);
  EXPECT_TRUE(log_.DeadLetters("acct_dead")->empty());
}

TEST_F(NotifierIntegrationTest, NoWebhookIsAcknowledgedAndLoggedAsSkipped) {
  auto notifier = StartNotifier();
  const std::string delivery = Publish("acct_none");
  ASSERT_TRUE(WaitFor(
      [&] {
        auto d = log_.Deliveries("acct_none");
        return d.ok() && d->size() == 1;
      },
      10s));
  EXPECT_EQ(log_.Deliveries("acct_none")->at(0).outcome, "skipped");
  ASSERT_TRUE(WaitFor([&] { return Pending() == 0; }, 30s));
}

// With private targets refused, neither a loopback literal (refused by URL validation) nor a
// name that only resolves to loopback (refused at connect time) gets a request through.
TEST_F(NotifierIntegrationTest, SsrfRefusalsHoldWhenPrivateTargetsAreNotAllowed) {
  TestReceiver receiver;
  SetWebhook("acct_lit", receiver.Url(), "s");
  // "2130706433" is not an IP literal to our URL check, but the resolver turns it into
  // 127.0.0.1: only the connect-time check can stop it.
  SetWebhook("acct_dns", "http://2130706433:" + std::to_string(receiver.port()) + "/hook", "s");
  auto notifier = StartNotifier({{"DQ_WEBHOOK_ALLOW_PRIVATE", "0"}});
  Publish("acct_lit");
  Publish("acct_dns");
  ASSERT_TRUE(WaitFor(
      [&] {
        auto a = log_.Deliveries("acct_lit");
        auto b = log_.Deliveries("acct_dns");
        return a.ok() && b.ok() && !a->empty() && !b->empty();
      },
      10s))
      << notifier->Log();
  EXPECT_EQ(log_.Deliveries("acct_lit")->back().error,
            "webhook URL targets a refused address (loopback)");
  EXPECT_EQ(log_.Deliveries("acct_dns")->back().error,
            "refused address 127.0.0.1 (loopback)");
  EXPECT_EQ(log_.Deliveries("acct_dns")->back().outcome, "retry");
  EXPECT_EQ(receiver.Count(), 0u);
}

// kill -9 in the middle of 1,000 events: a second notifier reclaims what the first left pending;
// every event arrives at least once, duplicates carry the same delivery id.
TEST_F(NotifierIntegrationTest, Kill9MidStreamLosesNoEvent) {
  constexpr int kEvents = 1000;
  // A receiver that takes 3 ms per request keeps the first notifier busy long enough to be
  // killed in the middle of the stream.
  TestReceiver receiver([](const ReceivedRequest&, int) { return ReceiverReply{200, 3ms}; });
  SetWebhook("acct_crash", receiver.Url(), "s");
  auto first = StartNotifier();
  std::set<std::string> published;
  for (int i = 0; i < kEvents; ++i) {
    published.insert(Publish("acct_crash", "job-" + std::to_string(i)));
    if (i == kEvents / 4) {
      ASSERT_TRUE(WaitFor([&] { return receiver.Count() >= 50; }, 10s));
    }
  }
  ASSERT_TRUE(WaitFor([&] { return receiver.Count() >= 300; }, 20s));
  first->Kill9();
  const size_t at_kill = receiver.Count();
  const int64_t pending_at_kill = Pending();
  ASSERT_LT(at_kill, static_cast<size_t>(kEvents)) << "the kill came after the stream ended";
  auto second = StartNotifier();
  auto distinct = [&] {
    std::set<std::string> ids;
    for (const auto& r : receiver.Requests()) ids.insert(r.Header("x-service-delivery"));
    return ids;
  };
  ASSERT_TRUE(WaitFor([&] { return distinct().size() == kEvents; }, 60s))
      << "received " << distinct().size() << " distinct of " << kEvents << "; at kill "
      << at_kill << ", pending at kill " << pending_at_kill << "\n"
      << second->Log();
  EXPECT_EQ(distinct(), published);
  ASSERT_TRUE(WaitFor([&] { return Pending() == 0; }, 10s));
  std::printf("crash test: %zu received at kill, %lld pending at kill, %zu requests in all\n",
              at_kill, static_cast<long long>(pending_at_kill), receiver.Count());
  // Duplicates are allowed, but each is a full, correctly signed copy.
  for (const auto& r : receiver.Requests()) {
    ASSERT_TRUE(VerifySignature(r.body, "s", r.Header("x-service-signature")));
  }
}

// One tenant's dead endpoint (and two more accounts pointed at it) must not hold up another
// tenant: its attempts are capped per account and per destination, its breaker opens after a
// few timeouts, and the other tenant's new event and its retry are delivered on time.
TEST_F(NotifierIntegrationTest, ADeadEndpointDelaysNoOtherTenantByMoreThanOneAttempt) {
  BlackHole hole;
  TestReceiver good([](const ReceivedRequest&, int i) { return ReceiverReply{i == 0 ? 500 : 200}; });
  for (const std::string a : {"acct_dead1", "acct_dead2", "acct_dead3"}) SetWebhook(a, hole.Url(), "s");
  SetWebhook("acct_good", good.Url(), "s");
  auto notifier = StartNotifier({{"DQ_WEBHOOK_TIMEOUT_MS", "1500"},
                                 {"DQ_NOTIFIER_WORKERS", "8"},
                                 {"DQ_WEBHOOK_RETRY_BASE_MS", "1000"},
                                 {"DQ_WEBHOOK_RETRY_MAX_DELAY_MS", "1000"},
                                 {"DQ_NOTIFIER_PER_ACCOUNT", "2"},
                                 {"DQ_NOTIFIER_PER_HOST", "4"},
                                 {"DQ_WEBHOOK_BREAKER_COOLDOWN_MS", "60000"}});
  for (int i = 0; i < 20; ++i) {
    for (const std::string a : {"acct_dead1", "acct_dead2", "acct_dead3"}) Publish(a);
  }
  // The dead endpoint holds its attempts (each for the whole 1.5 s timeout).
  ASSERT_TRUE(WaitFor([&] { return hole.accepted() >= 4; }, 10s)) << notifier->Log();

  const auto published = std::chrono::steady_clock::now();
  Publish("acct_good");
  ASSERT_TRUE(WaitFor([&] { return good.Requests().size() >= 2; }, 10s)) << notifier->Log();
  const auto got = good.Requests();
  // The new event: at once, not after the dead endpoint's attempts (one attempt is 1.5 s).
  EXPECT_LT(got[0].at - published, 1500ms);
  // Its retry (the first answer was 500) comes when it is due, not after the dead backlog.
  // The second attempt's log line follows its POST.
  ASSERT_TRUE(WaitFor([&] { return log_.Deliveries("acct_good")->size() >= 2; }, 30s));
  const auto attempts = *log_.Deliveries("acct_good");
  const int64_t due_ms = attempts.back().next_attempt_ms;
  ASSERT_GT(due_ms, 0);
  const int64_t arrived_ms =
      UnixMillis(std::chrono::system_clock::now()) -
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                            got[1].at)
          .count();
  EXPECT_LT(arrived_ms - due_ms, 1500) << "the retry was due at " << due_ms;

  // The dead destination never had more than its 4 attempts at once, and its breaker opened:
  // later attempts fail at once without a connection.
  EXPECT_LE(hole.peak(), 4);
  ASSERT_TRUE(WaitFor(
      [&] {
        auto d = log_.Deliveries("acct_dead1");
        if (!d.ok()) return false;
        for (const auto& a : *d) {
          if (a.error.find("is not answering") != std::string::npos) return true;
        }
        return false;
      },
      15s))
      << notifier->Log();
  const int connections = hole.accepted();
  EXPECT_LT(connections, 30) << "attempts still connect to an open breaker's destination";
}


namespace webhook_dependability {

// How many requests the receiver got for one delivery id.
size_t CountFor(const TestReceiver& receiver, const std::string& delivery) {
  size_t n = 0;
  for (const auto& r : receiver.Requests()) n += r.Header("x-service-delivery") == delivery;
  return n;
}

}  // namespace webhook_dependability

// Issue 33: a redeliver cancels the pending retry of the same event. The receiver fails the first
// attempt (a retry is scheduled a few seconds out), then the event is redelivered: the receiver
// gets exactly one more request for that delivery id, and the cancelled retry never comes, not
// even after its due time has passed.
TEST_F(NotifierIntegrationTest, RedeliverCancelsThePendingRetry) {
  using webhook_dependability::CountFor;
  std::atomic<int> status{500};
  TestReceiver receiver([&](const ReceivedRequest&, int) {
    return ReceiverReply{status.load(), 0ms, std::string(1500, 'r')};
  });
  SetWebhook("acct_redo", receiver.Url(), "whsec_c2VjcmV0");
  auto notifier = StartNotifier(
      {{"DQ_WEBHOOK_RETRY_BASE_MS", "8000"}, {"DQ_WEBHOOK_RETRY_MAX_DELAY_MS", "8000"}});
  const std::string delivery = Publish("acct_redo");
  ASSERT_TRUE(WaitFor(
      [&] {
        auto d = log_.Deliveries("acct_redo");
        return d.ok() && !d->empty() && d->at(0).outcome == "retry";
      },
      10s))
      << notifier->Log();
  const auto failed = log_.Deliveries("acct_redo")->at(0);
  ASSERT_GT(failed.next_attempt_ms, 0);
  // The answer's first KiB is kept, and says it was cut.
  EXPECT_EQ(failed.response, std::string(1024, 'r'));
  EXPECT_TRUE(failed.response_truncated);
  const std::string pending = *log_.ScheduledMember(delivery);
  ASSERT_FALSE(pending.empty());
  ASSERT_EQ(CountFor(receiver, delivery), 1u);

  status = 200;
  // The retry is due 4 to 8 s after the failure: the redeliver comes first.
  ASSERT_LT(UnixMillis(std::chrono::system_clock::now()), failed.next_attempt_ms);
  ASSERT_TRUE(
      log_.Redeliver("acct_redo", delivery, UnixMillis(std::chrono::system_clock::now())).ok());
  // Right after the redeliver, one attempt is scheduled, and it is not the old one.
  EXPECT_EQ(redis_client_.Command(
                {"ZSCORE",
                 webhook::RetryKey(webhook::RetryPartitionOf(pending, DefaultPartitions(/*cluster=*/false))),
                 pending})->type,
            RedisReply::Type::kNil);
  ASSERT_TRUE(WaitFor([&] { return CountFor(receiver, delivery) >= 2; }, 10s)) << notifier->Log();
  ASSERT_TRUE(WaitFor([&] { return log_.Deliveries("acct_redo")->at(0).outcome == "delivered"; },
                      30s));
  // Past the cancelled retry's due time, and a few polls more: nothing else arrived.
  const int64_t quiet_until = failed.next_attempt_ms + 1000;
  WaitFor([&] { return UnixMillis(std::chrono::system_clock::now()) > quiet_until; }, 10s);
  EXPECT_EQ(CountFor(receiver, delivery), 2u);
  EXPECT_EQ(Retries(), 0);
  EXPECT_EQ(*log_.ScheduledMember(delivery), "");
}

namespace webhook_dependability {

// The notifier's count of attempts put back on the schedule (dq_notifier_deliveries_total
// {outcome="deferred"}), read from its /metrics.
int Deferred(int health_port) {
  const auto m = dq::testing::Http("GET", "http://127.0.0.1:" + std::to_string(health_port) +
                                              "/metrics");
  const std::string name = "dq_notifier_deliveries_total{outcome=\"deferred\"} ";
  const size_t at = m.body.find(name);
  return at == std::string::npos ? 0 : std::atoi(m.body.c_str() + at + name.size());
}

// A receiver whose second request (the retry) is held until `release`, answering `held_status`;
// the first fails, later ones succeed. It records how many requests of one delivery were ever
// open at once.
struct HeldRetry {
  std::atomic<bool> release{false};
  std::atomic<int> open{0};
  std::atomic<int> most_open{0};
  int held_status = 500;
  ReceiverReply Answer(int index) {
    const int now_open = ++open;
    for (int m = most_open.load(); now_open > m && !most_open.compare_exchange_weak(m, now_open);) {
    }
    ReceiverReply reply{index == 0 ? 500 : 200, 0ms};
    if (index == 1) {
      WaitFor([&] { return release.load(); }, 8s);  // bounded by the notifier's timeout
      reply.status = held_status;
    }
    --open;
    return reply;
  }
};

}  // namespace webhook_dependability

// A redeliver made while the retry's attempt is in flight does not reach the receiver beside it:
// the redelivered attempt finds the delivery's send lease taken and is put back on the schedule
// until the attempt in flight has ended. That one fails (500): its reschedule is dropped (the
// redeliver replaced it), and the redelivered attempt then goes, once.
TEST_F(NotifierIntegrationTest, ARedeliverWaitsForTheAttemptInFlightAndThenSendsOnce) {
  using webhook_dependability::CountFor;
  using webhook_dependability::Deferred;
  webhook_dependability::HeldRetry held;
  TestReceiver receiver([&](const ReceivedRequest&, int index) { return held.Answer(index); });
  SetWebhook("acct_fly", receiver.Url(), "s");
  auto notifier = StartNotifier({{"DQ_WEBHOOK_TIMEOUT_MS", "10000"}});
  const std::string delivery = Publish("acct_fly");
  ASSERT_TRUE(WaitFor([&] { return CountFor(receiver, delivery) == 2; }, 10s)) << notifier->Log();
  ASSERT_TRUE(
      log_.Redeliver("acct_fly", delivery, UnixMillis(std::chrono::system_clock::now())).ok());
  // The redelivered attempt was taken and put back (the lease is the in-flight attempt's), more
  // than once, and has not reached the receiver.
  ASSERT_TRUE(WaitFor([&] { return Deferred(health_port_) >= 2; }, 10s)) << notifier->Log();
  EXPECT_EQ(CountFor(receiver, delivery), 2u);
  held.release = true;
  ASSERT_TRUE(WaitFor([&] { return CountFor(receiver, delivery) == 3; }, 10s)) << notifier->Log();
  ASSERT_TRUE(WaitFor(
      [&] {
        auto d = log_.Deliveries("acct_fly");
        return d.ok() && d->size() == 3 && d->at(0).outcome == "delivered";
      },
      10s));
  // The held attempt was logged as "retry" but scheduled nothing; nothing is left to send (the
  // delivered attempt leaves the schedule before it is logged).
  EXPECT_EQ(log_.Deliveries("acct_fly")->at(1).outcome, "retry");
  EXPECT_TRUE(WaitFor(
      [&] {
        return Retries() == 0 &&
               log_.ScheduledMember(delivery)->empty();
      },
      10s));
  EXPECT_EQ(CountFor(receiver, delivery), 3u);
  EXPECT_EQ(held.most_open.load(), 1) << "two attempts of one delivery were open at once";
}

// The same, but the attempt in flight succeeds: the receiver has the event, so the redeliver
// made meanwhile is cancelled and never sent.
TEST_F(NotifierIntegrationTest, AnAttemptInFlightThatSucceedsCancelsTheRedeliverMadeMeanwhile) {
  using webhook_dependability::CountFor;
  using webhook_dependability::Deferred;
  webhook_dependability::HeldRetry held;
  held.held_status = 200;
  TestReceiver receiver([&](const ReceivedRequest&, int index) { return held.Answer(index); });
  SetWebhook("acct_fly2", receiver.Url(), "s");
  auto notifier = StartNotifier({{"DQ_WEBHOOK_TIMEOUT_MS", "10000"}});
  const std::string delivery = Publish("acct_fly2");
  ASSERT_TRUE(WaitFor([&] { return CountFor(receiver, delivery) == 2; }, 10s)) << notifier->Log();
  ASSERT_TRUE(
      log_.Redeliver("acct_fly2", delivery, UnixMillis(std::chrono::system_clock::now())).ok());
  ASSERT_TRUE(WaitFor([&] { return Deferred(health_port_) >= 2; }, 10s)) << notifier->Log();
  ASSERT_FALSE(log_.ScheduledMember(delivery)->empty());
  held.release = true;
  ASSERT_TRUE(WaitFor(
      [&] {
        auto d = log_.Deliveries("acct_fly2");
        return d.ok() && d->size() == 2 && d->at(0).outcome == "delivered";
      },
      10s))
      << notifier->Log();
  // The redeliver's attempt leaves the schedule in the same step as the lease is given back
  // (just before the attempt is logged): an attempt of it taken meanwhile finds the lease held, or
  // its member gone, and is not made.
  EXPECT_TRUE(WaitFor(
      [&] {
        return Retries() == 0 &&
               log_.ScheduledMember(delivery)->empty();
      },
      10s));
  EXPECT_EQ(CountFor(receiver, delivery), 2u);
  EXPECT_EQ(held.most_open.load(), 1);
}

// A test event is attempted once: a failing receiver gets one request and nothing is scheduled.
TEST_F(NotifierIntegrationTest, ATestEventIsSentOnceAndNotRetried) {
  using webhook_dependability::CountFor;
  TestReceiver receiver([](const ReceivedRequest&, int) { return ReceiverReply{503, 0ms}; });
  SetWebhook("acct_test", receiver.Url(), "s");
  auto notifier = StartNotifier();
  webhook::Event e;
  e.type = "job.complete";
  e.account_id = "acct_test";
  e.delivery_id = NewUuidV4();
  e.payload = R"({"event":"job.complete","jobId":"j","filename":"test.csv","test":true})";
  e.test = true;
  const int64_t now = UnixMillis(std::chrono::system_clock::now());
  e.created_ms = e.first_attempt_ms = now;
  ASSERT_TRUE(log_.ScheduleRetry(e, now, "").ok());
  ASSERT_TRUE(WaitFor(
      [&] {
        auto d = log_.Deliveries("acct_test");
        return d.ok() && d->size() == 1;
      },
      10s))
      << notifier->Log();
  const auto attempt = log_.Deliveries("acct_test")->at(0);
  EXPECT_EQ(attempt.outcome, "failed");
  EXPECT_TRUE(attempt.test);
  EXPECT_EQ(Retries(), 0);
  EXPECT_EQ(CountFor(receiver, e.delivery_id), 1u);
}

// During a roll's overlap, the old secret signs X-Service-Signature and both sign
// webhook-signature (newest first); once the overlap is over, only the new one signs.
TEST_F(NotifierIntegrationTest, ARolledSecretKeepsSigningDuringItsOverlap) {
  TestReceiver receiver;
  const std::string old_secret = "whsec_b2xkLXNlY3JldC1vbGQ=";
  const std::string new_secret = "whsec_bmV3LXNlY3JldC1uZXc=";
  const int64_t now = UnixMillis(std::chrono::system_clock::now());
  ASSERT_TRUE(redis_client_
                  .Command({"HSET", AccountKey("acct_roll", "webhook"), "url", receiver.Url(),
                            "secret", new_secret, "previous_secret", old_secret,
                            "previous_until_ms", std::to_string(now + 600'000)})
                  .ok());
  auto notifier = StartNotifier();
  Publish("acct_roll");
  ASSERT_TRUE(WaitFor([&] { return receiver.Count() >= 1; }, 10s)) << notifier->Log();
  const ReceivedRequest during = receiver.Requests()[0];
  EXPECT_TRUE(VerifySignature(during.body, old_secret, during.Header("x-service-signature")));
  const std::string id = during.Header("webhook-id");
  const std::string ts = during.Header("webhook-timestamp");
  EXPECT_EQ(during.Header("webhook-signature"),
            *webhook::StandardSignature(id, ts, during.body, new_secret) + " " +
                *webhook::StandardSignature(id, ts, during.body, old_secret));

  // The overlap ends: the new secret alone.
  ASSERT_TRUE(redis_client_
                  .Command({"HSET", AccountKey("acct_roll", "webhook"), "previous_until_ms",
                            std::to_string(now - 1)})
                  .ok());
  Publish("acct_roll");
  ASSERT_TRUE(WaitFor([&] { return receiver.Count() >= 2; }, 10s)) << notifier->Log();
  const ReceivedRequest after = receiver.Requests()[1];
  EXPECT_TRUE(VerifySignature(after.body, new_secret, after.Header("x-service-signature")));
  EXPECT_EQ(after.Header("webhook-signature"),
            *webhook::StandardSignature(after.Header("webhook-id"),
                                        after.Header("webhook-timestamp"), after.body, new_secret));
}

}  // namespace
}  // namespace dq::notifier
