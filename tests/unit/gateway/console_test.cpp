// The console's pure parts: cookies, sign-up/sign-in bodies, the two doors of the router.
#include <gtest/gtest.h>

#include "console/credentials.h"
#include "dq/http/cookies.h"
#include "pipeline/router.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

TEST(CookiesTest, FindsTheNamedCookie) {
  EXPECT_EQ(http::CookieValue("a=1; dq_session=abc; b=2", "dq_session"), "abc");
  EXPECT_EQ(http::CookieValue("dq_session=\"q\"", "dq_session"), "q");
  EXPECT_EQ(http::CookieValue("xdq_session=1; dq_sessionx=2", "dq_session"), std::nullopt);
  EXPECT_EQ(http::CookieValue("", "dq_session"), std::nullopt);
  EXPECT_EQ(http::CookieValue("junk;;=;dq_session", "dq_session"), std::nullopt);
}

TEST(CookiesTest, SessionCookieAttributes) {
  // Over https: the __Host- prefix (Secure, Path=/, no Domain).
  EXPECT_EQ(http::SessionCookieHeader("id", 604800, true),
            "__Host-dq_session=id; Path=/; HttpOnly; SameSite=Strict; Max-Age=604800; Secure");
  EXPECT_EQ(http::SessionCookieHeader("", 0, false),
            "dq_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
  EXPECT_EQ(http::DeviceCookieHeader("t", 7776000, true),
            "__Host-dq_device=t; Path=/; HttpOnly; SameSite=Strict; Max-Age=7776000; Secure");
  EXPECT_EQ(http::DeviceCookieName(false), "dq_device");
  EXPECT_EQ(http::CookieValue("a=1; __Host-dq_session=x", http::SessionCookieName(true)), "x");
  EXPECT_EQ(http::CookieValue("dq_session=x", http::SessionCookieName(true)), std::nullopt);
}

std::string ErrorField(const Status& s) {
  return s.details().empty() ? "" : s.details()[0].field;
}

TEST(CredentialsTest, SignupChecksEveryField) {
  auto ok = ParseSignup(json{{"email", "Ann@Shop.EXAMPLE"}, {"password", "twelve chars"}});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->email, "ann@shop.example");
  EXPECT_EQ(ok->name, "");
  // 12 characters, not bytes: "éééééééééééé" is 24 bytes and enough.
  EXPECT_TRUE(ParseSignup(json{{"email", "a@b.c"}, {"password", "éééééééééééé"}}).ok());
  EXPECT_FALSE(ParseSignup(json{{"email", "a@b.c"}, {"password", "ééééééééééé"}}).ok());

  const std::pair<json, std::string> bad[] = {
      {json{{"password", "twelve chars"}}, "email"},
      {json{{"email", 1}, {"password", "twelve chars"}}, "email"},
      {json{{"email", "a b@c.d"}, {"password", "twelve chars"}}, "email"},
      {json{{"email", "@c.d"}, {"password", "twelve chars"}}, "email"},
      {json{{"email", "a@b@c"}, {"password", "twelve chars"}}, "email"},
      {json{{"email", std::string(250, 'a') + "@b.cd"}, {"password", "twelve chars"}}, "email"},
      {json{{"email", "a@b.c"}}, "password"},
      {json{{"email", "a@b.c"}, {"password", "eleven char"}}, "password"},
      {json{{"email", "a@b.c"}, {"password", std::string(257, 'x')}}, "password"},
      {json{{"email", "a@b.c"}, {"password", "twelve chars"}, {"name", json::array()}}, "name"},
  };
  for (const auto& [body, field] : bad) {
    auto r = ParseSignup(body);
    ASSERT_FALSE(r.ok()) << body.dump();
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidRequest);
    EXPECT_EQ(ErrorField(r.status()), field) << body.dump();
  }
}

TEST(CredentialsTest, LoginChecksTypesAndLengthsOnly) {
  EXPECT_TRUE(ParseLogin(json{{"email", "not-an-address"}, {"password", "x"}}).ok());
  EXPECT_FALSE(ParseLogin(json{{"email", "a@b.c"}}).ok());
  EXPECT_FALSE(ParseLogin(json{{"email", "a@b.c"}, {"password", 5}}).ok());
  EXPECT_FALSE(ParseLogin(json{{"email", std::string(300, 'a')}, {"password", "x"}}).ok());
}

TEST(RouterDoorsTest, JobsAndWebhookAnswerAtBothDoorsConsoleRoutesOnlyAtOne) {
  for (const char* prefix : {"/v1", "/console/api"}) {
    const std::string p = prefix;
    RouteMatch jobs = MatchRoute("GET", p + "/jobs/abc/issues");
    EXPECT_EQ(jobs.kind, RouteMatch::Kind::kFound);
    EXPECT_EQ(jobs.pattern, p + "/jobs/:id/issues");
    EXPECT_EQ(jobs.params, std::vector<std::string>{"abc"});
    EXPECT_EQ(MatchRoute("POST", p + "/jobs").rate_class, RateClass::kUpload);
    RouteMatch redeliver = MatchRoute("POST", p + "/webhook/deliveries/d1/redeliver");
    EXPECT_EQ(redeliver.pattern, p + "/webhook/deliveries/:delivery_id/redeliver");
    EXPECT_EQ(redeliver.params, std::vector<std::string>{"d1"});
  }
  EXPECT_EQ(MatchRoute("GET", "/console/api/jobs").door, Door::kConsole);
  EXPECT_EQ(MatchRoute("GET", "/v1/jobs").door, Door::kApi);
  EXPECT_EQ(MatchRoute("POST", "/v1/signup").kind, RouteMatch::Kind::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "/v1/keys").kind, RouteMatch::Kind::kNotFound);
  EXPECT_EQ(MatchRoute("POST", "/console/api/validate").kind, RouteMatch::Kind::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "/console/apix/me").kind, RouteMatch::Kind::kNotFound);
  EXPECT_EQ(MatchRoute("DELETE", "/console/api/keys/k1").pattern, "/console/api/keys/:key_id");
  RouteMatch wrong = MatchRoute("GET", "/console/api/login");
  EXPECT_EQ(wrong.kind, RouteMatch::Kind::kMethodNotAllowed);
  EXPECT_EQ(wrong.allow, "POST");
  EXPECT_EQ(MatchRoute("PATCH", "/console/api/webhook").allow, "GET, PUT");
}

}  // namespace
}  // namespace dq::gateway
