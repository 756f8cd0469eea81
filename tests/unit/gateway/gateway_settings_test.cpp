// BindGatewaySettings: the validated settings table becomes the gateway's typed struct.
#include "gateway_settings.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace dq::gateway {
namespace {

Result<GatewaySettings> Bind(std::map<std::string, std::string> env) {
  auto table = Settings::Load(kGateway, env);
  if (!table.ok()) return table.status();
  return BindGatewaySettings(*table);
}

TEST(GatewaySettingsTest, BindsTheTableIntoFields) {
  auto g = Bind({{"DQ_REDIS_HOST", "redis.internal"},
                 {"DQ_REDIS_PORT", "6380"},
                 {"DQ_GATEWAY_PORT", "8081"},
                 {"DQ_WORKERS", "3"},
                 {"DQ_MAX_RECORDS", "250"},
                 {"DQ_JOB_CLAIM_IDLE_MS", "60000"},
                 {"DQ_QUOTA_FREE", "123"}});
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->role, Role::kAll);
  EXPECT_EQ(g->redis.host, "redis.internal");
  EXPECT_EQ(g->redis.port, 6380);
  EXPECT_EQ(g->http.port, 8081);
  EXPECT_EQ(g->workers.threads, 3);
  EXPECT_EQ(g->workers.claim_idle, std::chrono::milliseconds(60000));
  EXPECT_EQ(g->workers.heartbeat, std::chrono::milliseconds(10000));
  EXPECT_EQ(g->api.max_records, 250u);
  EXPECT_EQ(g->quota.free, 123);
  EXPECT_FALSE(g->limiter_redis.has_value());
}

TEST(GatewaySettingsTest, KeptUploadsAreSettings) {
  auto defaults = Bind({});
  ASSERT_TRUE(defaults.ok()) << defaults.status().message();
  EXPECT_EQ(defaults->jobs.kept_upload_minutes, 15);
  EXPECT_EQ(defaults->store.kept_upload_ttl, std::chrono::seconds(900));
  EXPECT_EQ(defaults->store.max_kept_uploads, 2);

  auto g = Bind({{"DQ_KEPT_UPLOAD_MINUTES", "60"}, {"DQ_KEPT_UPLOADS_PER_ACCOUNT", "5"}});
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->jobs.kept_upload_minutes, 60);
  EXPECT_EQ(g->store.kept_upload_ttl, std::chrono::seconds(3600));
  EXPECT_EQ(g->store.max_kept_uploads, 5);

  auto zero = Bind({{"DQ_KEPT_UPLOADS_PER_ACCOUNT", "0"}});
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.status().message().find("DQ_KEPT_UPLOADS_PER_ACCOUNT"), std::string::npos)
      << zero.status().message();
}

TEST(GatewaySettingsTest, TheApiRoleRunsNoWorkersWhateverDqWorkersSays) {
  auto g = Bind({{"DQ_ROLE", "api"}, {"DQ_WORKERS", "8"}});
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->role, Role::kApi);
  EXPECT_EQ(g->workers.threads, 0);
}

TEST(GatewaySettingsTest, AWorkerWithNoWorkersIsRefused) {
  auto g = Bind({{"DQ_ROLE", "worker"}, {"DQ_WORKERS", "0"}});
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(g.status().message(), "DQ_ROLE=worker needs DQ_WORKERS of at least 1");
}

TEST(GatewaySettingsTest, AnUnknownRoleIsRefusedNamingTheSetting) {
  auto g = Bind({{"DQ_ROLE", "both"}});
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().message(), "DQ_ROLE is \"both\"; use api, worker or all.");
}

TEST(GatewaySettingsTest, RateLimitCountersMayLiveInARedisOfTheirOwn) {
  auto port_only = Bind({{"DQ_REDIS_HOST", "main"}, {"DQ_RATE_LIMIT_REDIS_PORT", "6390"}});
  ASSERT_TRUE(port_only.ok()) << port_only.status().message();
  ASSERT_TRUE(port_only->limiter_redis.has_value());
  EXPECT_EQ(port_only->limiter_redis->host, "main");
  EXPECT_EQ(port_only->limiter_redis->port, 6390);

  auto host_only = Bind({{"DQ_RATE_LIMIT_REDIS_HOST", "counters"}});
  ASSERT_TRUE(host_only.ok()) << host_only.status().message();
  ASSERT_TRUE(host_only->limiter_redis.has_value());
  EXPECT_EQ(host_only->limiter_redis->host, "counters");
  EXPECT_EQ(host_only->limiter_redis->port, host_only->redis.port);
}

TEST(GatewaySettingsTest, TheEdgeAcceptsTheLargestBodyOfAnyRoutePlusTheMultipartEnvelope) {
  auto g = Bind({{"DQ_MAX_BODY_BYTES", "2048"}, {"DQ_UPLOAD_MAX_BYTES", "4096"}});
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->http.limits.max_request_body, 4096u + (1u << 20));
  auto h = Bind({{"DQ_MAX_BODY_BYTES", "8192"}, {"DQ_UPLOAD_MAX_BYTES", "4096"}});
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->http.limits.max_request_body, 8192u + (1u << 20));
}

}  // namespace
}  // namespace dq::gateway
