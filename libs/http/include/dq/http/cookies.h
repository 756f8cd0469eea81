// Cookies: reading one from a Cookie header, writing the console's session and device cookies.
// Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dq::http {

inline constexpr std::string_view kSessionCookie = "dq_session";
inline constexpr std::string_view kDeviceCookie = "dq_device";

// Served over https (secure), the names carry the __Host- prefix: a browser then accepts the
// cookie only from a secure origin, for the whole host (Path=/, no Domain), so a page on a
// sibling subdomain or plain http cannot set or shadow it. Over plain http (development,
// DQ_CONSOLE_ALLOW_HTTP=1) the prefix would make browsers refuse the cookie: the bare names.
std::string SessionCookieName(bool secure);  // "__Host-dq_session" or "dq_session"
std::string DeviceCookieName(bool secure);   // "__Host-dq_device" or "dq_device"

// The value of the first cookie called name in a Cookie header ("a=1; b=2"), or nullopt.
std::optional<std::string> CookieValue(std::string_view header, std::string_view name);

// "<name>=<value>; Path=/; HttpOnly; SameSite=Strict; Max-Age=<n>[; Secure]". An empty value
// with max_age 0 deletes the cookie.
std::string SessionCookieHeader(std::string_view value, int64_t max_age_seconds, bool secure);
std::string DeviceCookieHeader(std::string_view value, int64_t max_age_seconds, bool secure);

}  // namespace dq::http
