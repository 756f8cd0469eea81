// SSRF protection: which network addresses and which URLs a webhook may target.
//
// A webhook URL is chosen by a customer, so without these checks the notifier could be made to
// POST into our own network (Redis, the metadata service, admin ports). Two layers:
//   1. ValidateWebhookUrl: the URL's shape (https unless http is allowed, a host, no userinfo).
//   2. ClassifyAddress: the address curl is about to connect to, checked in the socket-open
//      callback (see curl_http_sender.cpp), so DNS rebinding cannot slip past a check made on an
//      earlier resolution.
// Both are pure and thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "dq/common/status.h"

struct sockaddr;

namespace dq::webhook {

enum class AddressClass {
  kPublic,
  kUnspecified,    // 0.0.0.0/8, ::
  kLoopback,       // 127/8, ::1
  kPrivate,        // 10/8, 172.16/12, 192.168/16, fc00::/7
  kCgnat,          // 100.64/10
  kLinkLocal,      // 169.254/16, fe80::/10
  kMetadata,       // 169.254.169.254, fd00:ec2::254
  kMulticast,      // 224/4, ff00::/8
  kBroadcast,      // 255.255.255.255
  kDocumentation,  // 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32
  kReserved,       // 192.0.0/24, 198.18/15 (benchmarking), 240/4, other special IPv6 ranges
  kInvalid,        // not an IPv4 or IPv6 address
};

std::string_view AddressClassName(AddressClass c);

// Textual IPv4 ("10.0.0.1") or IPv6 ("::1", "[::1]" also accepted). IPv4-mapped IPv6
// (::ffff:a.b.c.d) and NAT64 (64:ff9b::/96) addresses are classified by their embedded IPv4.
AddressClass ClassifyAddress(std::string_view ip);
// The same for a socket address (AF_INET or AF_INET6; anything else is kInvalid).
AddressClass ClassifyAddress(const struct sockaddr* addr);

// True when a delivery may connect to an address of this class.
inline bool IsPublic(AddressClass c) { return c == AddressClass::kPublic; }

struct UrlPolicy {
  bool allow_http = false;     // DQ_WEBHOOK_ALLOW_HTTP
  bool allow_private = false;  // DQ_WEBHOOK_ALLOW_PRIVATE
};

struct WebhookUrl {
  std::string scheme;  // "https" or "http", lowercase
  std::string host;    // without brackets for IPv6
  int port = 0;        // explicit or the scheme's default
};

// Checks a webhook URL's shape. Errors (kInvalidRequest, messages are exact and tested):
//   "webhook URL must start with https://" (or "http:// or https://" when http is allowed),
//   "webhook URL must not contain user information", "webhook URL has no host",
//   "webhook URL has an invalid port", "webhook URL contains whitespace or control characters",
//   "webhook URL targets a refused address (<class>)" for an IP literal that is not public and
//   "webhook URL targets a refused host name" for localhost and metadata names, unless
//   allow_private.
Result<WebhookUrl> ValidateWebhookUrl(std::string_view url, const UrlPolicy& policy);

}  // namespace dq::webhook
