#include "console_client.h"

#include <atomic>
#include <cstdlib>
#include <stdexcept>

#include "dq/common/crypto.h"

namespace dq::testing {

using nlohmann::json;

std::map<std::string, std::string> ConsoleGatewayEnv() {
  return {{"DQ_CONSOLE_ALLOW_HTTP", "1"},       {"DQ_ARGON2_MEMORY_KIB", "1024"},
          {"DQ_ARGON2_TIME_COST", "1"},         {"DQ_RATE_LIMIT_ANONYMOUS", "100000"},
          {"DQ_WEBHOOK_ALLOW_HTTP", "1"},       {"DQ_WEBHOOK_ALLOW_PRIVATE", "1"},
          {"DQ_WEBHOOK_TIMEOUT_MS", "3000"},    {"DQ_WEBHOOK_RETRY_BASE_MS", "600000"},
          {"DQ_WEBHOOK_RETRY_MAX_DELAY_MS", "600000"}};
}

std::string CookiePair(const std::string& set_cookie) {
  return set_cookie.substr(0, set_cookie.find(';'));
}

std::string ErrorCode(const HttpResult& r) {
  const json j = json::parse(r.body, nullptr, false);
  return j.is_object() && j.contains("error") ? j["error"].get<std::string>() : "<no error>";
}

ConsoleUser ConsoleUser::SignUp(const std::string& base, const std::string& name) {
  ConsoleUser u;
  u.base = base;
  u.email = "user-" + RandomBase62(10) + "@example.com";
  u.password = "correct horse battery staple";
  HttpResult r = Http("POST", base + "/console/api/signup",
                      {{"Content-Type", "application/json"}},
                      json{{"email", u.email}, {"password", u.password}, {"name", name}}.dump());
  if (r.status != 201) throw std::runtime_error("sign-up answered " + r.body);
  const json body = json::parse(r.body);
  u.account_id = body["account_id"];
  u.csrf = body["csrf_token"];
  u.cookie = CookiePair(r.Header("set-cookie"));
  return u;
}

HttpResult ConsoleUser::Call(const std::string& method, const std::string& path,
                             const std::string& body, bool csrf,
                             std::map<std::string, std::string> headers) const {
  headers.emplace("Cookie", cookie);
  if (csrf) headers.emplace("X-CSRF-Token", this->csrf);
  if (!body.empty()) headers.emplace("Content-Type", "application/json");
  return Http(method, base + path, headers, body);
}

int Dqctl(Stack& stack, const std::string& args) {
  const std::string cmd = "env -u DQ_REDIS_HOST DQ_REDIS_PORT=" +
                          std::to_string(stack.redis().port()) + " " DQ_DQCTL_BIN " " + args +
                          " >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  return WEXITSTATUS(status);
}

}  // namespace dq::testing
