#include "console_api.h"

#include <algorithm>

#include "dq/http/cookies.h"
#include "dq/http/error_response.h"
#include "dq/http/json_body.h"
#include "dq/http/json_util.h"
#include "credentials.h"
#include "password_policy.h"
#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "dq/common/time_format.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

constexpr size_t kMaxLabelChars = 100;

Status LoginRequired() {
  return Status(ErrorCode::kLoginRequired, "Sign in to the console first.");
}

json Nullable(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json KeyJson(const ApiKeyInfo& k) {
  return {{"key_id", k.key_id},
          {"label", k.label},
          {"prefix", k.prefix},
          {"created_at", k.created_at},
          {"last_used_at", Nullable(k.last_used_at)},
          {"revoked_at", Nullable(k.revoked_at)}};
}

}  // namespace

Result<ConsolePrincipal> ConsoleApi::Authenticate(const http::HttpRequest& request) {
  const std::string* header = request.Header("cookie");
  if (header == nullptr) return LoginRequired();
  auto id = http::CookieValue(*header, http::SessionCookieName(options_.secure_cookie));
  if (!id || id->empty()) return LoginRequired();
  auto session = deps_.sessions.Find(*id);
  if (!session.ok()) return session.status();
  if (!session->has_value()) return LoginRequired();
  auto account = deps_.accounts.GetAccount((*session)->account_id);
  if (!account.ok()) {
    return account.status().code() == ErrorCode::kNotFound ? LoginRequired() : account.status();
  }
  return ConsolePrincipal{Principal{std::move(*account), ""}, std::move(**session)};
}

Status ConsoleApi::CheckCsrf(const http::HttpRequest& request, const Session& session) {
  const std::string* token = request.Header("x-csrf-token");
  if (token == nullptr || session.csrf_token.empty() ||
      !ConstantTimeEquals(*token, session.csrf_token)) {
    return Status(ErrorCode::kCsrfFailed,
                  "Send the session's csrf_token (from GET /console/api/me) in the X-CSRF-Token "
                  "header.");
  }
  return Status::Ok();
}

Result<json> ConsoleApi::MeJson(const Account& account, const Session& session) {
  auto user = deps_.users.Get(account.id);
  if (!user.ok()) return user.status();
  auto usage = deps_.quota.Usage(account);
  if (!usage.ok()) return usage.status();
  // From a whole second, so the renewal is exactly midnight on the 1st (not 23:59:59 the day before).
  const auto now = std::chrono::floor<std::chrono::seconds>(deps_.clock.Now());
  const auto resets = now + std::chrono::seconds(SecondsUntilNextMonth(now));
  const User u = user->value_or(User{});
  return json{{"account_id", account.id},
              {"email", u.email},
              {"name", u.name.empty() ? account.name : u.name},
              {"plan", std::string(PlanName(account.plan))},
              {"quota",
               {{"limit", usage->quota},
                {"used", usage->used},
                {"resets_at", FormatIso8601Millis(
                                  std::chrono::time_point_cast<std::chrono::seconds>(resets))}}},
              {"email_verified", u.verified},
              {"csrf_token", session.csrf_token}};
}

http::HttpResponse ConsoleApi::WithNewSession(int status, const Account& account) {
  auto session = deps_.sessions.Create(account.id);
  if (!session.ok()) return http::ErrorResponse(session.status());
  auto body = MeJson(account, *session);
  if (!body.ok()) return http::ErrorResponse(body.status());
  http::HttpResponse r = http::JsonResponse(status, http::DumpJson(*body));
  r.SetHeader("Set-Cookie", http::SessionCookieHeader(session->id, options_.session_max.count(),
                                                      options_.secure_cookie));
  r.SetHeader("Cache-Control", "no-store");
  return r;
}

