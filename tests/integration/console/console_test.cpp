// The console's accounts, sessions and keys through the real gateway (docs/api.md
// "Self-service"): status codes, error codes, cookie attributes, CSRF, and the black-box flow
// sign-up -> 403 pro_required -> dqctl set-plan pro -> key works -> revoke -> 401.
#include <gtest/gtest.h>

#include <future>

#include <nlohmann/json.hpp>

#include "console_client.h"
#include "dq/common/crypto.h"
#include "dq/common/ascii.h"

namespace dq::testing {
namespace {

using nlohmann::json;

std::string Lower(std::string_view s) { return ascii::Lower(s); }

class ConsoleTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{1, false, ConsoleGatewayEnv()});
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }
  static std::string Base() { return stack_->GatewayUrl(); }
  static HttpResult Post(const std::string& path, const std::string& body,
                         std::map<std::string, std::string> headers = {}) {
    headers.emplace("Content-Type", "application/json");
    return Http("POST", Base() + path, headers, body);
  }
  static Stack* stack_;
};
Stack* ConsoleTest::stack_ = nullptr;

TEST_F(ConsoleTest, SignUpKeyNeedsProThenWorksUntilRevoked) {
  const std::string email = "Owner-" + RandomBase62(8) + "@Example.com";
  HttpResult r = Post("/console/api/signup",
                      json{{"email", email}, {"password", "twelve chars!"}, {"name", "Acme"}}.dump());
  ASSERT_EQ(r.status, 201) << r.body;
  const json body = json::parse(r.body);
  EXPECT_EQ(body["plan"], "free");
  EXPECT_EQ(body["name"], "Acme");
  EXPECT_EQ(body["email"], Lower(email));
  const std::string account_id = body["account_id"];
  const std::string set_cookie = r.Header("set-cookie");
  EXPECT_EQ(set_cookie.rfind("dq_session=", 0), 0u) << set_cookie;
  EXPECT_NE(set_cookie.find("HttpOnly"), std::string::npos);
  EXPECT_NE(set_cookie.find("SameSite=Strict"), std::string::npos);
  EXPECT_NE(set_cookie.find("Path=/"), std::string::npos);
  EXPECT_EQ(set_cookie.find("Secure"), std::string::npos);  // DQ_CONSOLE_ALLOW_HTTP=1
  ConsoleUser u{Base(), email, "twelve chars!", account_id, CookiePair(set_cookie),
                body["csrf_token"]};
  // Keys wait for the address to be verified: the link in the sign-up mail.
  ASSERT_EQ(Post("/console/api/verify", json{{"token", TokenIn(LastMailTo(email))}}.dump()).status,
            200);

  HttpResult me = u.Call("GET", "/console/api/me", "", false);
  ASSERT_EQ(me.status, 200) << me.body;
  const json mej = json::parse(me.body);
  EXPECT_EQ(mej["account_id"], account_id);
  EXPECT_EQ(mej["quota"]["limit"], 1000);  // the free plan's default
  EXPECT_EQ(mej["quota"]["used"], 0);
  EXPECT_TRUE(mej["quota"]["resets_at"].is_string());
  EXPECT_EQ(mej["csrf_token"], u.csrf);

  HttpResult denied = u.Call("POST", "/console/api/keys", R"({"label":"shop"})");
  EXPECT_EQ(denied.status, 403);
  EXPECT_EQ(ErrorCode(denied), "pro_required");

  ASSERT_EQ(Dqctl(*stack_, "account set-plan --account " + account_id + " --plan pro"), 0);
  HttpResult made = u.Call("POST", "/console/api/keys", R"({"label":"shop"})");
  ASSERT_EQ(made.status, 201) << made.body;
  const json key = json::parse(made.body);
  const std::string api_key = key["api_key"];
  EXPECT_EQ(key["label"], "shop");
  EXPECT_EQ(key["prefix"], api_key.substr(0, 7));
  EXPECT_TRUE(key["revoked_at"].is_null());
  EXPECT_TRUE(key["last_used_at"].is_null());

  const std::string records =
      R"({"records":[{"sku":"A-1","price":"9.99"}],"mapping":{"sku":"sku","price":"price"}})";
  HttpResult ok = Http("POST", Base() + "/v1/validate",
                       {{"X-API-Key", api_key}, {"Content-Type", "application/json"}}, records);
  EXPECT_EQ(ok.status, 200) << ok.body;

  HttpResult listed = u.Call("GET", "/console/api/keys", "", false);
  ASSERT_EQ(listed.status, 200);
  const json keys = json::parse(listed.body);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0]["key_id"], key["key_id"]);
  EXPECT_FALSE(keys[0].contains("api_key"));  // shown only once
  EXPECT_TRUE(keys[0]["last_used_at"].is_string());
  EXPECT_EQ(keys[0]["prefix"], key["prefix"]);

  HttpResult revoked = u.Call("DELETE", "/console/api/keys/" + key["key_id"].get<std::string>());
  EXPECT_EQ(revoked.status, 204);
  HttpResult after = Http("POST", Base() + "/v1/validate",
                          {{"X-API-Key", api_key}, {"Content-Type", "application/json"}}, records);
  EXPECT_EQ(after.status, 401);
  EXPECT_EQ(ErrorCode(after), "invalid_api_key");
  EXPECT_TRUE(json::parse(u.Call("GET", "/console/api/keys", "", false).body)[0]["revoked_at"]
                  .is_string());
  EXPECT_EQ(u.Call("DELETE", "/console/api/keys/key_nope").status, 404);
}

