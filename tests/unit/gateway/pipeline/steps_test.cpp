// The pipeline's steps one by one, without a server or a Gateway: each is given an Exchange and a
// recording "next", and must either refuse with the exact error or pass the request on.
#include "pipeline/steps.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "dq/testing/console_fakes.h"
#include "dq/testing/fake_clock.h"
#include "dq/testing/gateway_fakes.h"
#include "dq/testing/in_memory_account_store.h"
#include "dq/http/error_response.h"
#include "pipeline/admission.h"
#include "pipeline/routes.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

std::string ErrorOf(const http::HttpResponse& r) { return json::parse(r.body).value("error", ""); }
std::string MessageOf(const http::HttpResponse& r) {
  return json::parse(r.body).value("message", "");
}

http::HttpRequest Request(std::string method, std::string path, std::string key = "") {
  http::HttpRequest r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.client_ip = "10.0.0.9";
  r.request_id = "req-7";
  if (!key.empty()) r.headers["x-api-key"] = key;
  return r;
}

class StepsTest : public ::testing::Test {
 protected:
  StepsTest()
      : clock_(std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'010))),
        limiter_(clock_, RateLimitPolicy{3, 1, 2, 60}),
        auth_(store_, clock_) {
    pro_ = *store_.CreateAccount(Plan::kPro, "pro");
    pro_key_ = store_.CreateKey(pro_.id)->api_key;
    free_ = *store_.CreateAccount(Plan::kFree, "free");
    free_key_ = store_.CreateKey(free_.id)->api_key;
  }

  // Runs one step with a next() that records that it ran and answers 200.
  http::HttpResponse Run(const Step& step, Exchange& x) {
    Pipeline p([this](Exchange&) {
      ++reached_;
      return http::JsonResponse(200, "{}");
    });
    return Step1(p, step).Run(x);
  }
  // A pipeline whose only step forwards to `step` (steps are owned by their pipeline).
  struct Forward final : Step {
    explicit Forward(const Step& s) : s_(s) {}
    http::HttpResponse Handle(Exchange& x, const Next& next) const override {
      return s_.Handle(x, next);
    }
    const Step& s_;
  };
  static Pipeline& Step1(Pipeline& p, const Step& s) { return p.Then<Forward>(s); }

  Exchange Authenticated(const http::HttpRequest& r, const Account& a) {
    Exchange x(r, MatchRoute(r.method, r.path));
    x.principal = Principal{a, "k"};
    return x;
  }

  testing::FakeClock clock_;
  testing::InMemoryAccountStore store_;
  testing::InMemoryRateLimiter limiter_;
  Authenticator auth_;
  RateLimitUse rate_{limiter_, true};
  Account pro_, free_;
  std::string pro_key_, free_key_;
  int reached_ = 0;
};

TEST_F(StepsTest, RouteCheckRefusesUnknownPathsAndOtherMethods) {
  const http::HttpRequest missing = Request("GET", "/v1/nothing");
  Exchange a(missing, MatchRoute(missing.method, missing.path));
  http::HttpResponse r = Run(RouteCheck(), a);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(MessageOf(r), "There is no endpoint GET /v1/nothing.");

  const http::HttpRequest wrong = Request("PUT", "/v1/jobs");
  Exchange b(wrong, MatchRoute(wrong.method, wrong.path));
  r = Run(RouteCheck(), b);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(MessageOf(r), "PUT is not allowed on /v1/jobs; use POST, GET.");
  ASSERT_NE(r.FindHeader("Allow"), nullptr);
  EXPECT_EQ(*r.FindHeader("Allow"), "POST, GET");
  EXPECT_EQ(reached_, 0);

  const http::HttpRequest ok = Request("GET", "/v1/jobs");
  Exchange c(ok, MatchRoute(ok.method, ok.path));
  EXPECT_EQ(Run(RouteCheck(), c).status, 200);
  EXPECT_EQ(reached_, 1);
}

TEST_F(StepsTest, RequireServiceAnswers404WhenTheServiceIsMissing) {
  const http::HttpRequest req = Request("GET", "/console/api/me");
  Exchange x(req);
  http::HttpResponse r = Run(RequireService(false, "The console is not served here."), x);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(MessageOf(r), "The console is not served here.");
  EXPECT_EQ(Run(RequireService(true, "unused"), x).status, 200);
}

TEST_F(StepsTest, ErrorMappingTurnsAnExceptionInto500WithTheRequestId) {
  const http::HttpRequest req = Request("GET", "/v1/usage");
  Exchange x(req);
  Pipeline p([](Exchange&) -> http::HttpResponse { throw std::runtime_error("boom"); });
  p.Then<ErrorMapping>();
  http::HttpResponse r = p.Run(x);
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(ErrorOf(r), "internal_error");
  EXPECT_EQ(MessageOf(r), "Something went wrong on our side; the request id is req-7.");
}

TEST_F(StepsTest, KeyAuthenticationSetsThePrincipalOrRefuses) {
  KeyAuthentication keys(auth_, rate_);
  const http::HttpRequest none = Request("GET", "/v1/usage");
  Exchange a(none, MatchRoute(none.method, none.path));
  http::HttpResponse r = Run(keys, a);
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(ErrorOf(r), "api_key_required");
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Remaining"), "0");  // nothing promised before the account

  const http::HttpRequest good = Request("GET", "/v1/usage", pro_key_);
  Exchange b(good, MatchRoute(good.method, good.path));
  EXPECT_EQ(Run(keys, b).status, 200);
  ASSERT_TRUE(b.principal.has_value());
  EXPECT_EQ(b.principal->account.id, pro_.id);
}

TEST_F(StepsTest, KeyFailuresAreLimitedPerAddress) {
  KeyAuthentication keys(auth_, rate_);
  const http::HttpRequest bad = Request("GET", "/v1/usage", "dq_live_not_a_key");
  int refused = 0;
  for (int i = 0; i < 3; ++i) {  // the anonymous limit is 2
    Exchange x(bad, MatchRoute(bad.method, bad.path));
    http::HttpResponse r = Run(keys, x);
    if (r.status == 429) {
      ++refused;
      EXPECT_EQ(MessageOf(r),
                "Too many requests without a valid API key from this address; retry after the "
                "window resets.");
      EXPECT_NE(r.FindHeader("Retry-After"), nullptr);
    } else {
      EXPECT_EQ(ErrorOf(r), "invalid_api_key");
    }
  }
  EXPECT_EQ(refused, 1);
  EXPECT_EQ(reached_, 0);
}

TEST_F(StepsTest, PlanCheckRefusesPlansWithoutApiAccess) {
  const http::HttpRequest req = Request("GET", "/v1/usage");
  Exchange x = Authenticated(req, free_);
  http::HttpResponse r = Run(PlanCheck(rate_), x);
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(ErrorOf(r), "pro_required");
  EXPECT_EQ(MessageOf(r), "API access needs the Pro, Business or Agency plan; this account is on "
                          "free.");
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Remaining"), "3");  // peeked, not counted
  Exchange y = Authenticated(req, pro_);
  EXPECT_EQ(Run(PlanCheck(rate_), y).status, 200);
}

TEST_F(StepsTest, RateLimitCountsAccountRoutesAndRefusesPastTheLimit) {
  const http::HttpRequest req = Request("POST", "/v1/jobs");  // upload class: 1 a minute here
  Exchange a = Authenticated(req, pro_);
  http::HttpResponse r = Run(RateLimit(rate_), a);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Limit"), "1");
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Remaining"), "0");
  Exchange b = Authenticated(req, pro_);
  r = Run(RateLimit(rate_), b);
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(MessageOf(r),
            "Rate limit of 1 upload requests per minute reached; retry after " +
                *r.FindHeader("Retry-After") + " s.");
  EXPECT_EQ(reached_, 1);
}

TEST_F(StepsTest, RateLimitLeavesConsoleOnlyRoutesUncounted) {
  const http::HttpRequest req = Request("GET", "/console/api/me");
  for (int i = 0; i < 5; ++i) {
    Exchange x = Authenticated(req, pro_);
    http::HttpResponse r = Run(RateLimit(rate_), x);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.FindHeader("X-RateLimit-Limit"), nullptr);
  }
}

