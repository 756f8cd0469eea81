#include "dq/common/crypto.h"

#include <gtest/gtest.h>

#include <vector>

#include <regex>
#include <set>

#include "dq/common/account_store.h"

namespace dq {
namespace {

TEST(CryptoTest, Sha256KnownAnswers) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(CryptoTest, HmacSha256Rfc4231Case2) {
  EXPECT_EQ(HmacSha256Hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(CryptoTest, ConstantTimeEqualsComparesContentAndLength) {
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abcd"));
}

TEST(CryptoTest, RandomBase62HasLengthAlphabetAndVariety) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string s = RandomBase62(40);
    ASSERT_EQ(s.size(), 40u);
    for (char c : s) ASSERT_TRUE(std::isalnum(static_cast<unsigned char>(c))) << s;
    seen.insert(s);
  }
  EXPECT_EQ(seen.size(), 100u);
}

TEST(CryptoTest, UuidV4IsCanonical) {
  const std::regex uuid("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(std::regex_match(NewUuidV4(), uuid));
}

TEST(ApiKeyTest, NewKeysHaveTheDocumentedShape) {
  const std::string key = NewApiKey();
  EXPECT_EQ(key.size(), 43u);
  EXPECT_EQ(key.substr(0, 3), "dq_");
  EXPECT_TRUE(LooksLikeApiKey(key));
  EXPECT_FALSE(LooksLikeApiKey("dq_short"));
  EXPECT_FALSE(LooksLikeApiKey("xx_" + key.substr(3)));
  EXPECT_FALSE(LooksLikeApiKey(key.substr(0, 42) + "!"));
}

TEST(PlanTest, OnlyFreeLacksApiAccess) {
  EXPECT_FALSE(PlanHasApiAccess(Plan::kFree));
  EXPECT_TRUE(PlanHasApiAccess(Plan::kPro));
  EXPECT_TRUE(PlanHasApiAccess(Plan::kBusiness));
  EXPECT_TRUE(PlanHasApiAccess(Plan::kAgency));
  EXPECT_EQ(ParsePlan("agency"), Plan::kAgency);
  EXPECT_FALSE(ParsePlan("enterprise").has_value());
}

TEST(CryptoTest, Base64RoundTripAndStrictDecoding) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  std::string out;
  for (const std::string& s : std::vector<std::string>{"", "f", "fo", "foo", std::string("\0\xff\x10", 3)}) {
    ASSERT_TRUE(Base64Decode(Base64Encode(s), &out)) << s;
    EXPECT_EQ(out, s);
  }
  EXPECT_FALSE(Base64Decode("Zg=", &out));
  EXPECT_FALSE(Base64Decode("Z===", &out));
  EXPECT_FALSE(Base64Decode("Zm 9", &out));
  EXPECT_FALSE(Base64Decode("=Zm9", &out));
  EXPECT_EQ(RandomBytes(32).size(), 32u);
  EXPECT_NE(RandomBytes(16), RandomBytes(16));
  EXPECT_EQ(HmacSha256("k", "d").size(), 32u);
}

}  // namespace
}  // namespace dq