http::HttpResponse ConsoleApi::Signup(const http::HttpRequest& request) {
  // Sign-ups are limited per client address like requests without a key...
  if (options_.rate_limiting) {
    auto d = deps_.limiter.Acquire("ip_" + request.client_ip, RateClass::kAnonymous);
    if (!d.ok()) return http::ErrorResponse(d.status());
    if (!d->allowed) {
      http::HttpResponse r = http::ErrorResponse(
          Status(ErrorCode::kTooManyRequests, "Too many requests from this address; retry after " +
                                                  std::to_string(d->retry_after) + " s."));
      r.SetHeader("Retry-After", std::to_string(d->retry_after));
      return r;
    }
  }
  // ...and counted per address over a longer window, as sign-ins are.
  auto wait = deps_.throttle.CountSignup(request.client_ip);
  if (!wait.ok()) return http::ErrorResponse(wait.status());
  if (*wait > 0) {
    http::HttpResponse r = http::ErrorResponse(Status(
        ErrorCode::kTooManyRequests,
        "Too many sign-ups from this address; retry after " + std::to_string(*wait) + " s."));
    r.SetHeader("Retry-After", std::to_string(*wait));
    return r;
  }
  auto body = http::ParseJsonObjectBody(request);
  if (!body.ok()) return http::ErrorResponse(body.status());
  auto form = ParseSignup(*body);
  if (!form.ok()) return http::ErrorResponse(form.status());
  if (Status s = CheckPasswordChoice(form->password, form->email); !s.ok()) {
    return http::ErrorResponse(s);
  }
  auto hash = deps_.hasher.Hash(form->password);
  if (!hash.ok()) return http::ErrorResponse(hash.status());
  auto account = deps_.accounts.CreateAccount(Plan::kFree, form->name);
  if (!account.ok()) return http::ErrorResponse(account.status());
  User user{account->id, form->email, form->name, *hash, account->created_at, false};
  Status created = deps_.users.Create(user);
  const std::string console = options_.base_url + "/console/";
  MailMessage mail;
  mail.to = form->email;
  if (created.ok()) {
    auto token = deps_.users.NewVerifyToken(account->id, options_.verify_ttl);
    if (!token.ok()) return http::ErrorResponse(token.status());
    mail.subject = "Confirm your e-mail address for dq";
    mail.text = "Welcome to dq.\n\nTo confirm that this address is yours, open this link within " +
                std::to_string(options_.verify_ttl.count() / 3600) + " hours:\n\n" +
                options_.base_url + "/console/verify#token=" + *token +
                "\n\nUntil then you can upload and check files on the free plan; setting a "
                "webhook and getting an API key wait for the confirmation.\n\nIf you did not "
                "sign up, ignore this message.\n";
  } else if (created.code() == ErrorCode::kEmailTaken) {
    // The answer is the same as for a new address, so a sign-up never tells whether an address
    // is registered. The new account works, but its user claims no e-mail: nobody can sign in to
    // it by that address or verify it. The address's owner hears about it.
    if (Status s = deps_.users.CreateUnclaimed(user); !s.ok()) return http::ErrorResponse(s);
    mail.subject = "Someone tried to sign up to dq with your address";
    mail.text = "Someone (perhaps you) tried to open a dq account with this e-mail address, "
                "which already has one.\n\nIf it was you, sign in at " + console +
                "login instead.\nIf it was not you, ignore this message: nothing was changed "
                "on your account.\n";
    log::Info("console sign-up with a registered address", {{"account_id", account->id}});
  } else {
    return http::ErrorResponse(created);
  }
  if (Status s = deps_.mailer.Send(mail); !s.ok()) {
    log::Warn("sign-up mail not sent", {{"account_id", account->id}, {"error", s.message()}});
  }
  log::Info("console sign-up", {{"account_id", account->id}});
  return WithNewSession(201, *account);
}