TEST_F(StepsTest, RateLimitUnavailableIs503WithTheClassLimit) {
  limiter_.SetUnavailable(true);
  const http::HttpRequest req = Request("POST", "/v1/validate");
  Exchange x = Authenticated(req, pro_);
  http::HttpResponse r = Run(RateLimit(rate_), x);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Limit"), "3");
  EXPECT_EQ(*r.FindHeader("X-RateLimit-Remaining"), "0");
}

TEST_F(StepsTest, QuotaRetryAfterSaysWhenARefusedQuotaRenews) {
  const http::HttpRequest req = Request("POST", "/v1/validate");
  Exchange x(req, MatchRoute(req.method, req.path));
  Pipeline p(
      [](Exchange&) { return http::ErrorResponse(Status(ErrorCode::kQuotaExceeded, "spent")); });
  p.Then<QuotaRetryAfter>(clock_);
  http::HttpResponse r = p.Run(x);
  EXPECT_EQ(r.status, 429);
  ASSERT_NE(r.FindHeader("Retry-After"), nullptr);
  EXPECT_EQ(*r.FindHeader("Retry-After"), std::to_string(SecondsUntilNextMonth(clock_.Now())));

  Pipeline other([](Exchange&) { return http::ErrorResponse(Status(ErrorCode::kNotFound, "no")); });
  other.Then<QuotaRetryAfter>(clock_);
  EXPECT_EQ(other.Run(x).FindHeader("Retry-After"), nullptr);
}

