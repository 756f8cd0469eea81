// Redis Cluster's routing rules, without a server: CRC16 and hash tags (the specification's
// values), MOVED/ASK parsing, the routing key of each command shape, the slot-table replies, the
// address lists of DQ_REDIS_SENTINELS and DQ_REDIS_CLUSTER, and the client refusing a script
// whose keys span slots before it sends anything.
#include "dq/common/redis_slots.h"

#include <gtest/gtest.h>

#include "dq/common/redis_client.h"
#include "dq/common/settings.h"

namespace dq {
namespace {

TEST(RedisSlotsTest, Crc16IsXmodem) {
  EXPECT_EQ(Crc16("123456789"), 0x31C3);  // the cluster specification's check value
  EXPECT_EQ(Crc16(""), 0);
}

TEST(RedisSlotsTest, KnownSlots) {
  // Values from redis-cli CLUSTER KEYSLOT on Redis 7.0.
  EXPECT_EQ(KeySlot("foo"), 12182);
  EXPECT_EQ(KeySlot("bar"), 5061);
  EXPECT_EQ(KeySlot("dq:jobs:queue"), KeySlot("dq:jobs:queue"));
  EXPECT_EQ(KeySlot("123456789"), 0x31C3 % 16384);
}

struct TagCase {
  const char* name;
  const char* key;
  const char* hashed;
};

TEST(RedisSlotsTest, HashTagRules) {
  const TagCase cases[] = {
      {"no braces", "dq:accounts", "dq:accounts"},
      {"a tag", "dq:{acct_1}:jobs", "acct_1"},
      {"the first tag only", "{a}{b}", "a"},
      {"an empty tag hashes the whole key", "dq:{}:x", "dq:{}:x"},
      {"an open brace without a close", "dq:{acct", "dq:{acct"},
      {"the first close after the first open", "x{a}b}c", "a"},
      {"a close before the open does not count", "}x{y}", "y"},
      {"an empty first tag, then another", "{}{a}", "{}{a}"},
      {"braces inside the tag", "{{a}}", "{a"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(HashTagOf(c.key), c.hashed) << c.name;
    EXPECT_EQ(KeySlot(c.key), Crc16(c.hashed) % 16384) << c.name;
  }
  EXPECT_EQ(KeySlot("dq:{acct_1}:job:9"), KeySlot("dq:{acct_1}:quota:202611"));
  EXPECT_EQ(KeySlot(AccountKey("acct_7", "jobs")), KeySlot("acct_7"));
}

TEST(RedisSlotsTest, ParsesMovedAndAsk) {
  auto moved = ParseRedirect("MOVED 3999 127.0.0.1:6381");
  ASSERT_TRUE(moved.has_value());
  EXPECT_EQ(moved->kind, Redirect::Kind::kMoved);
  EXPECT_EQ(moved->slot, 3999);
  EXPECT_EQ(moved->host, "127.0.0.1");
  EXPECT_EQ(moved->port, 6381);

  auto ask = ParseRedirect("ASK 16383 10.0.0.2:7002");
  ASSERT_TRUE(ask.has_value());
  EXPECT_EQ(ask->kind, Redirect::Kind::kAsk);
  EXPECT_EQ(ask->slot, 16383);
  EXPECT_EQ(ask->host, "10.0.0.2");
  EXPECT_EQ(ask->port, 7002);

  auto v6 = ParseRedirect("MOVED 0 [::1]:7000");
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->host, "::1");
  auto bare_v6 = ParseRedirect("MOVED 0 ::1:7000");
  ASSERT_TRUE(bare_v6.has_value());
  EXPECT_EQ(bare_v6->host, "::1");
  EXPECT_EQ(bare_v6->port, 7000);
  auto no_host = ParseRedirect("MOVED 12 :7000");  // a node that does not know its address
  ASSERT_TRUE(no_host.has_value());
  EXPECT_EQ(no_host->host, "");

  for (const char* bad :
       {"MOVED", "MOVED 3999", "MOVED x 1.2.3.4:1", "MOVED 16384 h:1", "MOVED -1 h:1", "MOVED 1 h",
        "MOVED 1 h:0", "MOVED 1 h:70000", "ASK 1 h:x", "ERR wrong number", "TRYAGAIN Multiple keys",
        "moved 1 h:1"}) {
    EXPECT_FALSE(ParseRedirect(bad).has_value()) << bad;
  }
}

TEST(RedisSlotsTest, RetryableAndNotMasterErrors) {
  for (const char* e :
       {"TRYAGAIN Multiple keys request during rehashing of slot",
        "CLUSTERDOWN The cluster is down", "LOADING Redis is loading",
        "READONLY You can't write against a read only replica.",
        "MASTERDOWN Link with MASTER is down", "NOREPLICAS Not enough good replicas",
        "BUSY Redis is busy running a script."}) {
    EXPECT_TRUE(IsRetryableError(e)) << e;
  }
  for (const char* e : {"ERR unknown command", "WRONGTYPE Operation against a key",
                        "NOSCRIPT No matching script", "CROSSSLOT Keys in request don't hash",
                        "MOVED 1 h:1", "BUSYGROUP Consumer Group name already exists"}) {
    EXPECT_FALSE(IsRetryableError(e)) << e;
  }
  EXPECT_TRUE(IsNotMasterError("READONLY You can't write"));
  EXPECT_TRUE(IsNotMasterError("MASTERDOWN Link with MASTER is down"));
  EXPECT_FALSE(IsNotMasterError("TRYAGAIN"));
}

TEST(RedisSlotsTest, RoutingKeyOfEachCommandShape) {
  using Argv = std::vector<std::string>;
  EXPECT_EQ(RoutingKey(Argv{"GET", "k"}), "k");
  EXPECT_EQ(RoutingKey(Argv{"hset", "h", "f", "v"}), "h");
  EXPECT_EQ(RoutingKey(Argv{"XREADGROUP", "GROUP", "g", "c", "COUNT", "1", "BLOCK", "10", "STREAMS",
                            "dq:{q3}:jobs", ">"}),
            "dq:{q3}:jobs");
  EXPECT_EQ(RoutingKey(Argv{"XREAD", "STREAMS", "a", "b", "0", "0"}), "a");
  EXPECT_EQ(RoutingKey(Argv{"XGROUP", "CREATE", "s", "g", "0", "MKSTREAM"}), "s");
  EXPECT_EQ(RoutingKey(Argv{"XINFO", "GROUPS", "s"}), "s");
  EXPECT_EQ(RoutingKey(Argv{"EVALSHA", "abc", "2", "k1", "k2", "arg"}), "k1");
  EXPECT_FALSE(RoutingKey(Argv{"EVALSHA", "abc", "0", "arg"}).has_value());
  for (const char* keyless : {"PING", "WAIT", "ROLE", "INFO", "CLUSTER", "SCRIPT"}) {
    EXPECT_FALSE(RoutingKey(Argv{keyless, "x"}).has_value()) << keyless;
  }
  EXPECT_EQ(CommandKeys(Argv{"DEL", "a", "b"}), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_EQ(CommandKeys(Argv{"XREAD", "COUNT", "2", "STREAMS", "a", "b", "0", "0"}),
            (std::vector<std::string_view>{"a", "b"}));
  EXPECT_EQ(CommandKeys(Argv{"EVAL", "s", "2", "k1", "k2", "a"}),
            (std::vector<std::string_view>{"k1", "k2"}));
}

RedisReply Str(std::string s) {
  RedisReply r;
  r.type = RedisReply::Type::kString;
  r.str = std::move(s);
  return r;
}
RedisReply Int(int64_t v) {
  RedisReply r;
  r.type = RedisReply::Type::kInteger;
  r.integer = v;
  return r;
}
RedisReply Arr(std::vector<RedisReply> e) {
  RedisReply r;
  r.type = RedisReply::Type::kArray;
  r.elements = std::move(e);
  return r;
}
RedisReply Node(const char* role, const char* ip, int port, const char* health,
                const char* endpoint = nullptr) {
  return Arr({Str("id"), Str("abc"), Str("port"), Int(port), Str("ip"), Str(ip), Str("endpoint"),
              Str(endpoint ? endpoint : ip), Str("role"), Str(role), Str("replication-offset"),
              Int(42), Str("health"), Str(health)});
}

TEST(RedisSlotsTest, ParsesClusterShards) {
  RedisReply shards = Arr({
      Arr({Str("slots"), Arr({Int(0), Int(5460)}), Str("nodes"),
           Arr({Node("replica", "127.0.0.1", 7004, "online"),
                Node("master", "127.0.0.1", 7001, "online")})}),
      Arr({Str("slots"), Arr({Int(5461), Int(10000), Int(10002), Int(10922)}), Str("nodes"),
           Arr({Node("master", "127.0.0.1", 7002, "fail"),
                Node("master", "127.0.0.1", 7005, "online", "?")})}),
      Arr({Str("slots"), Arr({Int(10001), Int(10001)}), Str("nodes"), Arr({})}),
  });
  auto ranges = ParseClusterShards(shards, {"seed", 7000});
  ASSERT_TRUE(ranges.ok()) << ranges.status().message();
  ASSERT_EQ(ranges->size(), 3u);
  EXPECT_EQ((*ranges)[0].first, 0);
  EXPECT_EQ((*ranges)[0].last, 5460);
  EXPECT_EQ((*ranges)[0].master.Text(), "127.0.0.1:7001");
  // A failed master is skipped; an endpoint "?" falls back to the ip.
  EXPECT_EQ((*ranges)[1].master.Text(), "127.0.0.1:7005");
  EXPECT_EQ((*ranges)[2].first, 10002);
  EXPECT_EQ((*ranges)[2].last, 10922);

  RedisReply bad = Arr({Arr({Str("slots"), Arr({Int(5), Int(16384)}), Str("nodes"),
                             Arr({Node("master", "h", 1, "online")})})});
  EXPECT_EQ(ParseClusterShards(bad, {"seed", 7000}).status().message(),
            "unexpected cluster slot table: a slot range out of bounds");
  EXPECT_FALSE(ParseClusterShards(Str("x"), {"seed", 7000}).ok());
}

TEST(RedisSlotsTest, ParsesClusterSlots) {
  RedisReply slots = Arr({
      Arr({Int(0), Int(8191), Arr({Str("10.0.0.1"), Int(7000), Str("id1")}),
           Arr({Str("10.0.0.4"), Int(7003), Str("id4")})}),
      Arr({Int(8192), Int(16383), Arr({Str(""), Int(7001), Str("id2")})}),
  });
  auto ranges = ParseClusterSlots(slots, {"seed.example", 7000});
  ASSERT_TRUE(ranges.ok());
  ASSERT_EQ(ranges->size(), 2u);
  EXPECT_EQ((*ranges)[0].master.Text(), "10.0.0.1:7000");
  EXPECT_EQ((*ranges)[1].master.Text(), "seed.example:7001");  // empty host: the one asked
  EXPECT_FALSE(ParseClusterSlots(Arr({Arr({Int(0), Int(1)})}), {"s", 1}).ok());
}

TEST(RedisSlotsTest, AddressLists) {
  auto list = ParseRedisAddresses("10.0.0.1:26379, sentinel-2:26380,[::1]:26381");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[0].Text(), "10.0.0.1:26379");
  EXPECT_EQ((*list)[1].Text(), "sentinel-2:26380");
  EXPECT_EQ((*list)[2].host, "::1");
  EXPECT_TRUE(ParseRedisAddresses("")->empty());
  EXPECT_EQ(ParseRedisAddresses("h:1,h2").status().message(), "\"h2\" is not host:port");
  EXPECT_EQ(ParseRedisAddresses("h:0").status().message(), "\"h:0\" is not host:port");
  EXPECT_EQ(ParseRedisAddresses(":26379").status().message(), "\":26379\" is not host:port");
  EXPECT_EQ(ParseRedisAddresses("h:99999").status().message(), "\"h:99999\" is not host:port");
}

TEST(RedisSlotsTest, SettingsPickTheMode) {
  auto load = [](std::map<std::string, std::string> env) {
    auto s = Settings::Load(kGateway, env);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return RedisOptionsFromSettings(*s);
  };
  auto plain = load({});
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->sentinels.empty());
  EXPECT_TRUE(plain->cluster.empty());
  EXPECT_EQ(plain->min_replicas, 0);
  EXPECT_EQ(plain->master_name, "dq");

