#include "dq/http/cookies.h"
#include "dq/common/ascii.h"

namespace dq::http {
std::optional<std::string> CookieValue(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const size_t semi = header.find(';');
    std::string_view pair = ascii::Trim(header.substr(0, semi));
    header = semi == std::string_view::npos ? std::string_view() : header.substr(semi + 1);
    const size_t eq = pair.find('=');
    if (eq == std::string_view::npos) continue;
    if (ascii::Trim(pair.substr(0, eq)) != name) continue;
    std::string_view value = ascii::Trim(pair.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    return std::string(value);
  }
  return std::nullopt;
}

std::string SessionCookieName(bool secure) {
  return (secure ? "__Host-" : "") + std::string(kSessionCookie);
}

std::string DeviceCookieName(bool secure) {
  return (secure ? "__Host-" : "") + std::string(kDeviceCookie);
}

namespace {

std::string CookieHeader(const std::string& name, std::string_view value, int64_t max_age,
                         bool secure) {
  std::string out = name;
  out += '=';
  out += value;
  out += "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + std::to_string(max_age);
  if (secure) out += "; Secure";
  return out;
}

}  // namespace

std::string SessionCookieHeader(std::string_view value, int64_t max_age_seconds, bool secure) {
  return CookieHeader(SessionCookieName(secure), value, max_age_seconds, secure);
}

std::string DeviceCookieHeader(std::string_view value, int64_t max_age_seconds, bool secure) {
  return CookieHeader(DeviceCookieName(secure), value, max_age_seconds, secure);
}

}  // namespace dq::http
