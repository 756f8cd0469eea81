// Known answers: RFC 4231 test cases 1-4, 6 and 7 (HMAC-SHA256). Case 5 (truncated output) does
// not apply to a full-length signature.
#include "dq/webhook/signer.h"

#include <gtest/gtest.h>

#include <map>

#include "dq/webhook/delivery.h"
#include "dq/common/crypto.h"

namespace dq::webhook {
namespace {

struct Vector {
  const char* name;
  std::string key;
  std::string data;
  const char* hmac_sha256;
};

std::string Bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s.push_back(static_cast<char>(v));
  return s;
}

std::vector<Vector> Rfc4231() {
  std::string key4;
  for (int i = 1; i <= 25; ++i) key4.push_back(static_cast<char>(i));
  return {
      {"case1", std::string(20, '\x0b'), "Hi There",
       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
      {"case2", "Jefe", "what do ya want for nothing?",
       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
      {"case3", std::string(20, '\xaa'), std::string(50, '\xdd'),
       "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
      {"case4", key4, std::string(50, '\xcd'),
       "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
      {"case6", std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First",
       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
      {"case7", std::string(131, '\xaa'),
       "This is a test using a larger than block-size key and a larger than block-size data. "
       "The key needs to be hashed before being used by the HMAC algorithm.",
       "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
  };
}

TEST(SignerTest, Rfc4231KnownAnswers) {
  for (const auto& v : Rfc4231()) {
    SCOPED_TRACE(v.name);
    auto header = SignatureHeaderValue(v.data, v.key);
    ASSERT_TRUE(header.has_value());
    EXPECT_EQ(*header, std::string("sha256=") + v.hmac_sha256);
    EXPECT_TRUE(VerifySignature(v.data, v.key, *header));
  }
}

TEST(SignerTest, NoSecretMeansNoSignature) {
  EXPECT_FALSE(SignatureHeaderValue("{}", "").has_value());
  EXPECT_FALSE(VerifySignature("{}", "", "sha256="));
}

TEST(SignerTest, HexIsLowercaseAnd64Characters) {
  auto header = SignatureHeaderValue(R"({"event":"job.complete"})", "s3cret");
  ASSERT_TRUE(header.has_value());
  ASSERT_EQ(header->size(), 7u + 64u);
  for (char c : header->substr(7)) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
}

TEST(SignerTest, AnyChangedByteOrWrongSecretFails) {
  const std::string body = R"({"event":"job.complete","rows":3})";
  const std::string header = *SignatureHeaderValue(body, "k");
  EXPECT_FALSE(VerifySignature(R"({"event":"job.complete","rows":4})", "k", header));
  EXPECT_FALSE(VerifySignature(body + " ", "k", header));
  EXPECT_FALSE(VerifySignature(body, "K", header));
  EXPECT_FALSE(VerifySignature(body, "k", "sha256=" + std::string(64, '0')));
  EXPECT_FALSE(VerifySignature(body, "k", header.substr(7)));  // without the prefix
}

// What a receiver does with what we send: recompute over the received bytes, compare in
// constant time.
TEST(SignerTest, ReceiverConstantTimeCheckPassesOnTheExactBytesSent) {
  Event e;
  e.type = "job.complete";
  e.delivery_id = "5f0c6c1e-9d8a-4f7e-8a59-0c1f2d3e4b5a";
  e.payload = Bytes({'{', '"', 'a', '"', ':', '"', 0xc3, 0xa9, '"', '}'});  // non-ASCII bytes
  const HttpPost post = BuildDelivery(e, "https://example.com/hook", "whsec_123");
  std::string received_signature;
  for (const auto& [name, value] : post.headers) {
    if (name == kSignatureHeader) received_signature = value;
  }
  ASSERT_FALSE(received_signature.empty());
  const std::string expected = "sha256=" + HmacSha256Hex("whsec_123", post.body);
  EXPECT_TRUE(ConstantTimeEquals(expected, received_signature));
  EXPECT_EQ(post.body, e.payload);  // the bytes are sent unchanged
}

}  // namespace
}  // namespace dq::webhook

namespace dq::webhook {
namespace {

// The Standard Webhooks specification's own example (standard-webhooks/spec, "Verifying
// webhooks"): same secret, id, timestamp and body give the published signature.
TEST(StandardSignatureTest, MatchesThePublishedExample) {
  const auto sig = StandardSignature("msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330",
                                     R"({"test": 2432232314})",
                                     "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
  ASSERT_TRUE(sig.has_value());
  EXPECT_EQ(*sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

TEST(StandardSignatureTest, OnlyForWhsecSecrets) {
  EXPECT_FALSE(StandardSignature("id", "1", "{}", "plain-secret").has_value());
  EXPECT_FALSE(StandardSignature("id", "1", "{}", "whsec_not base64!").has_value());
  EXPECT_FALSE(StandardSignature("id", "1", "{}", "whsec_").has_value());
}

TEST(StandardSignatureTest, NewSecretsAreWhsecAndThirtyTwoRandomBytes) {
  const std::string a = NewStandardSecret();
  const std::string b = NewStandardSecret();
  ASSERT_EQ(a.rfind("whsec_", 0), 0u);
  std::string raw;
  ASSERT_TRUE(Base64Decode(a.substr(6), &raw));
  EXPECT_EQ(raw.size(), 32u);
  EXPECT_NE(a, b);
}

TEST(StandardSignatureTest, DeliveryCarriesTheThreeHeadersForWhsecSecrets) {
  Event e;
  e.type = "job.complete";
  e.delivery_id = "d-1";
  e.payload = R"({"a":1})";
  const std::string secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const HttpPost post = BuildDelivery(e, "https://example.com/h", secret, 1700000000);
  std::map<std::string, std::string> h(post.headers.begin(), post.headers.end());
  EXPECT_EQ(h["webhook-id"], "d-1");
  EXPECT_EQ(h["webhook-timestamp"], "1700000000");
  EXPECT_EQ(h["webhook-signature"], *StandardSignature("d-1", "1700000000", post.body, secret));
  EXPECT_EQ(h["X-Service-Signature"], "sha256=" + HmacSha256Hex(secret, post.body));
  const HttpPost plain = BuildDelivery(e, "https://example.com/h", "plain", 1700000000);
  for (const auto& [name, value] : plain.headers) EXPECT_NE(name, "webhook-signature");
}

}  // namespace
}  // namespace dq::webhook
