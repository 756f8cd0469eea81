// Authentication through the real gateway: every case of the spec and docs/api.md.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dq/common/crypto.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

class AuthIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{1, false, {{"DQ_RATE_LIMIT_ANONYMOUS", "100000"}}});
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }
  static HttpResult Usage(std::map<std::string, std::string> headers) {
    return Http("GET", stack_->GatewayUrl() + "/v1/usage", headers);
  }
  static std::string Error(const HttpResult& r) { return json::parse(r.body)["error"]; }
  static Stack* stack_;
};
Stack* AuthIntegrationTest::stack_ = nullptr;

TEST_F(AuthIntegrationTest, NoKeyIs401ApiKeyRequired) {
  HttpResult r = Usage({});
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(Error(r), "api_key_required");
  EXPECT_EQ(r.Header("content-type"), "application/json");
  EXPECT_FALSE(r.Header("x-ratelimit-limit").empty());
}

TEST_F(AuthIntegrationTest, BothHeaderFormsWork) {
  auto [id, key] = stack_->NewAccount();
  EXPECT_EQ(Usage({{"X-API-Key", key}}).status, 200);
  EXPECT_EQ(Usage({{"Authorization", "Bearer " + key}}).status, 200);
  EXPECT_EQ(json::parse(Usage({{"X-API-Key", key}}).body)["account_id"], id);
}

TEST_F(AuthIntegrationTest, InvalidKeyIs401InvalidApiKey) {
  for (const std::string& bad : {std::string("nope"), NewApiKey()}) {
    HttpResult r = Usage({{"X-API-Key", bad}});
    EXPECT_EQ(r.status, 401);
    EXPECT_EQ(Error(r), "invalid_api_key");
  }
  HttpResult bearer = Usage({{"Authorization", "Bearer " + NewApiKey()}});
  EXPECT_EQ(Error(bearer), "invalid_api_key");
}

TEST_F(AuthIntegrationTest, RevocationTakesEffectOnTheNextRequest) {
  auto [id, key] = stack_->NewAccount();
  auto second = stack_->accounts().CreateKey(id);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(Usage({{"X-API-Key", second->api_key}}).status, 200);
  ASSERT_TRUE(stack_->accounts().RevokeKey(id, second->key_id).ok());
  HttpResult r = Usage({{"X-API-Key", second->api_key}});
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(Error(r), "invalid_api_key");
  // The account's other key is unaffected (rotation).
  EXPECT_EQ(Usage({{"X-API-Key", key}}).status, 200);
}

TEST_F(AuthIntegrationTest, KeysAreStoredOnlyAsDigests) {
  auto [id, key] = stack_->NewAccount();
  const std::string dump = stack_->redis().Cli({"--no-raw", "KEYS", "*"});
  EXPECT_EQ(dump.find(key), std::string::npos);
  EXPECT_NE(stack_->redis().Cli({"GET", "dq:apikey:" + Sha256Hex(key)}).find(id),
            std::string::npos);
}

TEST_F(AuthIntegrationTest, FreePlanIs403ProRequiredAndUpgradeUnlocks) {
  auto [id, key] = stack_->NewAccount(Plan::kFree);
  HttpResult r = Usage({{"X-API-Key", key}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(Error(r), "pro_required");
  for (Plan p : {Plan::kPro, Plan::kBusiness, Plan::kAgency}) {
    ASSERT_TRUE(stack_->accounts().SetPlan(id, p).ok());
    EXPECT_EQ(Usage({{"X-API-Key", key}}).status, 200) << PlanName(p);
  }
}

}  // namespace
}  // namespace dq::testing
