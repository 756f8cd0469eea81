// A console user for integration tests: signs up or in through the real gateway and keeps the
// session cookie and CSRF token, as the browser does.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "dq/testing/harness.h"
#include "stack.h"

namespace dq::testing {

// The gateway settings every console test uses: plain-http cookies, a cheap argon2id (the
// parameters are not what is tested), loopback webhook targets allowed.
std::map<std::string, std::string> ConsoleGatewayEnv();

struct ConsoleUser {
  std::string base;  // gateway URL
  std::string email;
  std::string password;
  std::string account_id;
  std::string cookie;  // "dq_session=…"
  std::string csrf;

  // Signs up a fresh user (a unique e-mail) and, unless verify is false, opens the link of its
  // verification mail (DQ_MAIL_TRANSPORT=file, MailDir()); throws on anything but 201 and 200.
  static ConsoleUser SignUp(const std::string& base, const std::string& name = "Test Shop",
                            bool verify = true);

  // A request with the session cookie and (unless csrf is false) the CSRF token.
  HttpResult Call(const std::string& method, const std::string& path,
                  const std::string& body = "", bool csrf = true,
                  std::map<std::string, std::string> headers = {}) const;
};

// Where the console's mail goes in these tests (one folder per test process), the newest message
// to an address (its whole text; "" when none), and the verification token in a message.
const std::string& MailDir();
std::string LastMailTo(const std::string& email);
std::string TokenIn(const std::string& mail);

// The cookie pair ("dq_session=…") from a Set-Cookie header.
std::string CookiePair(const std::string& set_cookie);
std::string ErrorCode(const HttpResult& r);
// dqctl against the stack's Redis; returns its exit status.
int Dqctl(Stack& stack, const std::string& args);

}  // namespace dq::testing
