#include "dq/webhook/address_policy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include "dq/common/ascii.h"

namespace dq::webhook {
namespace {

struct V4Range {
  uint32_t net;
  int prefix;
  AddressClass cls;
};

constexpr uint32_t Ip4(int a, int b, int c, int d) {
  return (static_cast<uint32_t>(a) << 24) | (static_cast<uint32_t>(b) << 16) |
         (static_cast<uint32_t>(c) << 8) | static_cast<uint32_t>(d);
}

// Most specific first: the first match wins.
constexpr std::array<V4Range, 18> kV4Ranges = {{
    {Ip4(169, 254, 169, 254), 32, AddressClass::kMetadata},
    {Ip4(255, 255, 255, 255), 32, AddressClass::kBroadcast},
    {Ip4(0, 0, 0, 0), 8, AddressClass::kUnspecified},
    {Ip4(10, 0, 0, 0), 8, AddressClass::kPrivate},
    {Ip4(100, 64, 0, 0), 10, AddressClass::kCgnat},
    {Ip4(127, 0, 0, 0), 8, AddressClass::kLoopback},
    {Ip4(169, 254, 0, 0), 16, AddressClass::kLinkLocal},
    {Ip4(172, 16, 0, 0), 12, AddressClass::kPrivate},
    {Ip4(192, 0, 0, 0), 24, AddressClass::kReserved},
    {Ip4(192, 0, 2, 0), 24, AddressClass::kDocumentation},
    {Ip4(192, 88, 99, 0), 24, AddressClass::kReserved},  // deprecated 6to4 relay anycast
    {Ip4(192, 168, 0, 0), 16, AddressClass::kPrivate},
    {Ip4(198, 18, 0, 0), 15, AddressClass::kReserved},
    {Ip4(198, 51, 100, 0), 24, AddressClass::kDocumentation},
    {Ip4(203, 0, 113, 0), 24, AddressClass::kDocumentation},
    {Ip4(224, 0, 0, 0), 4, AddressClass::kMulticast},
    {Ip4(240, 0, 0, 0), 4, AddressClass::kReserved},
    {Ip4(0, 0, 0, 0), 0, AddressClass::kPublic},
}};

AddressClass ClassifyV4(uint32_t ip) {
  for (const auto& r : kV4Ranges) {
    const uint32_t mask = r.prefix == 0 ? 0 : ~uint32_t{0} << (32 - r.prefix);
    if ((ip & mask) == (r.net & mask)) return r.cls;
  }
  return AddressClass::kPublic;
}

bool PrefixMatch(const uint8_t* a, const std::array<uint8_t, 16>& net, int prefix) {
  int full = prefix / 8;
  if (std::memcmp(a, net.data(), static_cast<size_t>(full)) != 0) return false;
  int rest = prefix % 8;
  if (rest == 0) return true;
  const uint8_t mask = static_cast<uint8_t>(0xff << (8 - rest));
  return (a[full] & mask) == (net[full] & mask);
}

std::array<uint8_t, 16> V6(std::string_view text) {
  std::array<uint8_t, 16> out{};
  std::string s(text);
  inet_pton(AF_INET6, s.c_str(), out.data());
  return out;
}

AddressClass ClassifyV6(const uint8_t* a) {
  static const std::array<uint8_t, 16> kZero{};
  static const auto kLoop = V6("::1");
  static const auto kMapped = V6("::ffff:0:0");
  static const auto kNat64 = V6("64:ff9b::");
  static const auto kMetadata = V6("fd00:ec2::254");
  static const auto kUla = V6("fc00::");
  static const auto kLinkLocal = V6("fe80::");
  static const auto kSiteLocal = V6("fec0::");
  static const auto kMulticast = V6("ff00::");
  static const auto kDoc = V6("2001:db8::");
  static const auto kTeredoEtc = V6("2001::");  // 2001::/23 IETF protocol assignments
  static const auto k6to4 = V6("2002::");
  static const auto kDiscard = V6("100::");

  if (PrefixMatch(a, kZero, 128)) return AddressClass::kUnspecified;
  if (PrefixMatch(a, kLoop, 128)) return AddressClass::kLoopback;
  if (PrefixMatch(a, kMapped, 96) || PrefixMatch(a, kNat64, 96) || PrefixMatch(a, kZero, 96)) {
    // IPv4-mapped, NAT64 or the deprecated IPv4-compatible form: judge the embedded IPv4.
    const uint32_t v4 = (static_cast<uint32_t>(a[12]) << 24) | (static_cast<uint32_t>(a[13]) << 16) |
                        (static_cast<uint32_t>(a[14]) << 8) | a[15];
    return ClassifyV4(v4);
  }
  if (PrefixMatch(a, kMetadata, 128)) return AddressClass::kMetadata;
  if (PrefixMatch(a, kUla, 7)) return AddressClass::kPrivate;
  if (PrefixMatch(a, kLinkLocal, 10)) return AddressClass::kLinkLocal;
  if (PrefixMatch(a, kSiteLocal, 10)) return AddressClass::kPrivate;
  if (PrefixMatch(a, kMulticast, 8)) return AddressClass::kMulticast;
  if (PrefixMatch(a, kDoc, 32)) return AddressClass::kDocumentation;
  if (PrefixMatch(a, kTeredoEtc, 23)) return AddressClass::kReserved;
  if (PrefixMatch(a, k6to4, 16)) return AddressClass::kReserved;  // embeds IPv4; refuse outright
  if (PrefixMatch(a, kDiscard, 64)) return AddressClass::kReserved;
  return AddressClass::kPublic;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool RefusedHostName(std::string_view host) {
  const std::string h = ascii::Lower(host);
  std::string_view v = h;
  while (!v.empty() && v.back() == '.') v.remove_suffix(1);  // "localhost." is localhost
  return v == "localhost" || EndsWith(v, ".localhost") || v == "metadata.google.internal" ||
         v == "metadata" || EndsWith(v, ".internal") || EndsWith(v, ".local") ||
         EndsWith(v, ".cluster.local") || v == "kubernetes.default.svc" || EndsWith(v, ".svc");
}

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidRequest, std::move(message));
}

}  // namespace