TEST_F(ConsoleTest, SignUpRefusesTakenEmailAndBadInput) {
  ConsoleUser u = ConsoleUser::SignUp(Base());
  std::string upper = u.email;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  // A taken address answers as a new sign-up does (nothing tells it is registered); the mail
  // goes to the address's owner, and the newcomer cannot sign in with it.
  HttpResult taken = Post("/console/api/signup",
                          json{{"email", upper}, {"password", "another password"}}.dump());
  EXPECT_EQ(taken.status, 201) << taken.body;
  const json shown = json::parse(taken.body);
  EXPECT_NE(shown["account_id"], u.account_id);
  EXPECT_EQ(shown["email_verified"], false);
  EXPECT_FALSE(CookiePair(taken.Header("set-cookie")).empty());
  const std::string notice = LastMailTo(u.email);
  EXPECT_NE(notice.find("tried to sign up"), std::string::npos) << notice;
  EXPECT_EQ(TokenIn(notice), "");
  EXPECT_EQ(Post("/console/api/login", json{{"email", u.email}, {"password", "another password"}}
                                           .dump())
                .status,
            401);
  EXPECT_EQ(Post("/console/api/login", json{{"email", u.email}, {"password", u.password}}.dump())
                .status,
            200);

  const std::string fresh = "x" + RandomBase62(8) + "@example.com";
  struct Case {
    std::string body;
    int status;
    std::string error;
  };
  const Case cases[] = {
      {"{not json", 400, "invalid_json"},
      {"[1,2]", 400, "invalid_request"},
      {R"({"password":"long enough pw"})", 400, "invalid_request"},
      {json{{"email", fresh}}.dump(), 400, "invalid_request"},
      {json{{"email", 42}, {"password", "long enough pw"}}.dump(), 400, "invalid_request"},
      {json{{"email", fresh}, {"password", true}}.dump(), 400, "invalid_request"},
      {json{{"email", fresh}, {"password", "short"}}.dump(), 400, "invalid_request"},
      {json{{"email", fresh}, {"password", "long enough pw"}, {"name", 7}}.dump(), 400,
       "invalid_request"},
      {json{{"email", "no-at-sign"}, {"password", "long enough pw"}}.dump(), 400,
       "invalid_request"},
      {json{{"email", std::string(300, 'a') + "@example.com"}, {"password", "long enough pw"}}
           .dump(),
       400, "invalid_request"},
      {json{{"email", fresh}, {"password", std::string(5000, 'p')}}.dump(), 400,
       "invalid_request"},
  };
  for (const Case& c : cases) {
    HttpResult r = Post("/console/api/signup", c.body);
    EXPECT_EQ(r.status, c.status) << c.body.substr(0, 80) << " -> " << r.body;
    EXPECT_EQ(ErrorCode(r), c.error) << c.body.substr(0, 80);
    EXPECT_EQ(r.Header("content-type"), "application/json");
  }
  // Nothing was created for the refused bodies: the address is still free.
  EXPECT_EQ(Post("/console/api/signup",
                 json{{"email", fresh}, {"password", "long enough pw"}}.dump())
                .status,
            201);
}

