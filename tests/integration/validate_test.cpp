// POST /v1/validate through the real gateway and validator: the spec's rules 1-4, every bad
// request of docs/api.md, and the 503 path with the validator stopped.
#include <gtest/gtest.h>

#include <map>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <nlohmann/json.hpp>

#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

class ValidateIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{
        1, false, {{"DQ_RATE_LIMIT_ANONYMOUS", "100000"}, {"DQ_MAX_BODY_BYTES", "65536"}}});
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }
  void SetUp() override { key_ = stack_->NewAccount().second; }

  HttpResult Post(const std::string& body, const std::string& type = "application/json") {
    return Http("POST", stack_->GatewayUrl() + "/v1/validate",
                {{"X-API-Key", key_}, {"Content-Type", type}}, body);
  }
  static std::string Error(const HttpResult& r) { return json::parse(r.body)["error"]; }

  static Stack* stack_;
  std::string key_;
};
Stack* ValidateIntegrationTest::stack_ = nullptr;

TEST_F(ValidateIntegrationTest, SpecRulesOneToFour) {
  json body = {{"records",
                {{{"SKU", "A1"}, {"Price", "19.99"}},
                 {{"SKU", ""}, {"Price", "10"}},
                 {{"SKU", "A3"}, {"Price", "abc"}},
                 {{"SKU", "A4"}, {"Price", "-1"}},
                 {{"SKU", "A5"}, {"Price", 0}},
                 {{"SKU", "A6"}, {"Price", 12.5}}}},
               {"mapping", {{"sku", "SKU"}, {"price", "Price"}}}};
  HttpResult r = Post(body.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  auto out = json::parse(r.body);
  std::vector<std::tuple<int, std::string, std::string, std::string>> got;
  int errors = 0, warnings = 0, fixes = 0;
  for (const auto& i : out["issues"]) {
    got.emplace_back(i["row"], i["code"], i["field"], i["severity"]);
    ASSERT_TRUE(i["message"].is_string());
    errors += i["severity"] == "error";
    warnings += i["severity"] == "warning";
    fixes += !i["fixed_value"].is_null();
  }
  const std::vector<std::tuple<int, std::string, std::string, std::string>> want = {
      {2, "MISSING_SKU", "sku", "error"},
      {3, "INVALID_PRICE", "price", "error"},
      {4, "INVALID_PRICE", "price", "error"},
      {5, "INVALID_PRICE", "price", "error"}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(out["stats"]["rows"], 6);
  EXPECT_EQ(out["stats"]["errors"], errors);
  EXPECT_EQ(out["stats"]["warnings"], warnings);
  EXPECT_EQ(out["stats"]["fixes"], fixes);
  EXPECT_EQ(out["stats"]["score"], 33);  // 2 clean rows of 6
  ASSERT_EQ(out["cleaned"].size(), 6u);
  EXPECT_EQ(out["cleaned"][5]["Price"], 12.5);  // untouched values keep their JSON type
}

TEST_F(ValidateIntegrationTest, FixesAppearInCleaned) {
  json body = {{"records", {{{"id", "A1"}, {"p", "$1,299.00"}, {"note", "x"}}}},
               {"mapping", {{"sku", "id"}, {"price", "p"}}}};
  auto out = json::parse(Post(body.dump()).body);
  EXPECT_EQ(out["cleaned"][0]["p"], "1299.00");
  EXPECT_EQ(out["cleaned"][0]["note"], "x");
  EXPECT_EQ(out["stats"]["fixes"], 1);
  EXPECT_EQ(out["issues"][0]["fixed_value"], "1299.00");
}

// Issue 32: several templates in one call; readiness per channel and each issue's channels,
// through the real gateway and validator.
TEST_F(ValidateIntegrationTest, ChannelReadinessForSeveralTemplates) {
  json body = {
      {"records",
       {{{"id", "A1"}, {"t", "Acme Mug"}, {"d", "A mug."}, {"p", "12.50 USD"},
         {"l", "https://acme-mugs.com/p/a1"}, {"i", "https://cdn.acme-mugs.com/a1.jpg"},
         {"a", "in stock"}, {"b", "Acme"}, {"c", "new"}},
        {{"id", "A2"}, {"t", "ACME MUG GREAT SALE"}, {"d", "<p>A mug.</p>"}, {"p", "12.50 USD"},
         {"l", "https://acme-mugs.com/p/a2"}, {"i", "https://cdn.acme-mugs.com/a2.jpg"},
         {"a", "in stock"}, {"b", "Acme"}, {"c", "new"}}}},
      {"mapping",
       {{"sku", "id"}, {"title", "t"}, {"description", "d"}, {"price", "p"}, {"link", "l"},
        {"image_url", "i"}, {"availability", "a"}, {"brand", "b"}, {"condition", "c"}}},
      {"platform", "social_catalog,search_merchant"}};
  HttpResult r = Post(body.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  auto out = json::parse(r.body);
  EXPECT_EQ(out["channels"]["search_merchant"]["ready"], 1) << r.body;
  EXPECT_EQ(out["channels"]["search_merchant"]["blocked"], 1);
  EXPECT_EQ(out["channels"]["social_catalog"]["blocked"], 1);
  EXPECT_EQ(out["channels"]["social_catalog"]["top_blockers"][0]["code"],
            "PLATFORM_EXCESSIVE_CAPITALS");
  EXPECT_EQ(out["stats"]["score"], out["channels"]["social_catalog"]["score"]);  // first listed
  bool html = false;
  for (const auto& i : out["issues"]) {
    ASSERT_TRUE(i["channels"].is_array()) << i.dump();
    if (i["code"] == "PLATFORM_DESCRIPTION_HTML") {
      html = true;
      EXPECT_EQ(i["channels"], json::array({"social_catalog"}));  // Google takes <p>
    }
  }
  EXPECT_TRUE(html) << r.body;
  // An unknown template in the list is named.
  body["platform"] = "search_merchant,ebay";
  HttpResult bad = Post(body.dump());
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("unknown platform 'ebay'"), std::string::npos) << bad.body;
}

TEST_F(ValidateIntegrationTest, EmptyRecordsScore100) {
  auto out = json::parse(Post(R"({"records":[],"mapping":{"sku":"id"}})").body);
  EXPECT_EQ(out["stats"]["rows"], 0);
  EXPECT_EQ(out["stats"]["score"], 100);
}

struct BadCase {
  const char* name;
  std::string body;
  const char* content_type;
  int status;
  const char* error;
};

TEST_F(ValidateIntegrationTest, EveryBadRequestGetsItsJsonError) {
  json many = {{"records", json::array()}, {"mapping", {{"sku", "id"}}}};
  for (int i = 0; i < 501; ++i) many["records"].push_back({{"id", "x"}});
  const BadCase cases[] = {
      {"invalid json", "{\"records\": [", "application/json", 400, "invalid_json"},
      {"no records", R"({"mapping":{}})", "application/json", 400, "invalid_request"},
      {"record not object", R"({"records":[1],"mapping":{}})", "application/json", 400,
       "invalid_request"},
      {"unknown mapping key", R"({"records":[],"mapping":{"colour":"c"}})", "application/json",
       400, "invalid_request"},
      {"unknown check type", R"({"records":[],"mapping":{},"check_types":"x"})",
       "application/json", 400, "invalid_request"},
      {"unknown platform", R"({"records":[],"mapping":{},"platform":"x"})", "application/json",
       400, "invalid_request"},
      {"501 records", many.dump(), "application/json", 400, "too_many_records"},
      {"body too large", std::string(100000, ' '), "application/json", 413, "payload_too_large"},
      {"wrong media type", "a,b\n1,2\n", "text/csv", 415, "unsupported_media_type"},
      // 30,000 levels: serialising or freeing it recursively would overflow the stack.
      {"nested 30,000 deep",
       "{\"records\":[{\"sku\":" + std::string(30000, '[') + std::string(30000, ']') +
           "}],\"mapping\":{\"sku\":\"sku\"}}",
       "application/json", 400, "invalid_request"},
  };
  for (const BadCase& c : cases) {
    HttpResult r = Post(c.body, c.content_type);
    EXPECT_EQ(r.status, c.status) << c.name << ": " << r.body;
    EXPECT_EQ(r.Header("content-type"), "application/json") << c.name;
    ASSERT_NO_THROW(json::parse(r.body)) << c.name;
    EXPECT_EQ(Error(r), c.error) << c.name;
    EXPECT_TRUE(json::parse(r.body)["message"].is_string()) << c.name;
    EXPECT_FALSE(r.Header("x-ratelimit-remaining").empty()) << c.name;
  }
  // And the gateway is still there.
  EXPECT_EQ(Post(R"({"records":[{"id":"A"}],"mapping":{"sku":"id"}})").status, 200);
}

TEST_F(ValidateIntegrationTest, LibraryPathsAnswerJsonToo) {
  HttpResult unknown = Http("GET", stack_->GatewayUrl() + "/v1/nothing", {{"X-API-Key", key_}});
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(Error(unknown), "not_found");
  HttpResult method = Http("DELETE", stack_->GatewayUrl() + "/v1/validate", {{"X-API-Key", key_}});
  EXPECT_EQ(method.status, 405);
  EXPECT_EQ(Error(method), "method_not_allowed");
  EXPECT_EQ(method.Header("allow"), "POST");
  HttpResult outside = Http("GET", stack_->GatewayUrl() + "/index.html");
  EXPECT_EQ(outside.status, 404);
  EXPECT_EQ(Error(outside), "not_found");
}

TEST_F(ValidateIntegrationTest, ValidatorDownIs503QuicklyThenRecovers) {
  const std::string body = R"({"records":[{"id":"A"}],"mapping":{"sku":"id"}})";
  ASSERT_EQ(Post(body).status, 200);
  const auto used_before =
      json::parse(Http("GET", stack_->GatewayUrl() + "/v1/usage", {{"X-API-Key", key_}}).body)
          ["records_used"];
  stack_->StopValidator();
  const auto start = std::chrono::steady_clock::now();
  HttpResult r = Post(body);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(Error(r), "service_unavailable");
  EXPECT_EQ(r.Header("retry-after"), "1");
  EXPECT_LT(took, std::chrono::seconds(4));  // bounded by the call deadline, never a hang
  HttpResult ready = Http("GET", stack_->GatewayUrl() + "/readyz");
  EXPECT_EQ(ready.status, 503);
  // The failed call gave its records back.
  EXPECT_EQ(json::parse(Http("GET", stack_->GatewayUrl() + "/v1/usage", {{"X-API-Key", key_}})
                            .body)["records_used"],
            used_before);
  stack_->StartValidator();
  // Poll readiness (unmetered), not the API: polling it would spend the rate limit.
  EXPECT_TRUE(WaitFor([&] { return Http("GET", stack_->GatewayUrl() + "/readyz").status == 200; },
                      std::chrono::seconds(10)));
  EXPECT_EQ(Post(body).status, 200);
}

}  // namespace
}  // namespace dq::testing

