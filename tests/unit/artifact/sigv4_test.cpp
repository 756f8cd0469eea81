// SigV4 against published known answers:
// - AWS's "Signature Version 4 test suite" (AWS General Reference; the files as mirrored in
//   bazelbuild/bazel, third_party/aws-sig-v4-test-suite/<name>/<name>.{req,creq,sts,authz}):
//   credentials AKIDEXAMPLE / wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, 20150830T123600Z,
//   us-east-1, service "service". The cases whose rules S3 shares; the suite's normalize-path
//   cases are left out on purpose (S3 signs the path as sent, never normalised).
// - The worked S3 examples of the Amazon S3 API Reference ("Signature calculations for the
//   Authorization header", header-based auth): AKIAIOSFODNN7EXAMPLE /
//   wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY, 20130524T000000Z, us-east-1, s3, Host
//   examplebucket.s3.amazonaws.com.
#include "dq/artifact/sigv4.h"

#include <gtest/gtest.h>

#include "dq/common/crypto.h"

namespace dq::artifact {
namespace {

const SigV4Credentials kSuite{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};
const SigV4Scope kSuiteScope{"20150830T123600Z", "us-east-1", "service"};
const char* kEmptySha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const char* kSuiteCredential =
    "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, ";

struct SuiteCase {
  const char* name;
  const char* method;
  const char* path;  // raw, as in the .req file
  std::vector<std::pair<std::string, std::string>> query;
  std::vector<std::pair<std::string, std::string>> extra_headers;  // besides Host and X-Amz-Date
  std::string body;
  const char* signed_headers;
  const char* signature;  // from the .authz file
};

SigV4Request SuiteRequest(const SuiteCase& c) {
  SigV4Request r;
  r.method = c.method;
  r.canonical_uri = UriEncode(c.path, true);
  r.query = c.query;
  r.headers = c.extra_headers;
  r.headers.emplace_back("Host", "example.amazonaws.com");
  r.headers.emplace_back("X-Amz-Date", "20150830T123600Z");
  r.payload_sha256 = Sha256Hex(c.body);
  return r;
}

TEST(SigV4Test, AwsTestSuiteAuthorizations) {
  const SuiteCase cases[] = {
      {"get-vanilla-query-order-key", "GET", "/", {{"Param1", "value2"}, {"Param1", "Value1"}},
       {}, "", "host;x-amz-date",
       "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1"},
      {"get-vanilla-query-order-value", "GET", "/", {{"Param1", "value2"}, {"Param1", "value1"}},
       {}, "", "host;x-amz-date",
       "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"},
      {"get-vanilla-query-order-key-case", "GET", "/",
       {{"Param2", "value2"}, {"Param1", "value1"}}, {}, "", "host;x-amz-date",
       "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"},
      {"get-vanilla-empty-query-key", "GET", "/", {{"Param1", "value1"}}, {}, "",
       "host;x-amz-date", "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb"},
      {"get-vanilla-utf8-query", "GET", "/", {{"\xe1\x88\xb4", "bar"}}, {}, "",
       "host;x-amz-date", "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"},
      {"get-unreserved", "GET", "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
       {}, {}, "", "host;x-amz-date",
       "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"},
      {"get-utf8", "GET", "/\xe1\x88\xb4", {}, {}, "", "host;x-amz-date",
       "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"},
      {"get-header-value-trim", "GET", "/", {},
       {{"My-Header1", " value1"}, {"My-Header2", " \"a   b   c\""}}, "",
       "host;my-header1;my-header2;x-amz-date",
       "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"},
      {"post-vanilla", "POST", "/", {}, {}, "", "host;x-amz-date",
       "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"},
      {"post-vanilla-empty-query-value", "POST", "/", {{"Param1", "value1"}}, {}, "",
       "host;x-amz-date", "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11"},
      {"post-header-key-sort", "POST", "/", {}, {{"My-Header1", "value1"}}, "",
       "host;my-header1;x-amz-date",
       "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c"},
      {"post-x-www-form-urlencoded", "POST", "/", {},
       {{"Content-Type", "application/x-www-form-urlencoded"}}, "Param1=value1",
       "content-type;host;x-amz-date",
       "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"},
  };
  for (const auto& c : cases) {
    const SigV4Signature s = SignV4(SuiteRequest(c), kSuiteScope, kSuite);
    EXPECT_EQ(s.authorization, std::string(kSuiteCredential) + "SignedHeaders=" +
                                   c.signed_headers + ", Signature=" + c.signature)
        << c.name << "\n" << s.canonical_request;
  }
}

// The suite's intermediate files, for two cases: the canonical request (.creq) and the string to
// sign (.sts).
TEST(SigV4Test, AwsTestSuiteCanonicalRequestAndStringToSign) {
  const SigV4Signature query = SignV4(
      SuiteRequest({"get-vanilla-query-order-key", "GET", "/",
                    {{"Param1", "value2"}, {"Param1", "Value1"}}, {}, "", "", ""}),
      kSuiteScope, kSuite);
  EXPECT_EQ(query.canonical_request,
            "GET\n/\nParam1=Value1&Param1=value2\nhost:example.amazonaws.com\n"
            "x-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" +
                std::string(kEmptySha));
  EXPECT_EQ(query.string_to_sign,
            "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
            "704b4cef673542d84cdff252633f065e8daeba5f168b77116f8b1bcaf3d38f89");

  const SigV4Signature form = SignV4(
      SuiteRequest({"post-x-www-form-urlencoded", "POST", "/", {},
                    {{"Content-Type", "application/x-www-form-urlencoded"}}, "Param1=value1", "",
                    ""}),
      kSuiteScope, kSuite);
  EXPECT_EQ(form.canonical_request,
            "POST\n/\n\ncontent-type:application/x-www-form-urlencoded\n"
            "host:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
            "content-type;host;x-amz-date\n"
            "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e");
  EXPECT_EQ(form.string_to_sign,
            "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
            "42a5e5bb34198acb3e84da4f085bb7927f2bc277ca766e6d19c73c2154021281");
}

// get-header-key-duplicate: a repeated header is one line, its values joined in order.
TEST(SigV4Test, RepeatedHeadersJoinTheirValuesInOrder) {
  SigV4Request r = SuiteRequest({"", "GET", "/", {}, {}, "", "", ""});
  r.headers.insert(r.headers.begin(), {{"My-Header1", "value2"}, {"My-Header1", "value2"},
                                       {"My-Header1", "value1"}});
  const SigV4Signature s = SignV4(r, kSuiteScope, kSuite);
  EXPECT_NE(s.canonical_request.find("\nmy-header1:value2,value2,value1\n"), std::string::npos);
  EXPECT_EQ(s.signature, "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea");
}

const SigV4Credentials kS3{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
const SigV4Scope kS3Scope{"20130524T000000Z", "us-east-1", "s3"};

SigV4Request S3Request(std::string method, std::string path,
                       std::vector<std::pair<std::string, std::string>> query,
                       std::vector<std::pair<std::string, std::string>> headers,
                       std::string payload_sha256) {
  SigV4Request r{std::move(method), UriEncode(path, true), std::move(query), std::move(headers),
                 payload_sha256};
  r.headers.emplace_back("Host", "examplebucket.s3.amazonaws.com");
  r.headers.emplace_back("x-amz-date", "20130524T000000Z");
  r.headers.emplace_back("x-amz-content-sha256", payload_sha256);
  return r;
}

TEST(SigV4Test, S3ApiReferenceExamples) {
  // GET Object with a range.
  EXPECT_EQ(SignV4(S3Request("GET", "/test.txt", {}, {{"Range", "bytes=0-9"}}, kEmptySha),
                   kS3Scope, kS3)
                .authorization,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  // PUT Object: '$' in the key is signed as %24, the body's hash is the payload hash.
  const std::string body = "Welcome to Amazon S3.";
  ASSERT_EQ(Sha256Hex(body), "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  const SigV4Signature put =
      SignV4(S3Request("PUT", "/test$file.text", {},
                       {{"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                        {"x-amz-storage-class", "REDUCED_REDUNDANCY"}},
                       Sha256Hex(body)),
             kS3Scope, kS3);
  EXPECT_EQ(put.canonical_request.substr(0, 22), "PUT\n/test%24file.text\n");
  EXPECT_EQ(put.string_to_sign.substr(put.string_to_sign.rfind('\n') + 1),
            "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d");
  EXPECT_EQ(put.signature, "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  // GET Bucket (list objects): the query is sorted and signed.
  EXPECT_EQ(SignV4(S3Request("GET", "/", {{"prefix", "J"}, {"max-keys", "2"}}, {}, kEmptySha),
                   kS3Scope, kS3)
                .signature,
            "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  // GET Bucket lifecycle: a query name with an empty value is signed as "lifecycle=".
  EXPECT_EQ(SignV4(S3Request("GET", "/", {{"lifecycle", ""}}, {}, kEmptySha), kS3Scope, kS3)
                .signature,
            "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

TEST(SigV4Test, UriEncodeKeepsOnlyUnreservedBytes) {
  EXPECT_EQ(UriEncode("a b+c/d~e", false), "a%20b%2Bc%2Fd~e");
  EXPECT_EQ(UriEncode("a b+c/d~e", true), "a%20b%2Bc/d~e");
  EXPECT_EQ(UriEncode("\xc3\xa9", true), "%C3%A9");
  EXPECT_EQ(CanonicalQuery({{"uploadId", "x/y="}, {"partNumber", "2"}}),
            "partNumber=2&uploadId=x%2Fy%3D");
}

TEST(SigV4Test, AmzDateIsUtc) {
  EXPECT_EQ(AmzDate(std::chrono::system_clock::from_time_t(1440938160)), "20150830T123600Z");
}

}  // namespace
}  // namespace dq::artifact