TEST_F(StepsTest, StepsRunInTheOrderComposed) {
  // Key before plan: a free account without a key gets 401, not 403.
  const http::HttpRequest req = Request("GET", "/v1/nothing", free_key_);
  Exchange x(req, MatchRoute(req.method, req.path));
  Pipeline p([](Exchange&) { return http::JsonResponse(200, "{}"); });
  p.Then<KeyAuthentication>(auth_, rate_).Then<PlanCheck>(rate_).Then<RouteCheck>();
  EXPECT_EQ(ErrorOf(p.Run(x)), "pro_required");  // plan before route
  const http::HttpRequest pro = Request("GET", "/v1/nothing", pro_key_);
  Exchange y(pro, MatchRoute(pro.method, pro.path));
  EXPECT_EQ(p.Run(y).status, 404);
}

TEST_F(StepsTest, AdmissionDecidesFromTheHeadAlone) {
  KeyAuthentication keys(auth_, rate_);
  Admission admission(keys, nullptr, nullptr, 100);
  EXPECT_EQ(ErrorOf(*admission.Admit(Request("POST", "/v1/validate"), 50)), "api_key_required");
  EXPECT_EQ(ErrorOf(*admission.Admit(Request("POST", "/v1/validate", free_key_), 50)),
            "pro_required");
  EXPECT_EQ(admission.Admit(Request("POST", "/v1/nothing", pro_key_), 50)->status, 404);
  http::HttpResponse big = *admission.Admit(Request("POST", "/v1/validate", pro_key_), 101);
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(MessageOf(big), "The body is 101 bytes; the limit is 100.");
  EXPECT_FALSE(admission.Admit(Request("POST", "/v1/validate", pro_key_), 100).has_value());
  EXPECT_FALSE(admission.Admit(Request("POST", "/v1/jobs", pro_key_), 1'000'000).has_value());
  EXPECT_EQ(ErrorOf(*admission.Admit(Request("POST", "/console/api/jobs"), std::nullopt)),
            "login_required");
  EXPECT_EQ(admission.Admit(Request("POST", "/elsewhere"), 5)->status, 404);
}

// Every route in the one table has a handler, and a route whose service is not wired answers 404.
// SessionAuthentication over a ConsoleApi whose stores are in memory: the session cookie, the
// CSRF token on writes, and a verified e-mail address where the route asks for one.
class SessionStepTest : public StepsTest {
 protected:
  SessionStepTest()
      : console_(fakes_.deps, ConsoleOptions{/*secure_cookie=*/false}), step_(console_) {
    EXPECT_TRUE(fakes_.users.Create(User{pro_.id, "ann@shop.example", "Ann", "", "", true}).ok());
    EXPECT_TRUE(
        fakes_.users.Create(User{free_.id, "bob@shop.example", "Bob", "", "", false}).ok());
  }

