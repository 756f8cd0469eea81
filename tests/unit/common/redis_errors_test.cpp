// What a caller reads when Redis cannot take a command: one of two public messages, never Redis's
// own text (issue 34: "raw Redis text never reaches a message"). The full-Redis path against a
// real redis-server is tests/integration/redis_full.
#include <gtest/gtest.h>

#include "dq/common/redis_client.h"

namespace dq {
namespace {

TEST(RedisErrorsTest, OomRepliesReadAsAFullRedis) {
  EXPECT_TRUE(IsRedisFull("OOM command not allowed when used memory > 'maxmemory'."));
  EXPECT_TRUE(IsRedisFull(
      "ERR Error running script (call to f_1234): @user_script:20: @user_script: 20: -OOM "
      "command not allowed when used memory > 'maxmemory'."));
  EXPECT_TRUE(IsRedisFull("script: 62142936, on @user_script:20: OOM command not allowed"));
  EXPECT_FALSE(IsRedisFull("LOADING Redis is loading the dataset in memory"));
  EXPECT_FALSE(IsRedisFull("READONLY You can't write against a read only replica."));
  EXPECT_FALSE(IsRedisFull("ERR unknown command 'ROOM'"));
}

TEST(RedisErrorsTest, AnUnreachableRedisIsThePublicMessageNotTheSocketError) {
  RedisOptions o;
  o.host = "127.0.0.1";
  o.port = 1;  // nothing listens on port 1
  o.timeout = std::chrono::milliseconds(200);
  RedisClient redis(o);
  auto r = redis.Command({"GET", "dq:x"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(r.status().message(), kRedisDownMessage);
  EXPECT_FALSE(redis.AcceptsWrites());
  EXPECT_FALSE(redis.Ping());
}

}  // namespace
}  // namespace dq
