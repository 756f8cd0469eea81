// Cookies: reading one from a Cookie header, writing the console's session cookie. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dq::gateway {

inline constexpr std::string_view kSessionCookie = "dq_session";

// The value of the first cookie called name in a Cookie header ("a=1; b=2"), or nullopt.
std::optional<std::string> CookieValue(std::string_view header, std::string_view name);

// "dq_session=<value>; Path=/; HttpOnly; SameSite=Strict; Max-Age=<n>[; Secure]". An empty
// value with max_age 0 deletes the cookie.
std::string SessionCookieHeader(std::string_view value, int64_t max_age_seconds, bool secure);

}  // namespace dq::gateway