  // A request of the console's door with the session cookie of `session` (none when empty) and,
  // when given, the X-CSRF-Token header.
  static http::HttpRequest Console(std::string method, std::string path, const std::string& session,
                                   const std::string& csrf = "") {
    http::HttpRequest r = Request(std::move(method), std::move(path));
    if (!session.empty()) r.headers["cookie"] = "theme=dark; dq_session=" + session;
    if (!csrf.empty()) r.headers["x-csrf-token"] = csrf;
    return r;
  }
  http::HttpResponse Run(const http::HttpRequest& r, Exchange* out = nullptr) {
    Exchange x(r, MatchRoute(r.method, r.path));
    http::HttpResponse response = StepsTest::Run(step_, x);
    if (out != nullptr) {
      out->principal = x.principal;
      out->session = x.session;
    }
    return response;
  }
  Session SignIn(const Account& a) { return *fakes_.sessions.Create(a.id); }

  testing::InMemoryQuotaService quota_{QuotaPolicy{}};
  testing::ConsoleFakes fakes_{store_, quota_, limiter_, clock_};
  ConsoleApi console_;
  SessionAuthentication step_;
};

TEST_F(SessionStepTest, ALiveSessionSetsThePrincipalAndTheSession) {
  const Session s = SignIn(pro_);
  const http::HttpRequest me = Console("GET", "/console/api/me", s.id);
  Exchange seen(me);
  http::HttpResponse r = Run(me, &seen);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(reached_, 1);
  ASSERT_TRUE(seen.principal.has_value());
  EXPECT_EQ(seen.principal->account.id, pro_.id);
  EXPECT_EQ(seen.principal->key_id, "");  // a session, not a key
  ASSERT_TRUE(seen.session.has_value());
  EXPECT_EQ(seen.session->session.id, s.id);
  EXPECT_EQ(seen.session->session.csrf_token, s.csrf_token);
}

TEST_F(SessionStepTest, NoUnknownOrEndedSessionIsLoginRequired) {
  const Session s = SignIn(pro_);
  http::HttpRequest other_cookies = Request("GET", "/console/api/me");
  other_cookies.headers["cookie"] = "theme=dark";
  const http::HttpRequest cases[] = {
      Request("GET", "/console/api/me"),                 // no cookie header
      other_cookies,                                     // no session cookie
      Console("GET", "/console/api/me", "session-999"),  // an unknown id
  };
  for (const http::HttpRequest& req : cases) {
    http::HttpResponse r = Run(req);
    EXPECT_EQ(r.status, 401);
    EXPECT_EQ(ErrorOf(r), "login_required");
    EXPECT_EQ(MessageOf(r), "Sign in to the console first.");
  }
  http::HttpRequest other = Request("GET", "/console/api/me");
  other.headers["cookie"] = "__Host-dq_session=" + s.id;  // the https name, on an http console
  EXPECT_EQ(Run(other).status, 401);
  EXPECT_EQ(reached_, 0);

  EXPECT_EQ(Run(Console("GET", "/console/api/me", s.id)).status, 200);  // alive until its end
  clock_.Advance(SessionPolicy{}.absolute);
  http::HttpResponse ended = Run(Console("GET", "/console/api/me", s.id));
  EXPECT_EQ(ended.status, 401);
  EXPECT_EQ(ErrorOf(ended), "login_required");
  EXPECT_EQ(MessageOf(ended), "Sign in to the console first.");
  EXPECT_EQ(reached_, 1);
}

TEST_F(SessionStepTest, OpenRoutesNeedNoSession) {
  const http::HttpRequest login = Request("POST", "/console/api/login");
  Exchange seen(login);
  EXPECT_EQ(Run(login, &seen).status, 200);
  EXPECT_FALSE(seen.principal.has_value());
  EXPECT_EQ(reached_, 1);
}