TEST_F(ConsoleTest, LoginWrongPasswordAndUnknownEmailLookTheSame) {
  ConsoleUser u = ConsoleUser::SignUp(Base());
  HttpResult wrong = Post("/console/api/login",
                          json{{"email", u.email}, {"password", "not the password"}}.dump());
  HttpResult unknown = Post("/console/api/login",
                            json{{"email", "nobody-" + RandomBase62(6) + "@example.com"},
                                 {"password", "not the password"}}
                                .dump());
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(ErrorCode(wrong), "invalid_credentials");
  // The same answer, but for the request id every error body carries.
  json wrong_body = json::parse(wrong.body), unknown_body = json::parse(unknown.body);
  wrong_body.erase("request_id");
  unknown_body.erase("request_id");
  EXPECT_EQ(wrong_body, unknown_body);
  EXPECT_EQ(wrong.status, unknown.status);

  HttpResult ok =
      Post("/console/api/login", json{{"email", u.email}, {"password", u.password}}.dump());
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(json::parse(ok.body)["account_id"], u.account_id);
  ConsoleUser second = u;
  second.cookie = CookiePair(ok.Header("set-cookie"));
  second.csrf = json::parse(ok.body)["csrf_token"];
  EXPECT_NE(second.cookie, u.cookie);
  EXPECT_EQ(second.Call("GET", "/console/api/me", "", false).status, 200);

  HttpResult bad = Post("/console/api/login", R"({"email":"a@b.c","password":12})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(ErrorCode(bad), "invalid_request");
  HttpResult long_pw = Post("/console/api/login",
                            json{{"email", u.email}, {"password", std::string(300, 'x')}}.dump());
  EXPECT_EQ(ErrorCode(long_pw), "invalid_request");
}

TEST_F(ConsoleTest, SessionsCsrfAndDoorsDoNotMix) {
  ConsoleUser u = ConsoleUser::SignUp(Base());
  ConsoleUser other = ConsoleUser::SignUp(Base());

  HttpResult none = Http("GET", Base() + "/console/api/me");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(ErrorCode(none), "login_required");
  HttpResult garbage = Http("GET", Base() + "/console/api/me", {{"Cookie", "dq_session=abc"}});
  EXPECT_EQ(ErrorCode(garbage), "login_required");

  // State changes need the session's own CSRF token.
  HttpResult no_token = u.Call("PUT", "/console/api/webhook", R"({"url":"https://example.com"})",
                               false);
  EXPECT_EQ(no_token.status, 403);
  EXPECT_EQ(ErrorCode(no_token), "csrf_failed");
  ConsoleUser mixed = u;
  mixed.csrf = other.csrf;
  HttpResult foreign = mixed.Call("POST", "/console/api/logout");
  EXPECT_EQ(foreign.status, 403);
  EXPECT_EQ(ErrorCode(foreign), "csrf_failed");

  // An API key does not open the console; a session cookie does not open /v1.
  auto [id, key] = stack_->NewAccount(Plan::kPro);
  HttpResult with_key = Http("GET", Base() + "/console/api/me", {{"X-API-Key", key}});
  EXPECT_EQ(with_key.status, 401);
  EXPECT_EQ(ErrorCode(with_key), "login_required");
  HttpResult with_cookie = Http("GET", Base() + "/v1/usage", {{"Cookie", u.cookie}});
  EXPECT_EQ(with_cookie.status, 401);
  EXPECT_EQ(ErrorCode(with_cookie), "api_key_required");

  // Unknown routes and methods under /console/api answer JSON.
  HttpResult missing = u.Call("GET", "/console/api/nothing-here", "", false);
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(ErrorCode(missing), "not_found");
  EXPECT_EQ(ErrorCode(Http("GET", Base() + "/console/api/nothing-here")), "not_found");
  HttpResult method = u.Call("DELETE", "/console/api/me");
  EXPECT_EQ(method.status, 405);
  EXPECT_EQ(ErrorCode(method), "method_not_allowed");
  EXPECT_EQ(method.Header("allow"), "GET");

  // Logout deletes the session: the old cookie is dead.
  HttpResult out = u.Call("POST", "/console/api/logout");
  EXPECT_EQ(out.status, 204);
  EXPECT_NE(out.Header("set-cookie").find("Max-Age=0"), std::string::npos);
  HttpResult dead = u.Call("GET", "/console/api/me", "", false);
  EXPECT_EQ(dead.status, 401);
  EXPECT_EQ(ErrorCode(dead), "login_required");
  // Only the digest of a session id is kept in Redis.
  const std::string id_only = u.cookie.substr(u.cookie.find('=') + 1);
  EXPECT_EQ(stack_->redis().Cli({"EXISTS", "dq:session:" + Sha256Hex(id_only)}).find('1'),
            std::string::npos);
}

TEST_F(ConsoleTest, ConsoleBodiesFollowTheErrorContract) {
  ConsoleUser u = ConsoleUser::SignUp(Base());
  struct Case {
    std::string method, path, body;
    std::string error;
  };
  const Case cases[] = {
      {"POST", "/console/api/keys", "{oops", "pro_required"},  // plan is checked first
      {"PUT", "/console/api/webhook", "{oops", "invalid_json"},
      {"PUT", "/console/api/webhook", R"({"enabled":true})", "invalid_request"},
      {"PUT", "/console/api/webhook", R"({"url":5})", "invalid_request"},
      {"PUT", "/console/api/webhook", R"({"url":"https://example.com","enabled":"yes"})",
       "invalid_request"},
      {"PUT", "/console/api/webhook", R"({"url":"ftp://example.com/x"})", "invalid_webhook_url"},
      {"GET", "/console/api/webhook/deliveries?limit=0", "", "invalid_request"},
      {"POST", "/console/api/webhook/deliveries/nope/redeliver", "", "not_found"},
  };
  for (const Case& c : cases) {
    HttpResult r = u.Call(c.method, c.path, c.body);
    EXPECT_EQ(ErrorCode(r), c.error) << c.method << " " << c.path << " " << c.body << " -> "
                                     << r.body;
  }
}

// Ten failures in the window for one e-mail (or one client address) and the next sign-in is
// 429, even with the right password. A stack of its own: the address limit would otherwise
// lock every other test out.
TEST(ConsoleLoginThrottleTest, TenFailuresThen429) {
  Stack stack(StackOptions{1, false, ConsoleGatewayEnv()});
  ConsoleUser u = ConsoleUser::SignUp(stack.GatewayUrl());
  const std::string url = stack.GatewayUrl() + "/console/api/login";
  const std::map<std::string, std::string> ct = {{"Content-Type", "application/json"}};
  for (int i = 0; i < 10; ++i) {
    HttpResult r = Http("POST", url, ct, json{{"email", u.email}, {"password", "wrong wrong 1"}}.dump());
    ASSERT_EQ(r.status, 401) << i;
  }
  HttpResult blocked = Http("POST", url, ct, json{{"email", u.email}, {"password", u.password}}.dump());
  EXPECT_EQ(blocked.status, 429);
  EXPECT_EQ(ErrorCode(blocked), "too_many_requests");
  EXPECT_FALSE(blocked.Header("retry-after").empty());
  // The client address is blocked too, for any e-mail.
  HttpResult other = Http("POST", url, ct,
                          json{{"email", "someone@example.com"}, {"password", "whatever 123"}}.dump());
  EXPECT_EQ(other.status, 429);
}

std::string LoginBody(const std::string& email, const std::string& password) {
  return json{{"email", email}, {"password", password}}.dump();
}

// Every attempt is counted before its password is checked: 40 guesses at once check at most 10
// passwords (a 401 means a password was checked; a 429 that none was).
TEST(ConsoleLoginThrottleTest, FortyParallelGuessesCheckAtMostTenPasswords) {
  Stack stack(StackOptions{1, false, ConsoleGatewayEnv()});
  ConsoleUser u = ConsoleUser::SignUp(stack.GatewayUrl());
  const std::string url = stack.GatewayUrl() + "/console/api/login";
  std::vector<std::future<int>> guesses;
  for (int i = 0; i < 40; ++i) {
    guesses.push_back(std::async(std::launch::async, [&, i] {
      return Http("POST", url, {{"Content-Type", "application/json"}},
                  LoginBody(u.email, "wrong guess " + std::to_string(i)))
          .status;
    }));
  }
  int checked = 0, refused = 0;
  for (auto& g : guesses) {
    const int status = g.get();
    if (status == 401) ++checked;
    if (status == 429) ++refused;
  }
  EXPECT_LE(checked, 10);
  EXPECT_GE(checked, 1);
  EXPECT_EQ(checked + refused, 40);
}

// A Redis that refuses the count's write (out of memory, or an ACL that denies it) refuses the
// sign-in with 503: never a 401 for a wrong password and a different answer for the right one.
TEST(ConsoleLoginThrottleTest, UncountableSignInsAre503WhateverThePassword) {
  Stack stack(StackOptions{1, false, ConsoleGatewayEnv()});
  ConsoleUser u = ConsoleUser::SignUp(stack.GatewayUrl());
  const std::string url = stack.GatewayUrl() + "/console/api/login";
  const std::map<std::string, std::string> ct = {{"Content-Type", "application/json"}};
  auto expect_503 = [&](const std::string& why) {
    for (const std::string& password : {u.password, std::string("wrong password 1")}) {
      HttpResult r = Http("POST", url, ct, LoginBody(u.email, password));
      EXPECT_EQ(r.status, 503) << why << ": " << r.body;
      EXPECT_EQ(ErrorCode(r), "service_unavailable") << why;
      EXPECT_EQ(r.Header("retry-after"), "1") << why;
      EXPECT_TRUE(r.Header("set-cookie").empty()) << why;
    }
  };
  ASSERT_EQ(stack.redis().Cli({"CONFIG", "SET", "maxmemory-policy", "noeviction"}), "OK");
  ASSERT_EQ(stack.redis().Cli({"CONFIG", "SET", "maxmemory", "1"}), "OK");
  expect_503("maxmemory 1");
  ASSERT_EQ(stack.redis().Cli({"CONFIG", "SET", "maxmemory", "0"}), "OK");
  // Scripts refused to the gateway's user: the count cannot be made.
  ASSERT_EQ(stack.redis().Cli({"ACL", "SETUSER", "default", "-evalsha", "-eval"}), "OK");
  expect_503("EVAL refused");
  ASSERT_EQ(stack.redis().Cli({"ACL", "SETUSER", "default", "+@all"}), "OK");
  EXPECT_EQ(Http("POST", url, ct, LoginBody(u.email, u.password)).status, 200);
}

// OWASP's device cookie: a browser that signed in as a user keeps a cookie that exempts it from
// that e-mail's lockout, so guesses from elsewhere cannot lock the owner out. Client addresses
// come from X-Forwarded-For (the loopback is a trusted proxy here).
TEST(ConsoleLoginThrottleTest, TheOwnersBrowserIsNotLockedOutByGuessesFromElsewhere) {
  auto env = ConsoleGatewayEnv();
  env["DQ_TRUSTED_PROXIES"] = "127.0.0.1";
  Stack stack(StackOptions{1, false, env});
  ConsoleUser u = ConsoleUser::SignUp(stack.GatewayUrl());
  const std::string url = stack.GatewayUrl() + "/console/api/login";
  auto from = [](const std::string& ip, const std::string& cookie = "") {
    std::map<std::string, std::string> h = {{"Content-Type", "application/json"},
                                            {"X-Forwarded-For", ip}};
    if (!cookie.empty()) h["Cookie"] = cookie;
    return h;
  };
  // The owner signs in at home: the answer sets the device cookie beside the session.
  auto https = from("203.0.113.10");
  https["X-Forwarded-Proto"] = "https";  // from the trusted proxy: served over https
  HttpResult home = Http("POST", url, https, LoginBody(u.email, u.password));
  ASSERT_EQ(home.status, 200) << home.body;
  EXPECT_EQ(home.Header("strict-transport-security"), "max-age=31536000; includeSubDomains");
  const std::string cookies = home.Header("set-cookie");
  const size_t at = cookies.find("dq_device=");
  ASSERT_NE(at, std::string::npos) << cookies;
  const std::string device = cookies.substr(at, cookies.find(';', at) - at);
  EXPECT_NE(cookies.find("HttpOnly", at), std::string::npos);
  // An attacker elsewhere guesses ten times: the e-mail is locked.
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(Http("POST", url, from("198.51.100.7"), LoginBody(u.email, "guess " + std::to_string(i)))
                  .status,
              401);
  }
  EXPECT_EQ(Http("POST", url, from("198.51.100.8"), LoginBody(u.email, u.password)).status, 429);
  // A new browser of the owner's is locked out too; the owner's own browser is not.
  EXPECT_EQ(Http("POST", url, from("203.0.113.11"), LoginBody(u.email, u.password)).status, 429);
  HttpResult own = Http("POST", url, from("203.0.113.11", device), LoginBody(u.email, u.password));
  EXPECT_EQ(own.status, 200) << own.body;
  // The cookie is the owner's for this e-mail only: it does not unlock another one.
  ConsoleUser other = ConsoleUser::SignUp(stack.GatewayUrl());
  for (int i = 0; i < 10; ++i) {
    Http("POST", url, from("198.51.100.9"), LoginBody(other.email, "guess " + std::to_string(i)));
  }
  EXPECT_EQ(Http("POST", url, from("203.0.113.12", device), LoginBody(other.email, other.password))
                .status,
            429);
  // Guessing from the owner's browser is limited too: ten failures and it is locked.
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(Http("POST", url, from("203.0.113.13", device),
                   LoginBody(u.email, "typo " + std::to_string(i)))
                  .status,
              401);
  }
  EXPECT_EQ(Http("POST", url, from("203.0.113.14", device), LoginBody(u.email, u.password)).status,
            429);
}