http::HttpResponse ConsoleApi::VerifyEmail(const http::HttpRequest& request) {
  if (options_.rate_limiting) {
    auto d = deps_.limiter.Acquire("ip_" + request.client_ip, RateClass::kAnonymous);
    if (!d.ok()) return http::ErrorResponse(d.status());
    if (!d->allowed) {
      http::HttpResponse r = http::ErrorResponse(
          Status(ErrorCode::kTooManyRequests, "Too many requests from this address; retry after " +
                                                  std::to_string(d->retry_after) + " s."));
      r.SetHeader("Retry-After", std::to_string(d->retry_after));
      return r;
    }
  }
  auto body = http::ParseJsonObjectBody(request);
  if (!body.ok()) return http::ErrorResponse(body.status());
  auto token = http::StringField(*body, "token", true, 200);
  if (!token.ok()) return http::ErrorResponse(token.status());
  auto account = deps_.users.Verify(**token);
  if (!account.ok()) return http::ErrorResponse(account.status());
  if (!account->has_value()) {
    return http::ErrorResponse(
        Status(ErrorCode::kInvalidRequest,
               "This confirmation link is not valid: it has expired or was used "
               "already.",
               {{"token", "unknown or expired"}}));
  }
  log::Info("console e-mail verified", {{"account_id", **account}});
  http::HttpResponse r = http::JsonResponse(200, http::DumpJson(json{{"email_verified", true}}));
  r.SetHeader("Cache-Control", "no-store");
  return r;
}

Status ConsoleApi::RequireVerified(const ConsolePrincipal& who) {
  auto user = deps_.users.Get(who.principal.account.id);
  if (!user.ok()) return user.status();
  if (!user->has_value() || (*user)->verified) return Status::Ok();
  return Status(ErrorCode::kEmailUnverified,
                "Confirm your e-mail address first: open the link in the mail we sent to " +
                    (*user)->email +
                    ". Until then you can upload and check files, but not set a webhook or get "
                    "an API key.");
}

http::HttpResponse ConsoleApi::Login(const http::HttpRequest& request) {
  auto body = http::ParseJsonObjectBody(request);
  if (!body.ok()) return http::ErrorResponse(body.status());
  auto form = ParseLogin(*body);
  if (!form.ok()) return http::ErrorResponse(form.status());
  // Counted first, atomically; the password is checked only within the limit (login_throttle.h).
  std::string device;
  if (const std::string* cookie = request.Header("cookie")) {
    device =
        http::CookieValue(*cookie, http::DeviceCookieName(options_.secure_cookie)).value_or("");
  }
  auto attempt = deps_.throttle.Begin(form->email, request.client_ip, device);
  if (!attempt.ok()) return http::ErrorResponse(attempt.status());
  if (attempt->retry_after > 0) {
    http::HttpResponse r = http::ErrorResponse(Status(
        ErrorCode::kTooManyRequests,
        "Too many failed sign-ins for this e-mail address or from this address; retry after " +
            std::to_string(attempt->retry_after) + " s."));
    r.SetHeader("Retry-After", std::to_string(attempt->retry_after));
    return r;
  }
  auto user = deps_.users.FindByEmail(form->email);
  if (!user.ok()) return http::ErrorResponse(user.status());
  // An unknown e-mail costs one argon2 verification too, so timing tells nothing.
  const bool ok = user->has_value() ? deps_.hasher.Verify((*user)->password_hash, form->password)
                                    : deps_.hasher.VerifyDummy(form->password);
  std::optional<Account> account;
  if (ok) {
    auto a = deps_.accounts.GetAccount((*user)->account_id);
    if (a.ok()) {
      account = std::move(*a);
    } else if (a.status().code() != ErrorCode::kNotFound) {
      return http::ErrorResponse(a.status());
    }
  }
  if (!account) {
    // The failure is already counted.
    return http::ErrorResponse(
        Status(ErrorCode::kInvalidCredentials, "The e-mail address or the password is wrong."));
  }
  if (Status s = deps_.throttle.Succeeded(form->email, *attempt); !s.ok()) {
    log::Warn("a sign-in's count could not be taken back", {{"error", s.message()}});
  }
  http::HttpResponse r = WithNewSession(200, *account);
  if (r.status == 200 && !attempt->trusted_device) {
    // This browser is now known for this e-mail: guesses from elsewhere cannot lock it out.
    auto token = deps_.throttle.IssueDevice(form->email);
    if (token.ok()) {
      r.headers.emplace_back(
          "Set-Cookie",
          http::DeviceCookieHeader(*token, options_.device_max.count(), options_.secure_cookie));
    } else {
      log::Warn("no device cookie issued", {{"error", token.status().message()}});
    }
  }
  return r;
}

