// The console's own endpoints: sign-up, sign-in, sign-out, the signed-in user, and API keys.
// Everything else under /console/api (jobs, webhook) is the same handler as under /v1; the
// Gateway puts session authentication in front of it (see gateway.h).
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>

#include "auth/authenticator.h"
#include "dq/http/http_types.h"
#include "limits/quota.h"
#include "limits/rate_limiter.h"
#include "dq/common/account_store.h"
#include "dq/common/clock.h"
#include "login_throttle.h"
#include "mailer.h"
#include "password_hasher.h"
#include "session_store.h"
#include "user_store.h"

namespace dq::gateway {

struct ConsoleOptions {
  bool secure_cookie = true;                      // false only with DQ_CONSOLE_ALLOW_HTTP=1
  std::chrono::seconds session_max{7 * 24 * 3600};  // the cookie's Max-Age
  std::chrono::seconds device_max{90 * 24 * 3600};  // the device cookie's Max-Age
  std::string base_url;  // DQ_CONSOLE_BASE_URL: the console's public origin, for mailed links
  std::chrono::seconds verify_ttl{48 * 3600};      // how long a verification link works
  bool rate_limiting = true;
};

struct ConsoleDeps {
  AccountStore& accounts;
  UserStore& users;
  SessionStore& sessions;
  LoginThrottle& throttle;
  const PasswordHasher& hasher;
  QuotaService& quota;
  RateLimiter& limiter;
  const Clock& clock;
  Mailer& mailer;
};

// A request that carried a live session cookie.
struct ConsolePrincipal {
  Principal principal;  // key_id empty
  Session session;
};

class ConsoleApi {
 public:
  ConsoleApi(ConsoleDeps deps, ConsoleOptions options) : deps_(deps), options_(options) {}

  // The session in the dq_session cookie and its account. Errors: 401 login_required (no cookie,
  // unknown or expired session, account gone), 503.
  Result<ConsolePrincipal> Authenticate(const http::HttpRequest& request);
  // 403 csrf_failed unless X-CSRF-Token equals the session's token.
  static Status CheckCsrf(const http::HttpRequest& request, const Session& session);

  // Sign-up (docs/api.md): the same 201 answer whether or not the address was taken (the mail
  // goes to the address either way: a verification link, or a notice to its owner).
  http::HttpResponse Signup(const http::HttpRequest& request);
  // POST /console/api/verify {token}: the link in the sign-up mail. No session needed.
  http::HttpResponse VerifyEmail(const http::HttpRequest& request);
  // kEmailUnverified when the account's console user has not verified its e-mail address (the
  // console's key creation and webhook settings need it).
  Status RequireVerified(const ConsolePrincipal& who);
  http::HttpResponse Login(const http::HttpRequest& request);
  http::HttpResponse Logout(const ConsolePrincipal& who);
  http::HttpResponse Me(const ConsolePrincipal& who);
  http::HttpResponse ListKeys(const ConsolePrincipal& who);
  http::HttpResponse CreateKey(const http::HttpRequest& request, const ConsolePrincipal& who);
  http::HttpResponse RevokeKey(const ConsolePrincipal& who, const std::string& key_id);

 private:
  // {account_id, email, name, plan, quota, csrf_token} for a response body.
  Result<nlohmann::json> MeJson(const Account& account, const Session& session);
  http::HttpResponse WithNewSession(int status, const Account& account);

  ConsoleDeps deps_;
  ConsoleOptions options_;
};

}  // namespace dq::gateway
