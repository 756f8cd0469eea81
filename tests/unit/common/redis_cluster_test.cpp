// The cluster topology's retries (common/src/redis_cluster.cpp) against fake nodes and a fake
// clock: a command answered TRYAGAIN (its slot is migrating) is sent again until the migration
// ends or the call's deadline passes, however long the timeout; redirects that never settle end.
// The fake clock moves only when the topology pauses (or a fake node takes its time), so no test
// sleeps.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <mutex>

#include "dq/common/redis_slots.h"
#include "redis_cluster.h"

namespace dq::redis_internal {
namespace {

using std::chrono::milliseconds;

RedisReply Str(std::string s, RedisReply::Type type = RedisReply::Type::kString) {
  RedisReply r;
  r.type = type;
  r.str = std::move(s);
  return r;
}
RedisReply Error(std::string s) { return Str(std::move(s), RedisReply::Type::kError); }
RedisReply Int(int64_t v) {
  RedisReply r;
  r.type = RedisReply::Type::kInteger;
  r.integer = v;
  return r;
}
RedisReply Array(std::vector<RedisReply> elements) {
  RedisReply r;
  r.type = RedisReply::Type::kArray;
  r.elements = std::move(elements);
  return r;
}

// A cluster whose every slot is served by the node on port 7000 (CLUSTER SHARDS says so); each
// node answers each command with `answer` (port, command, the clock's time since the start).
class FakeCluster final : public ClusterIo {
 public:
  using Answer = std::function<RedisReply(int port, const Argv& cmd, int64_t elapsed_ms)>;

  struct Call {
    int port;
    int64_t at_ms;  // since the start
    std::vector<Argv> cmds;
  };

  explicit FakeCluster(Answer answer) : answer_(std::move(answer)) {}

  std::shared_ptr<ClusterNode> Connect(const RedisAddress& address) override {
    return std::make_shared<FakeNode>(address, this);
  }
  Result<RedisReply> OneShot(const RedisAddress&, const Argv& argv) override {
    if (argv != Argv{"CLUSTER", "SHARDS"}) return Error("ERR unexpected");
    RedisReply node = Array({Str("ip"), Str("127.0.0.1"), Str("port"), Int(7000), Str("role"),
                             Str("master"), Str("health"), Str("online")});
    return Array({Array(
        {Str("slots"), Array({Int(0), Int(kClusterSlots - 1)}), Str("nodes"), Array({node})})});
  }
  int64_t NowMs() override { return now_ms_.load(); }
  void Sleep(milliseconds pause) override {
    std::lock_guard lock(mu_);
    pauses_.push_back(pause.count());
    now_ms_ += pause.count();
  }

  // Each reply costs this much of the clock.
  void set_reply_ms(int64_t ms) { reply_ms_ = ms; }
  std::vector<Call> calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }
  std::vector<int64_t> pauses() {
    std::lock_guard lock(mu_);
    return pauses_;
  }
  int64_t elapsed_ms() const { return now_ms_.load() - kStartMs; }

  static constexpr int64_t kStartMs = 1'000'000;

 private:
  class FakeNode final : public ClusterNode {
   public:
    FakeNode(RedisAddress address, FakeCluster* cluster)
        : address_(std::move(address)), cluster_(cluster) {}
    const RedisAddress& address() const override { return address_; }
    Result<std::vector<RedisReply>> Run(const std::vector<Argv>& cmds, Failure*,
                                        milliseconds) override {
      return cluster_->Reply(address_.port, cmds);
    }

   private:
    RedisAddress address_;
    FakeCluster* cluster_;
  };

  std::vector<RedisReply> Reply(int port, const std::vector<Argv>& cmds) {
    std::lock_guard lock(mu_);
    calls_.push_back({port, elapsed_ms(), cmds});
    std::vector<RedisReply> out;
    for (const auto& cmd : cmds) {
      out.push_back(cmd == Argv{"ASKING"} ? Str("OK", RedisReply::Type::kStatus)
                                          : answer_(port, cmd, elapsed_ms()));
    }
    now_ms_ += reply_ms_;
    return out;
  }

