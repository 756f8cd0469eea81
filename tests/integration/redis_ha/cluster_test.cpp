// The cluster mode (DQ_REDIS_CLUSTER, issue 35) against a real Redis Cluster of 3 masters and 3
// replicas on loopback (scripts/redis-cluster.sh): every key reaches its slot's node; a slot
// moved under the client is followed (MOVED), a slot being migrated is asked (ASK, with ASKING),
// a script whose keys are split by the migration is retried (TRYAGAIN) until it can run; and the
// whole gateway runs a job to done on the cluster with an exact quota.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>

#include "dq/common/account_store.h"
#include "dq/common/clock.h"
#include "dq/common/redis_slots.h"
#include "dq/common/time_format.h"
#include "dq/testing/harness.h"

namespace dq::testing {
namespace {

using nlohmann::json;

std::string Shell(const std::string& cmd) {
  std::unique_ptr<FILE, decltype(&pclose)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  char buf[512];
  while (pipe && fgets(buf, sizeof buf, pipe.get()) != nullptr) out += buf;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

const std::string kScript = std::string(DQ_SOURCE_DIR) + "/scripts/redis-cluster.sh";

class ClusterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(TempDir());
    seeds_ = new std::string(Shell(kScript + " start " + *dir_ + " 2>&1"));
    if (seeds_->find("127.0.0.1:") != 0) throw std::runtime_error("cluster: " + *seeds_);
  }
  static void TearDownTestSuite() {
    Shell(kScript + " stop " + *dir_);
    delete dir_;
    delete seeds_;
  }
  void SetUp() override { client_ = std::make_unique<RedisClient>(Options()); }

  static RedisOptions Options() {
    RedisOptions o;
    o.cluster = *ParseRedisAddresses(*seeds_);
    o.timeout = std::chrono::milliseconds(2000);
    return o;
  }
  // A client of one node, for admin commands and for looking at what the node holds.
  static std::unique_ptr<RedisClient> Node(int port) {
    RedisOptions o;
    o.port = port;
    return std::make_unique<RedisClient>(o);
  }
  static std::vector<SlotRange> Table() {
    auto seed = ParseRedisAddresses(*seeds_);
    auto r = Node((*seed)[0].port)->Command({"CLUSTER", "SHARDS"});
    auto t = ParseClusterShards(*r, (*seed)[0]);
    return *t;
  }
  static int OwnerPort(int slot) {
    for (const auto& r : Table()) {
      if (slot >= r.first && slot <= r.last) return r.master.port;
    }
    return 0;
  }
  static std::string Id(int port) { return Node(port)->Command({"CLUSTER", "MYID"})->str; }
  // Another master than `port`.
  static int OtherMaster(int port) {
    for (const auto& r : Table()) {
      if (r.master.port != port) return r.master.port;
    }
    return 0;
  }
  static void SetSlotEverywhere(int slot, int owner) {
    const std::string id = Id(owner);
    std::vector<int> masters;
    for (const auto& r : Table()) {
      if (std::find(masters.begin(), masters.end(), r.master.port) == masters.end()) {
        masters.push_back(r.master.port);
      }
    }
    // The new owner first, then the old one, then the others (the documented order).
    EXPECT_TRUE(
        Node(owner)->Command({"CLUSTER", "SETSLOT", std::to_string(slot), "NODE", id}).ok());
    for (int m : masters) {
      if (m != owner) {
        EXPECT_TRUE(
            Node(m)->Command({"CLUSTER", "SETSLOT", std::to_string(slot), "NODE", id}).ok());
      }
    }
  }

  // How many commands the node has answered TRYAGAIN (INFO errorstats); -1 when it cannot say.
  static int64_t TryAgainAnswers(RedisClient& node) {
    auto info = node.Command({"INFO", "errorstats"});
    if (!info.ok()) return -1;
    const std::string field = "errorstat_TRYAGAIN:count=";
    const size_t at = info->str.find(field);
    return at == std::string::npos ? 0 : std::stoll(info->str.substr(at + field.size()));
  }

