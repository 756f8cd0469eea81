#include "auth/authenticator.h"

#include <gtest/gtest.h>

#include "dq/testing/in_memory_account_store.h"

namespace dq::gateway {
namespace {

http::HttpRequest WithHeaders(std::map<std::string, std::string, std::less<>> h) {
  http::HttpRequest r;
  r.headers = std::move(h);
  return r;
}

TEST(ExtractApiKeyTest, ReadsEitherHeader) {
  EXPECT_EQ(ExtractApiKey(WithHeaders({{"x-api-key", "dq_abc"}})), "dq_abc");
  EXPECT_EQ(ExtractApiKey(WithHeaders({{"authorization", "Bearer dq_abc"}})), "dq_abc");
  EXPECT_EQ(ExtractApiKey(WithHeaders({{"authorization", "bearer   dq_abc  "}})), "dq_abc");
  EXPECT_EQ(ExtractApiKey(WithHeaders({{"x-api-key", "dq_a"}, {"authorization", "Bearer dq_b"}})),
            "dq_a");
}

TEST(ExtractApiKeyTest, NoUsableKey) {
  EXPECT_FALSE(ExtractApiKey(WithHeaders({})).has_value());
  EXPECT_FALSE(ExtractApiKey(WithHeaders({{"x-api-key", "  "}})).has_value());
  EXPECT_FALSE(ExtractApiKey(WithHeaders({{"authorization", "Basic dXNlcjpwYXNz"}})).has_value());
  EXPECT_FALSE(ExtractApiKey(WithHeaders({{"authorization", "Bearer "}})).has_value());
}

class AuthenticatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    account_ = *store_.CreateAccount(Plan::kPro, "acme");
    key_ = *store_.CreateKey(account_.id);
  }
  testing::InMemoryAccountStore store_;
  Authenticator auth_{store_};
  Account account_;
  CreatedKey key_;
};

TEST_F(AuthenticatorTest, ValidKeyIdentifiesTheAccount) {
  auto p = auth_.Authenticate(WithHeaders({{"x-api-key", key_.api_key}}));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->account.id, account_.id);
  EXPECT_EQ(p->key_id, key_.key_id);
}

TEST_F(AuthenticatorTest, MissingKey) {
  EXPECT_EQ(auth_.Authenticate(WithHeaders({})).status().code(), ErrorCode::kApiKeyRequired);
}

TEST_F(AuthenticatorTest, MalformedUnknownAndRevokedKeysAreInvalid) {
  EXPECT_EQ(auth_.Authenticate(WithHeaders({{"x-api-key", "nope"}})).status().code(),
            ErrorCode::kInvalidApiKey);
  EXPECT_EQ(auth_.Authenticate(WithHeaders({{"x-api-key", NewApiKey()}})).status().code(),
            ErrorCode::kInvalidApiKey);
  ASSERT_TRUE(store_.RevokeKey(account_.id, key_.key_id).ok());
  EXPECT_EQ(auth_.Authenticate(WithHeaders({{"x-api-key", key_.api_key}})).status().code(),
            ErrorCode::kInvalidApiKey);
}

TEST_F(AuthenticatorTest, StoreOutageIsUnavailableNotUnauthorised) {
  store_.SetUnavailable(true);
  EXPECT_EQ(auth_.Authenticate(WithHeaders({{"x-api-key", key_.api_key}})).status().code(),
            ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace dq::gateway