  Answer answer_;
  std::atomic<int64_t> now_ms_{kStartMs};
  int64_t reply_ms_ = 0;
  std::mutex mu_;
  std::vector<Call> calls_;
  std::vector<int64_t> pauses_;
};

struct Topology {
  FakeCluster* cluster;
  std::unique_ptr<RedisClient::Topology> topology;
};
Topology Make(FakeCluster::Answer answer, milliseconds timeout) {
  RedisOptions o;
  o.cluster = {{"127.0.0.1", 7000}};
  o.timeout = timeout;
  auto io = std::make_unique<FakeCluster>(std::move(answer));
  FakeCluster* cluster = io.get();
  return {cluster, MakeClusterTopology(o, std::move(io))};
}

const Argv kScript = {"EVALSHA", "sha", "2", "{a}x", "{a}y"};
const int kSlot = KeySlot("a");

// TRYAGAIN until `ends_ms` after the start (the migration's end), then the script's answer.
FakeCluster::Answer MigrationEndingAt(int64_t ends_ms) {
  return [ends_ms](int, const Argv&, int64_t elapsed) {
    return elapsed < ends_ms ? Error("TRYAGAIN Multiple keys request during rehashing of slot")
                             : Str("done");
  };
}

TEST(RetryPauses, DoubleFromTenToTwoHundredAndStopAtTheDeadline) {
  RetryPauses pauses(1000);
  std::vector<int64_t> got;
  int64_t now = 0;
  while (auto pause = pauses.Next(now)) {
    got.push_back(pause->count());
    now += pause->count();
  }
  // The last pause is cut short: the last try is at the deadline, not before it.
  EXPECT_EQ(got, (std::vector<int64_t>{10, 20, 40, 80, 160, 200, 200, 200, 90}));
  EXPECT_EQ(now, 1000);
  EXPECT_FALSE(RetryPauses(1000).Next(1000).has_value());
  EXPECT_FALSE(RetryPauses(1000).Next(1500).has_value());
  EXPECT_EQ(RetryPauses(1000).Next(995)->count(), 5);
}

// The defect this guards: the client stopped after 16 tries (about 2.3 s of pauses) whatever
// its timeout, so a migration of 3 s failed a call allowed 5 s.
TEST(ClusterTopologyRetry, AMigrationThatEndsWithinTheTimeoutIsWaitedFor) {
  auto t = Make(MigrationEndingAt(3000), milliseconds(5000));
  auto replies = t.topology->Run(kSlot, {kScript}, {});
  ASSERT_TRUE(replies.ok()) << replies.status().message();
  ASSERT_EQ(replies->size(), 1u);
  EXPECT_EQ((*replies)[0].str, "done");
  EXPECT_GE(t.cluster->elapsed_ms(), 3000);
  EXPECT_LT(t.cluster->elapsed_ms(), 3000 + RetryPauses::kMostMs);
  const auto pauses = t.cluster->pauses();
  ASSERT_GE(pauses.size(), 7u);
  EXPECT_EQ(std::vector<int64_t>(pauses.begin(), pauses.begin() + 7),
            (std::vector<int64_t>{10, 20, 40, 80, 160, 200, 200}));
  for (const auto& call : t.cluster->calls()) EXPECT_EQ(call.cmds, std::vector<Argv>{kScript});
}

TEST(ClusterTopologyRetry, AMigrationThatEndsAtTheDeadlineIsSeen) {
  auto t = Make(MigrationEndingAt(1000), milliseconds(1000));
  auto replies = t.topology->Run(kSlot, {kScript}, {});
  ASSERT_TRUE(replies.ok()) << replies.status().message();
  EXPECT_EQ((*replies)[0].str, "done");
  EXPECT_EQ(t.cluster->elapsed_ms(), 1000);
  EXPECT_EQ(t.cluster->calls().back().at_ms, 1000);
}

TEST(ClusterTopologyRetry, AMigrationThatOutlastsTheTimeoutIsAnsweredTryAgainAtTheDeadline) {
  auto t = Make(MigrationEndingAt(1'000'000), milliseconds(1000));
  auto replies = t.topology->Run(kSlot, {kScript}, {});
  ASSERT_TRUE(replies.ok()) << replies.status().message();
  ASSERT_EQ(replies->size(), 1u);
  EXPECT_TRUE((*replies)[0].is_error());
  EXPECT_EQ((*replies)[0].str.rfind("TRYAGAIN", 0), 0u) << (*replies)[0].str;
  EXPECT_EQ(t.cluster->elapsed_ms(), 1000);  // no pause past the deadline
  const auto calls = t.cluster->calls();
  ASSERT_EQ(calls.size(), 10u);  // at 0, 10, 30, 70, 150, 310, 510, 710, 910 and 1000 ms
  EXPECT_EQ(calls.back().at_ms, 1000);
}

TEST(ClusterTopologyRetry, TheTimeRepliesTakeCountsAgainstTheDeadline) {
  auto t = Make(MigrationEndingAt(1'000'000), milliseconds(1000));
  t.cluster->set_reply_ms(300);
  auto replies = t.topology->Run(kSlot, {kScript}, {});
  ASSERT_TRUE(replies.ok()) << replies.status().message();
  EXPECT_TRUE((*replies)[0].is_error());
  // Tries at 0, 310, 630 and 970 ms (pauses of 10, 20 and 40 ms between replies of 300 ms).
  std::vector<int64_t> at;
  for (const auto& call : t.cluster->calls()) at.push_back(call.at_ms);
  EXPECT_EQ(at, (std::vector<int64_t>{0, 310, 630, 970}));
}

// Only the commands that got TRYAGAIN are sent again; the replies of those that ran are kept.
TEST(ClusterTopologyRetry, OnlyTheCommandsThatDidNotRunAreSentAgain) {
  const Argv set = {"SET", "{a}z", "1"};
  auto t = Make(
      [](int, const Argv& cmd, int64_t elapsed) {
        if (cmd[0] == "SET") return Str("OK", RedisReply::Type::kStatus);
        return elapsed < 25 ? Error("TRYAGAIN Multiple keys request during rehashing of slot")
                            : Str("done");
      },
      milliseconds(1000));
  auto replies = t.topology->Run(kSlot, {set, kScript}, {});
  ASSERT_TRUE(replies.ok()) << replies.status().message();
  ASSERT_EQ(replies->size(), 2u);
  EXPECT_EQ((*replies)[0].str, "OK");
  EXPECT_EQ((*replies)[1].str, "done");
  const auto calls = t.cluster->calls();
  ASSERT_EQ(calls.size(), 3u);  // at 0, 10 and 30 ms
  EXPECT_EQ(calls[0].cmds, (std::vector<Argv>{set, kScript}));
  EXPECT_EQ(calls[1].cmds, std::vector<Argv>{kScript});
  EXPECT_EQ(calls[2].cmds, std::vector<Argv>{kScript});
}

// A script whose keys the migration split: the source sends it to the target (ASK), which
// answers TRYAGAIN, and so on until the migration ends. The ASKs between pauses do not count
// towards the redirect limit.
TEST(ClusterTopologyRetry, ASplitScriptGoesBackAndForthUntilTheMigrationEnds) {
  auto t = Make(
      [](int port, const Argv&, int64_t elapsed) {
        if (port == 7000) return Error("ASK " + std::to_string(kSlot) + " 127.0.0.1:7001");
        return elapsed < 3000 ? Error("TRYAGAIN Multiple keys request during rehashing of slot")
                              : Str("done");
      },
      milliseconds(5000));
  auto replies = t.topology->Run(kSlot, {kScript}, {});
  ASSERT_TRUE(replies.ok()) << replies.status().message();
  EXPECT_EQ((*replies)[0].str, "done");
  const auto calls = t.cluster->calls();
  ASSERT_GT(calls.size(), 2 * 16u);
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i].port, i % 2 == 0 ? 7000 : 7001) << i;
    if (calls[i].port == 7001) {
      EXPECT_EQ(calls[i].cmds, (std::vector<Argv>{{"ASKING"}, kScript})) << i;
    }
  }
}

// Two nodes that send the slot to each other: the call ends after 16 redirects in a row,
// answered with the redirect, and without a pause.
TEST(ClusterTopologyRetry, RedirectsThatNeverSettleEnd) {
  auto t = Make(
      [](int port, const Argv&, int64_t) {
        return Error("ASK " + std::to_string(kSlot) +
                     " 127.0.0.1:" + std::to_string(port == 7000 ? 7001 : 7000));
      },
      milliseconds(5000));
  auto replies = t.topology->Run(kSlot, {kScript}, {});
  ASSERT_TRUE(replies.ok()) << replies.status().message();
  EXPECT_EQ((*replies)[0].str.rfind("ASK ", 0), 0u) << (*replies)[0].str;
  EXPECT_EQ(t.cluster->calls().size(), 17u);  // the first try and 16 redirects
  EXPECT_TRUE(t.cluster->pauses().empty());
}

}  // namespace
}  // namespace dq::redis_internal