// Until the address is verified the console works (and uploads), but a webhook and API keys
// wait; the link in the mail verifies it once; dqctl verifies by hand.
TEST_F(ConsoleTest, VerificationGatesWebhooksAndKeys) {
  ConsoleUser u = ConsoleUser::SignUp(Base(), "Unverified", false);
  EXPECT_EQ(json::parse(u.Call("GET", "/console/api/me", "", false).body)["email_verified"], false);
  HttpResult hook = u.Call("PUT", "/console/api/webhook",
                           json{{"url", "https://hooks.example.com/x"}}.dump());
  EXPECT_EQ(hook.status, 403);
  EXPECT_EQ(ErrorCode(hook), "email_unverified");
  // Console API answers are never sniffed or cached.
  EXPECT_EQ(hook.Header("x-content-type-options"), "nosniff");
  EXPECT_EQ(hook.Header("cache-control"), "no-store");
  // X-Forwarded-Proto from a client that is not a trusted proxy means nothing: no HSTS.
  EXPECT_EQ(u.Call("GET", "/console/api/me", "", false, {{"X-Forwarded-Proto", "https"}})
                .Header("strict-transport-security"),
            "");
  EXPECT_NE(json::parse(hook.body)["message"].get<std::string>().find(Lower(u.email)),
            std::string::npos);
  ASSERT_EQ(Dqctl(*stack_, "account set-plan --account " + u.account_id + " --plan pro"), 0);
  HttpResult key = u.Call("POST", "/console/api/keys", "{}");
  EXPECT_EQ(key.status, 403);
  EXPECT_EQ(ErrorCode(key), "email_unverified");
  // The console itself works: jobs are listed.
  EXPECT_EQ(u.Call("GET", "/console/api/jobs", "", false).status, 200);

  const std::string mail = LastMailTo(u.email);
  ASSERT_NE(mail.find("Subject: Confirm your e-mail address"), std::string::npos) << mail;
  const std::string token = TokenIn(mail);
  ASSERT_EQ(token.size(), 43u);
  EXPECT_EQ(Post("/console/api/verify", json{{"token", "x" + token}}.dump()).status, 400);
  HttpResult ok = Post("/console/api/verify", json{{"token", token}}.dump());
  ASSERT_EQ(ok.status, 200) << ok.body;
  HttpResult again = Post("/console/api/verify", json{{"token", token}}.dump());
  EXPECT_EQ(again.status, 400);  // spent
  EXPECT_EQ(ErrorCode(again), "invalid_request");
  EXPECT_EQ(json::parse(u.Call("GET", "/console/api/me", "", false).body)["email_verified"], true);
  EXPECT_EQ(u.Call("PUT", "/console/api/webhook",
                   json{{"url", "https://hooks.example.com/x"}}.dump())
                .status,
            200);
  EXPECT_EQ(u.Call("POST", "/console/api/keys", "{}").status, 201);

  // By hand: dqctl user verify.
  ConsoleUser v = ConsoleUser::SignUp(Base(), "By hand", false);
  std::string upper = v.email;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ASSERT_EQ(Dqctl(*stack_, "user verify --email " + upper), 0);
  EXPECT_EQ(json::parse(v.Call("GET", "/console/api/me", "", false).body)["email_verified"], true);
  EXPECT_EQ(Dqctl(*stack_, "user verify --email nobody@example.com"), 1);
}