  static std::string* dir_;
  static std::string* seeds_;
  std::unique_ptr<RedisClient> client_;
};
std::string* ClusterTest::dir_ = nullptr;
std::string* ClusterTest::seeds_ = nullptr;

TEST_F(ClusterTest, EveryKeyReachesItsSlotsNode) {
  std::set<int> owners;
  for (int i = 0; i < 60; ++i) {
    const std::string key = "dq:{acct_" + std::to_string(i) + "}:probe";
    auto set = client_->Command({"SET", key, std::to_string(i)});
    ASSERT_TRUE(set.ok()) << key << ": " << set.status().message();
    owners.insert(OwnerPort(KeySlot(key)));
    // It is on that node, and only there.
    auto there = Node(OwnerPort(KeySlot(key)))->Command({"GET", key});
    ASSERT_TRUE(there.ok()) << there.status().message();
    EXPECT_EQ(there->str, std::to_string(i));
  }
  EXPECT_EQ(owners.size(), 3u);  // sixty tags spread over the three masters
  // A pipeline across slots comes back in order.
  auto replies = client_->Pipeline(
      {{"GET", "dq:{acct_1}:probe"}, {"GET", "dq:{acct_2}:probe"}, {"GET", "dq:{acct_3}:probe"}});
  ASSERT_TRUE(replies.ok());
  EXPECT_EQ((*replies)[0].str, "1");
  EXPECT_EQ((*replies)[1].str, "2");
  EXPECT_EQ((*replies)[2].str, "3");
  // A script over one account's keys runs on its node.
  RedisScript script("redis.call('SET', KEYS[2], redis.call('GET', KEYS[1])) return 1");
  ASSERT_TRUE(client_->Eval(script, {"dq:{acct_4}:probe", "dq:{acct_4}:copy"}, {}).ok());
  EXPECT_EQ(client_->Command({"GET", "dq:{acct_4}:copy"})->str, "4");
  EXPECT_TRUE(client_->Ping());
}

TEST_F(ClusterTest, AMovedSlotIsFollowedAndLearnt) {
  const std::string key = "dq:{acct_moved}:x";
  const int slot = KeySlot(key);
  auto before = client_->Command({"SET", key, "before"});
  ASSERT_TRUE(before.ok()) << before.status().message();
  const int from = OwnerPort(slot);
  const int to = OtherMaster(from);
  EXPECT_EQ(client_->Describe(key), "127.0.0.1:" + std::to_string(from));
  // Move the slot (and its key) behind the client's back.
  EXPECT_TRUE(
      Node(to)->Command({"CLUSTER", "SETSLOT", std::to_string(slot), "IMPORTING", Id(from)}).ok());
  EXPECT_TRUE(
      Node(from)->Command({"CLUSTER", "SETSLOT", std::to_string(slot), "MIGRATING", Id(to)}).ok());
  auto moved = Node(from)->Command(
      {"MIGRATE", "127.0.0.1", std::to_string(to), "", "0", "5000", "KEYS", key});
  ASSERT_TRUE(moved.ok()) << moved.status().message();
  SetSlotEverywhere(slot, to);
  // The client still thinks `from`: MOVED takes it to `to`, and it remembers.
  auto got = client_->Command({"GET", key});
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->str, "before");
  EXPECT_EQ(client_->Describe(key), "127.0.0.1:" + std::to_string(to));
  ASSERT_TRUE(client_->Command({"SET", key, "after"}).ok());
  EXPECT_EQ(Node(to)->Command({"GET", key})->str, "after");
}

TEST_F(ClusterTest, AMigratingSlotIsAskedAndASplitScriptWaitsForTheMigration) {
  const std::string a = "dq:{acct_ask}:a";
  const std::string b = "dq:{acct_ask}:b";
  const int slot = KeySlot(a);
  ASSERT_TRUE(client_->Command({"SET", a, "A"}).ok());
  ASSERT_TRUE(client_->Command({"SET", b, "B"}).ok());
  const int from = OwnerPort(slot);
  const int to = OtherMaster(from);
  EXPECT_TRUE(
      Node(to)->Command({"CLUSTER", "SETSLOT", std::to_string(slot), "IMPORTING", Id(from)}).ok());
  EXPECT_TRUE(
      Node(from)->Command({"CLUSTER", "SETSLOT", std::to_string(slot), "MIGRATING", Id(to)}).ok());
  ASSERT_TRUE(
      Node(from)
          ->Command({"MIGRATE", "127.0.0.1", std::to_string(to), "", "0", "5000", "KEYS", a})
          .ok());
  // a has moved: the source answers ASK, and the client asks the target with ASKING.
  auto got_a = client_->Command({"GET", a});
  ASSERT_TRUE(got_a.ok()) << got_a.status().message();
  EXPECT_EQ(got_a->str, "A");
  EXPECT_EQ(client_->Command({"GET", b})->str, "B");  // b has not: the source serves it
  // ASK does not change the table: the slot is still the source's until the migration ends.
  EXPECT_EQ(client_->Describe(a), "127.0.0.1:" + std::to_string(from));

  // A script over a and b: split between the two nodes, it gets TRYAGAIN, and is retried until
  // the migration ends, on another thread, once the source has answered TRYAGAIN 20 times (about
  // 3.5 s of pauses: more tries than the 16 the client once stopped at, within the timeout of
  // this client, 8 s; everything the end of the migration needs is made ready before, so that
  // it is four commands on open connections).
  const std::string to_id = Id(to);
  std::vector<std::unique_ptr<RedisClient>> masters;  // the new owner, the old, then the others
  masters.push_back(Node(to));
  masters.push_back(Node(from));
  for (const auto& r : Table()) {
    if (r.master.port != to && r.master.port != from) masters.push_back(Node(r.master.port));
  }
  auto source = Node(from);
  const int64_t refused_before = TryAgainAnswers(*source);
  std::thread finish([&] {
    EXPECT_TRUE(WaitFor([&] { return TryAgainAnswers(*source) >= refused_before + 20; },
                        std::chrono::seconds(30)))
        << "the source answered TRYAGAIN " << TryAgainAnswers(*source) - refused_before
        << " times, not 20";
    EXPECT_TRUE(
        masters[1]
            ->Command({"MIGRATE", "127.0.0.1", std::to_string(to), "", "0", "5000", "KEYS", b})
            .ok());
    for (const auto& m : masters) {
      EXPECT_TRUE(m->Command({"CLUSTER", "SETSLOT", std::to_string(slot), "NODE", to_id}).ok());
    }
  });
  RedisScript both("return redis.call('GET', KEYS[1]) .. redis.call('GET', KEYS[2])");
  RedisOptions patient = Options();
  patient.timeout = std::chrono::milliseconds(8000);
  RedisClient patient_client(patient);
  auto joined = patient_client.Eval(both, {a, b}, {});
  finish.join();
  ASSERT_TRUE(joined.ok()) << joined.status().message();
  EXPECT_EQ(joined->str, "AB");
  // The migration has ended: the slot's next command is answered MOVED, and the client learns
  // the new owner. (The script itself may have run through ASK, in the moment between b's move
  // and the source's SETSLOT, which teaches the client nothing.)
  EXPECT_EQ(client_->Command({"GET", a})->str, "A");
  EXPECT_EQ(client_->Describe(a), "127.0.0.1:" + std::to_string(to));
}