TEST_F(SessionStepTest, AStoreThatIsDownIs503NotASignOut) {
  const Session s = SignIn(pro_);
  fakes_.sessions.SetUnavailable(true);
  http::HttpResponse r = Run(Console("GET", "/console/api/me", s.id));
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(ErrorOf(r), "service_unavailable");
  ASSERT_NE(r.FindHeader("Retry-After"), nullptr);
  EXPECT_EQ(*r.FindHeader("Retry-After"), "1");
  EXPECT_EQ(reached_, 0);
}

TEST_F(SessionStepTest, AWriteNeedsTheSessionsCsrfToken) {
  const Session s = SignIn(pro_);
  const Session other = SignIn(pro_);
  for (const std::string& token : {std::string(), other.csrf_token, s.csrf_token + "x"}) {
    http::HttpResponse r = Run(Console("POST", "/console/api/keys", s.id, token));
    EXPECT_EQ(r.status, 403) << token;
    EXPECT_EQ(ErrorOf(r), "csrf_failed");
    EXPECT_EQ(MessageOf(r),
              "Send the session's csrf_token (from GET /console/api/me) in the X-CSRF-Token "
              "header.");
  }
  // DELETE changes state too; GET and HEAD do not need the token.
  EXPECT_EQ(Run(Console("DELETE", "/console/api/keys/k1", s.id)).status, 403);
  EXPECT_EQ(reached_, 0);
  EXPECT_EQ(Run(Console("GET", "/console/api/keys", s.id)).status, 200);
  EXPECT_EQ(Run(Console("POST", "/console/api/keys", s.id, s.csrf_token)).status, 200);
  EXPECT_EQ(reached_, 2);
}

TEST_F(SessionStepTest, RoutesThatAskForAVerifiedAddressRefuseAnUnverifiedOne) {
  const Session bob = SignIn(free_);  // bob@shop.example has not opened the link yet
  http::HttpResponse r = Run(Console("PUT", "/console/api/webhook", bob.id, bob.csrf_token));
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(ErrorOf(r), "email_unverified");
  EXPECT_EQ(MessageOf(r),
            "Confirm your e-mail address first: open the link in the mail we sent to "
            "bob@shop.example. Until then you can upload and check files, but not set a webhook "
            "or get an API key.");
  EXPECT_EQ(reached_, 0);
  // The CSRF check comes first: a write without the token is refused for that, whoever asks.
  EXPECT_EQ(ErrorOf(Run(Console("PUT", "/console/api/webhook", bob.id))), "csrf_failed");
  // Routes that do not ask go on; a verified user goes on everywhere.
  EXPECT_EQ(Run(Console("GET", "/console/api/webhook", bob.id)).status, 200);
  const Session ann = SignIn(pro_);
  EXPECT_EQ(Run(Console("PUT", "/console/api/webhook", ann.id, ann.csrf_token)).status, 200);
  EXPECT_EQ(reached_, 2);

  // Once verified, the same request passes.
  auto token = fakes_.users.NewVerifyToken(free_.id, std::chrono::hours(1));
  ASSERT_TRUE(token.ok());
  ASSERT_TRUE(fakes_.users.Verify(*token).ok());
  EXPECT_EQ(Run(Console("PUT", "/console/api/webhook", bob.id, bob.csrf_token)).status, 200);
  EXPECT_EQ(reached_, 3);
}

TEST(RouteTableTest, EveryRouteHasAHandlerAndMissingServicesAre404) {
  RouteServices none;
  for (const Route& route : RouteTable()) {
    ASSERT_NE(route.handler, nullptr) << route.method << " " << route.pattern;
  }
  const http::HttpRequest req = Request("GET", "/v1/jobs/abc");
  const RouteMatch m = MatchRoute(req.method, req.path);
  ASSERT_TRUE(m.Found());
  Account a;
  Principal p{a, "k"};
  http::HttpResponse r = InvokeRoute(m, req, none, &p, nullptr);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(MessageOf(r), "Jobs are not served here.");
}

}  // namespace
}  // namespace dq::gateway