TEST_F(ConsoleTest, CommonPasswordsAndTheEmailItselfAreRefused) {
  const std::string email = "pw-" + RandomBase62(8) + "@example.com";
  const std::vector<std::string> passwords = {"password1234", "Password1234!", "letmein12345",
                                              "qwertyuiop123", "iloveyou2024", email};
  for (const std::string& password : passwords) {
    HttpResult r = Post("/console/api/signup", json{{"email", email}, {"password", password}}.dump());
    EXPECT_EQ(r.status, 400) << password << " " << r.body;
    EXPECT_EQ(json::parse(r.body)["details"][0]["field"], "password") << password;
  }
  HttpResult own = Post("/console/api/signup", json{{"email", email}, {"password", email}}.dump());
  EXPECT_EQ(json::parse(own.body)["details"][0]["message"], "must not be your e-mail address");
  HttpResult common =
      Post("/console/api/signup", json{{"email", email}, {"password", "password1234"}}.dump());
  EXPECT_EQ(json::parse(common.body)["details"][0]["message"],
            "is one of the most used passwords; choose another");
  EXPECT_EQ(Post("/console/api/signup",
                 json{{"email", email}, {"password", "violet tractor harbour"}}.dump())
                .status,
            201);
}

TEST(ConsoleSignupThrottleTest, SignUpsAreLimitedPerAddress) {
  auto env = ConsoleGatewayEnv();
  env["DQ_SIGNUPS_PER_ADDRESS"] = "3";
  Stack stack(StackOptions{1, false, env});
  for (int i = 0; i < 3; ++i) ConsoleUser::SignUp(stack.GatewayUrl(), "Shop", false);
  HttpResult r = Http("POST", stack.GatewayUrl() + "/console/api/signup",
                      {{"Content-Type", "application/json"}},
                      json{{"email", "fourth@example.com"}, {"password", "violet tractor harbour"}}
                          .dump());
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(ErrorCode(r), "too_many_requests");
  EXPECT_FALSE(r.Header("retry-after").empty());
}

}  // namespace
}  // namespace dq::testing