// The gateway and its workers on the cluster: an account, a key, an upload run to done, the
// quota counted once.
TEST_F(ClusterTest, TheGatewayRunsAJobOnTheCluster) {
  const int validator_port = FreePort();
  ChildProcess validator(DQ_VALIDATOR_BIN, {{"DQ_VALIDATOR_BIND", "127.0.0.1"},
                                            {"DQ_VALIDATOR_PORT", std::to_string(validator_port)},
                                            {"DQ_VALIDATOR_OPS_PORT", std::to_string(FreePort())}});
  ASSERT_TRUE(WaitFor([&] { return TcpConnects(validator_port); }, std::chrono::seconds(15)));
  const int port = FreePort();
  ChildProcess gateway(DQ_GATEWAY_BIN,
                       {{"DQ_GATEWAY_BIND", "127.0.0.1"},
                        {"DQ_GATEWAY_PORT", std::to_string(port)},
                        {"DQ_GATEWAY_OPS_PORT", std::to_string(FreePort())},
                        {"DQ_REDIS_CLUSTER", *seeds_},
                        {"DQ_REDIS_MIN_REPLICAS", "1"},
                        {"DQ_VALIDATOR_ADDR", "127.0.0.1:" + std::to_string(validator_port)},
                        {"DQ_SHUTDOWN_GRACE_MS", "0"}});
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  ASSERT_TRUE(
      WaitFor([&] { return Http("GET", url + "/readyz").status == 200; }, std::chrono::seconds(20)))
      << gateway.Log();
  RedisOptions o = Options();
  o.min_replicas = 1;
  RedisClient redis(o);
  RedisAccountStore accounts(redis, SystemClock::Instance());
  auto account = accounts.CreateAccount(Plan::kPro, "cluster");
  ASSERT_TRUE(account.ok()) << account.status().message();
  auto key = accounts.CreateKey(account->id);
  ASSERT_TRUE(key.ok()) << key.status().message();
  std::string csv = "sku,title,price\n";
  for (int r = 1; r <= 500; ++r) {
    csv += (r % 9 == 0 ? "" : "SKU-" + std::to_string(r)) + ",Mug,9.99\n";
  }
  HttpResult up = Http("POST", url + "/v1/jobs?filename=shop.csv",
                       {{"X-API-Key", key->api_key}, {"Content-Type", "text/csv"}}, csv);
  ASSERT_EQ(up.status, 202) << up.body;
  const std::string id = json::parse(up.body)["id"];
  json job;
  ASSERT_TRUE(WaitFor(
      [&] {
        job = json::parse(Http("GET", url + "/v1/jobs/" + id, {{"X-API-Key", key->api_key}}).body);
        return job["status"] == "done" || job["status"] == "failed";
      },
      std::chrono::seconds(60)))
      << gateway.Log();
  EXPECT_EQ(job["status"], "done");
  EXPECT_EQ(job["rows_total"], 500);
  int missing = 0;
  for (const auto& issue : job["issues"]) missing += issue["code"] == "MISSING_SKU" ? 1 : 0;
  EXPECT_EQ(missing, 55);  // every 9th row has no SKU
  auto used = redis.Command(
      {"GET", AccountKey(account->id, "quota:" + FormatYearMonth(SystemClock::Instance().Now()))});
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(used->str, "500");
  EXPECT_EQ(gateway.Log().find("CROSSSLOT"), std::string::npos);
}

}  // namespace
}  // namespace dq::testing
