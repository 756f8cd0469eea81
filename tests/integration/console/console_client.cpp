#include "console_client.h"

#include <cctype>
#include <filesystem>
#include <fstream>

#include <atomic>
#include <cstdlib>
#include <stdexcept>

#include "dq/common/crypto.h"

namespace dq::testing {

using nlohmann::json;

const std::string& MailDir() {
  static const std::string dir = TempDir();
  return dir;
}

std::string LastMailTo(const std::string& address) {
  std::string email = address;  // stored, and mailed, lower-cased
  for (char& c : email) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string found;
  std::string newest;
  for (const auto& entry : std::filesystem::directory_iterator(MailDir())) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".eml")) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    if (text.find("\r\nTo: " + email + "\r\n") == std::string::npos) continue;
    if (name > newest) {
      newest = name;
      found = text;
    }
  }
  return found;
}

std::string TokenIn(const std::string& mail) {
  const size_t at = mail.find("#token=");
  if (at == std::string::npos) return "";
  const size_t start = at + 7;
  size_t end = start;
  while (end < mail.size() && std::isalnum(static_cast<unsigned char>(mail[end]))) ++end;
  return mail.substr(start, end - start);
}

std::map<std::string, std::string> ConsoleGatewayEnv() {
  return {{"DQ_CONSOLE_ALLOW_HTTP", "1"},       {"DQ_ARGON2_MEMORY_KIB", "1024"},
          {"DQ_ARGON2_TIME_COST", "1"},         {"DQ_RATE_LIMIT_ANONYMOUS", "100000"},
          {"DQ_SIGNUPS_PER_ADDRESS", "100000"}, {"DQ_MAIL_TRANSPORT", "file"},
          {"DQ_MAIL_DIR", MailDir()},
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

ConsoleUser ConsoleUser::SignUp(const std::string& base, const std::string& name, bool verify) {
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
  if (verify) {
    const std::string token = TokenIn(LastMailTo(u.email));
    if (token.empty()) throw std::runtime_error("no verification mail to " + u.email);
    HttpResult v = Http("POST", base + "/console/api/verify", {{"Content-Type", "application/json"}},
                        json{{"token", token}}.dump());
    if (v.status != 200) throw std::runtime_error("verification answered " + v.body);
  }
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