std::string_view AddressClassName(AddressClass c) {
  switch (c) {
    case AddressClass::kPublic: return "public";
    case AddressClass::kUnspecified: return "unspecified";
    case AddressClass::kLoopback: return "loopback";
    case AddressClass::kPrivate: return "private";
    case AddressClass::kCgnat: return "cgnat";
    case AddressClass::kLinkLocal: return "link-local";
    case AddressClass::kMetadata: return "metadata";
    case AddressClass::kMulticast: return "multicast";
    case AddressClass::kBroadcast: return "broadcast";
    case AddressClass::kDocumentation: return "documentation";
    case AddressClass::kReserved: return "reserved";
    case AddressClass::kInvalid: return "invalid";
  }
  return "invalid";
}

AddressClass ClassifyAddress(std::string_view ip) {
  if (ip.size() >= 2 && ip.front() == '[' && ip.back() == ']') ip = ip.substr(1, ip.size() - 2);
  if (ip.empty() || ip.size() > 64) return AddressClass::kInvalid;
  const std::string s(ip);
  in_addr v4{};
  if (inet_pton(AF_INET, s.c_str(), &v4) == 1) return ClassifyV4(ntohl(v4.s_addr));
  in6_addr v6{};
  if (inet_pton(AF_INET6, s.c_str(), &v6) == 1) return ClassifyV6(v6.s6_addr);
  return AddressClass::kInvalid;
}

AddressClass ClassifyAddress(const struct sockaddr* addr) {
  if (addr == nullptr) return AddressClass::kInvalid;
  if (addr->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(addr);
    return ClassifyV4(ntohl(in->sin_addr.s_addr));
  }
  if (addr->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(addr);
    return ClassifyV6(in6->sin6_addr.s6_addr);
  }
  return AddressClass::kInvalid;
}

Result<WebhookUrl> ValidateWebhookUrl(std::string_view url, const UrlPolicy& policy) {
  for (char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) {
      return Invalid("webhook URL contains whitespace or control characters");
    }
  }
  WebhookUrl out;
  const size_t colon = url.find("://");
  const std::string scheme = colon == std::string_view::npos ? "" : ascii::Lower(url.substr(0, colon));
  if (scheme == "https") {
    out.port = 443;
  } else if (scheme == "http" && policy.allow_http) {
    out.port = 80;
  } else {
    return Invalid(policy.allow_http ? "webhook URL must start with http:// or https://"
                                     : "webhook URL must start with https://");
  }
  out.scheme = scheme;
  std::string_view rest = url.substr(colon + 3);
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.find('@') != std::string_view::npos) {
    return Invalid("webhook URL must not contain user information");
  }
  std::string_view host = authority;
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return Invalid("webhook URL has no host");
    host = authority.substr(1, close - 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return Invalid("webhook URL has an invalid port");
      port_text = after.substr(1);
      if (port_text.empty()) return Invalid("webhook URL has an invalid port");
    }
  } else if (const size_t c = authority.rfind(':'); c != std::string_view::npos) {
    host = authority.substr(0, c);
    port_text = authority.substr(c + 1);
    if (port_text.empty()) return Invalid("webhook URL has an invalid port");
  }
  if (host.empty()) return Invalid("webhook URL has no host");
  if (!port_text.empty()) {
    if (port_text.size() > 5 || !std::all_of(port_text.begin(), port_text.end(),
                                             [](char c) { return c >= '0' && c <= '9'; })) {
      return Invalid("webhook URL has an invalid port");
    }
    const int port = std::stoi(std::string(port_text));
    if (port < 1 || port > 65535) return Invalid("webhook URL has an invalid port");
    out.port = port;
  }
  out.host = ascii::Lower(host);
  if (!policy.allow_private) {
    const AddressClass cls = ClassifyAddress(out.host);
    if (cls != AddressClass::kInvalid && !IsPublic(cls)) {
      return Invalid("webhook URL targets a refused address (" +
                     std::string(AddressClassName(cls)) + ")");
    }
    if (cls == AddressClass::kInvalid && RefusedHostName(out.host)) {
      return Invalid("webhook URL targets a refused host name");
    }
  }
  return out;
}

}  // namespace dq::webhook