  auto sentinel = load({{"DQ_REDIS_SENTINELS", "127.0.0.1:26379,127.0.0.1:26380"},
                        {"DQ_REDIS_MIN_REPLICAS", "1"},
                        {"DQ_REDIS_WAIT_TIMEOUT_MS", "250"}});
  ASSERT_TRUE(sentinel.ok());
  EXPECT_EQ(sentinel->sentinels.size(), 2u);
  EXPECT_EQ(sentinel->min_replicas, 1);
  EXPECT_EQ(sentinel->wait_timeout.count(), 250);

  EXPECT_EQ(load({{"DQ_REDIS_SENTINELS", "nope"}}).status().message(),
            "DQ_REDIS_SENTINELS: \"nope\" is not host:port");
  EXPECT_EQ(load({{"DQ_REDIS_CLUSTER", "a:1,b"}}).status().message(),
            "DQ_REDIS_CLUSTER: \"b\" is not host:port");
  EXPECT_EQ(load({{"DQ_REDIS_SENTINELS", "a:1"}, {"DQ_REDIS_CLUSTER", "b:2"}}).status().message(),
            "DQ_REDIS_SENTINELS and DQ_REDIS_CLUSTER are both set; use one");
}

// A script whose keys are in two slots is refused before anything is sent: the port is closed,
// so any attempt to send would answer kUnavailable instead.
TEST(RedisSlotsTest, TheClientRefusesAScriptAcrossSlots) {
  RedisOptions o;
  o.port = 1;  // nothing listens there
  RedisClient client(o);
  RedisScript script("return 1");
  auto r = client.Eval(script, {"dq:{acct_1}:job:1", "dq:jobs:queue"}, {});
  EXPECT_EQ(r.status().code(), ErrorCode::kInternal);
  EXPECT_EQ(r.status().message(),
            "CROSSSLOT: EVALSHA keys dq:{acct_1}:job:1 and dq:jobs:queue are in different slots");
  auto same = client.Eval(script, {"dq:{acct_1}:job:1", "dq:{acct_1}:jobs"}, {});
  EXPECT_EQ(same.status().code(), ErrorCode::kUnavailable);  // it was sent (and found nobody)
  auto del = client.Command({"DEL", "dq:{a}:x", "dq:{b}:x"});
  EXPECT_EQ(del.status().code(), ErrorCode::kInternal);
}

}  // namespace
}  // namespace dq