namespace dq::testing {
namespace {

// SIGTERM: /readyz turns 503 at once so load balancers stop routing, requests keep being served
// for the grace period, then the process exits cleanly.
TEST(GracefulShutdownTest, DrainsBeforeStopping) {
  // A grace long enough that the checks below land inside it on a loaded machine.
  Stack stack(StackOptions{1, false, {{"DQ_SHUTDOWN_GRACE_MS", "5000"}}});
  auto [id, key] = stack.NewAccount();
  const std::string url = stack.GatewayUrl();
  ASSERT_EQ(Http("GET", url + "/readyz").status, 200);
  kill(stack.gateway(0).pid(), SIGTERM);
  EXPECT_TRUE(WaitFor([&] { return Http("GET", url + "/readyz").status == 503; },
                      std::chrono::seconds(5)));
  EXPECT_EQ(Http("GET", url + "/v1/usage", {{"X-API-Key", key}}).status, 200);
  const int status = stack.gateway(0).Stop(0, std::chrono::seconds(30));  // wait, no new signal
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

}  // namespace
}  // namespace dq::testing

namespace dq::testing {
namespace {

// 23 fields mapped to one 20 KB column: a 10 MB body whose answer would be ~80 MB of issues,
// each carrying the value. The validator refuses to build it, and the caller gets a 413 that
// says what to change, not a 503 that invites a retry; the next request is answered as usual.
TEST(AmplificationTest, AnAnswerTooLargeToCarryIs413) {
  Stack stack(StackOptions{1, false, {}});
  auto [id, key] = stack.NewAccount();
  const char* fields[] = {"sku", "title", "description", "price", "compare_at_price",
                          "cost_price", "currency", "availability", "image_url", "brand",
                          "category", "gtin", "weight", "hs_code", "country_of_origin",
                          "vat_number", "email", "phone", "country", "stock_qty",
                          "reorder_point", "expiry_date", "warehouse_id"};
  json mapping = json::object();
  for (const char* f : fields) mapping[f] = "c";
  json records = json::array();
  for (int i = 0; i < 500; ++i) records.push_back({{"c", std::string(20000, 'x')}});
  const std::string body = json{{"records", records}, {"mapping", mapping}}.dump();
  const std::map<std::string, std::string> headers = {{"X-API-Key", key},
                                                      {"Content-Type", "application/json"}};
  HttpResult r = Http("POST", stack.GatewayUrl() + "/v1/validate", headers, body);
  ASSERT_EQ(r.status, 413) << r.body.substr(0, 300);
  EXPECT_EQ(json::parse(r.body)["error"], "payload_too_large");
  EXPECT_NE(json::parse(r.body)["message"].get<std::string>().find("64 MiB"), std::string::npos);
  const json small = {{"records", {{{"c", "A-1"}}}}, {"mapping", {{"sku", "c"}}}};
  EXPECT_EQ(Http("POST", stack.GatewayUrl() + "/v1/validate", headers, small.dump()).status, 200);
}

// A request larger than the server's buffer cap (twice the largest body limit + 1 MiB) is
// answered by the gateway's own guard with the JSON contract, never by the HTTP library's
// plain-text 413, and the server stays up.
TEST(BodyCapTest, RequestsOverTheServerCapGetJson413) {
  Stack stack(StackOptions{1, false,
                           {{"DQ_MAX_BODY_BYTES", "65536"}, {"DQ_UPLOAD_MAX_BYTES", "65536"}}});
  auto [id, key] = stack.NewAccount();
  const std::string huge(2 * 1024 * 1024, ' ');  // cap: 2 * 64 KiB + 1 MiB
  // The edge decides from the headers: the route's own size error, and an unknown route is 404
  // before any of its body is read.
  const std::pair<const char*, std::pair<int, const char*>> cases[] = {
      {"/v1/validate", {413, "payload_too_large"}},
      {"/v1/jobs", {413, "file_too_large"}},
      {"/v1/nothing", {404, "not_found"}}};
  for (const auto& [path, want] : cases) {
    HttpResult r = Http("POST", stack.GatewayUrl() + path,
                        {{"X-API-Key", key}, {"Content-Type", "application/json"}}, huge);
    EXPECT_EQ(r.status, want.first) << path;
    EXPECT_EQ(r.Header("content-type"), "application/json") << path;
    ASSERT_NO_THROW(json::parse(r.body)) << path << ": " << r.body;
    EXPECT_EQ(json::parse(r.body)["error"], want.second) << path;
  }
  // Under the cap but over the route's limit: the route's own 413, rate-limit headers included.
  HttpResult route = Http("POST", stack.GatewayUrl() + "/v1/validate",
                          {{"X-API-Key", key}, {"Content-Type", "application/json"}},
                          std::string(100000, ' '));
  EXPECT_EQ(route.status, 413);
  EXPECT_FALSE(route.Header("x-ratelimit-limit").empty());
  EXPECT_EQ(Http("POST", stack.GatewayUrl() + "/v1/validate",
                 {{"X-API-Key", key}, {"Content-Type", "application/json"}},
                 R"({"records":[{"id":"A"}],"mapping":{"sku":"id"}})")
                .status,
            200);
}

}  // namespace
}  // namespace dq::testing

namespace dq::testing {
namespace {

// Sends raw bytes on a fresh connection and returns what comes back within a second.
std::string RawExchange(int port, const std::string& bytes) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return "";
  }
  timeval tv{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  std::string out;
  char buf[4096];
  while (true) {
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
    const size_t head = out.find("\r\n\r\n");
    if (head != std::string::npos && out.size() > head + 4 && out.back() == '}') break;
  }
  close(fd);
  return out;
}

TEST(MalformedHttpTest, BadRequestLinesGetJson400) {
  Stack stack;
  const int port = std::stoi(stack.GatewayUrl().substr(stack.GatewayUrl().rfind(':') + 1));
  for (const std::string& request : {std::string("GET /v1/usage HTTP/9.9\r\nHost: x\r\n\r\n"),
                                    std::string("GARBAGE\r\n\r\n"),
                                    std::string("\r\nGET /healthz HTTP/1.1\r\n\r\n")}) {
    const std::string reply = RawExchange(port, request);
    EXPECT_EQ(reply.rfind("HTTP/1.1 400", 0), 0u) << request << " -> " << reply;
    const std::string body = reply.substr(reply.find("\r\n\r\n") + 4);
    ASSERT_NO_THROW(json::parse(body)) << reply;
    EXPECT_EQ(json::parse(body)["error"], "invalid_request");
  }
  // Well-formed requests on raw sockets are unaffected, HTTP/1.0 included.
  EXPECT_EQ(RawExchange(port, "GET /healthz HTTP/1.0\r\n\r\n").rfind("HTTP/1.0 200", 0), 0u);
  EXPECT_EQ(RawExchange(port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").rfind("HTTP/1.1 200", 0),
            0u);
}

}  // namespace
}  // namespace dq::testing