http::HttpResponse ConsoleApi::Logout(const ConsolePrincipal& who) {
  if (Status s = deps_.sessions.Delete(who.session.id); !s.ok()) return http::ErrorResponse(s);
  http::HttpResponse r;
  r.status = 204;
  r.SetHeader("Set-Cookie", http::SessionCookieHeader("", 0, options_.secure_cookie));
  return r;
}

http::HttpResponse ConsoleApi::Me(const ConsolePrincipal& who) {
  auto body = MeJson(who.principal.account, who.session);
  if (!body.ok()) return http::ErrorResponse(body.status());
  http::HttpResponse r = http::JsonResponse(200, http::DumpJson(*body));
  r.SetHeader("Cache-Control", "no-store");
  return r;
}

http::HttpResponse ConsoleApi::ListKeys(const ConsolePrincipal& who) {
  auto keys = deps_.accounts.ListKeys(who.principal.account.id);
  if (!keys.ok()) return http::ErrorResponse(keys.status());
  std::sort(keys->begin(), keys->end(), [](const ApiKeyInfo& a, const ApiKeyInfo& b) {
    return a.created_at != b.created_at ? a.created_at > b.created_at : a.key_id < b.key_id;
  });
  json list = json::array();
  for (const auto& k : *keys) list.push_back(KeyJson(k));
  return http::JsonResponse(200, http::DumpJson(list));
}

http::HttpResponse ConsoleApi::CreateKey(const http::HttpRequest& request,
                                         const ConsolePrincipal& who) {
  const Account& account = who.principal.account;
  // The plan first: a free account is told what would let it have a key at all, before being
  // asked to confirm its address.
  if (!PlanHasApiAccess(account.plan)) {
    return http::ErrorResponse(
        Status(ErrorCode::kProRequired,
               "API keys need the Pro, Business or Agency plan; this account is "
               "on " +
                   std::string(PlanName(account.plan)) + ". Ask us to upgrade the account."));
  }
  if (Status s = RequireVerified(who); !s.ok()) return http::ErrorResponse(s);
  auto body = http::ParseJsonObjectBody(request, true);
  if (!body.ok()) return http::ErrorResponse(body.status());
  auto label = http::StringField(*body, "label", false, kMaxLabelChars);
  if (!label.ok()) return http::ErrorResponse(label.status());
  auto created = deps_.accounts.CreateKey(account.id, label->value_or(""));
  if (!created.ok()) return http::ErrorResponse(created.status());
  json j = KeyJson(ApiKeyInfo{created->key_id, "", created->created_at, "",
                              label->value_or(""), KeyPrefix(created->api_key), ""});
  j["api_key"] = created->api_key;
  http::HttpResponse r = http::JsonResponse(201, http::DumpJson(j));
  r.SetHeader("Cache-Control", "no-store");
  return r;
}

http::HttpResponse ConsoleApi::RevokeKey(const ConsolePrincipal& who, const std::string& key_id) {
  if (Status s = deps_.accounts.RevokeKey(who.principal.account.id, key_id); !s.ok()) {
    if (s.code() == ErrorCode::kNotFound) {
      return http::ErrorResponse(Status(ErrorCode::kNotFound, "There is no key " + key_id + "."));
    }
    return http::ErrorResponse(s);
  }
  http::HttpResponse r;
  r.status = 204;
  return r;
}

}  // namespace dq::gateway
