#include "dq/webhook/address_policy.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>

namespace dq::webhook {
namespace {

using C = AddressClass;

struct AddressRow {
  const char* ip;
  AddressClass expected;
};

TEST(AddressPolicyTest, ClassifiesIpv4) {
  const AddressRow rows[] = {
      {"8.8.8.8", C::kPublic},          {"93.184.216.34", C::kPublic},
      {"0.0.0.0", C::kUnspecified},     {"0.1.2.3", C::kUnspecified},
      {"10.0.0.1", C::kPrivate},        {"10.255.255.255", C::kPrivate},
      {"100.63.255.255", C::kPublic},   {"100.64.0.1", C::kCgnat},
      {"100.127.255.255", C::kCgnat},   {"100.128.0.0", C::kPublic},
      {"127.0.0.1", C::kLoopback},      {"127.255.0.9", C::kLoopback},
      {"169.254.0.1", C::kLinkLocal},   {"169.254.169.254", C::kMetadata},
      {"172.15.255.255", C::kPublic},   {"172.16.0.1", C::kPrivate},
      {"172.31.255.255", C::kPrivate},  {"172.32.0.0", C::kPublic},
      {"192.0.0.8", C::kReserved},      {"192.0.2.1", C::kDocumentation},
      {"192.168.1.1", C::kPrivate},     {"198.18.0.1", C::kReserved},
      {"198.19.255.255", C::kReserved}, {"198.51.100.7", C::kDocumentation},
      {"203.0.113.9", C::kDocumentation}, {"224.0.0.1", C::kMulticast},
      {"239.255.255.250", C::kMulticast}, {"240.0.0.1", C::kReserved},
      {"255.255.255.255", C::kBroadcast},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.ip);
    EXPECT_EQ(ClassifyAddress(row.ip), row.expected);
  }
}

TEST(AddressPolicyTest, ClassifiesIpv6IncludingEmbeddedIpv4) {
  const AddressRow rows[] = {
      {"2606:4700:4700::1111", C::kPublic},
      {"::", C::kUnspecified},
      {"::1", C::kLoopback},
      {"[::1]", C::kLoopback},
      {"fc00::1", C::kPrivate},
      {"fd12:3456::1", C::kPrivate},
      {"fe80::1", C::kLinkLocal},
      {"febf::1", C::kLinkLocal},
      {"fec0::1", C::kPrivate},
      {"ff02::1", C::kMulticast},
      {"2001:db8::1", C::kDocumentation},
      {"fd00:ec2::254", C::kMetadata},
      {"::ffff:127.0.0.1", C::kLoopback},
      {"::ffff:7f00:1", C::kLoopback},
      {"::ffff:169.254.169.254", C::kMetadata},
      {"::ffff:10.1.2.3", C::kPrivate},
      {"::ffff:8.8.8.8", C::kPublic},
      {"64:ff9b::a9fe:a9fe", C::kMetadata},  // NAT64 of 169.254.169.254
      {"64:ff9b::808:808", C::kPublic},
      {"::127.0.0.1", C::kLoopback},  // deprecated IPv4-compatible form
      {"2002:7f00:1::", C::kReserved},  // 6to4 embedding 127.0.0.1
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.ip);
    EXPECT_EQ(ClassifyAddress(row.ip), row.expected);
  }
}

TEST(AddressPolicyTest, NonAddressesAreInvalid) {
  for (const char* s : {"", "example.com", "127.1", "0x7f.0.0.1", "2130706433", "1.2.3.4.5",
                        "::g", "[::1"}) {
    SCOPED_TRACE(s);
    EXPECT_EQ(ClassifyAddress(std::string_view(s)), C::kInvalid);
  }
}

TEST(AddressPolicyTest, ClassifiesSocketAddresses) {
  sockaddr_in v4{};
  v4.sin_family = AF_INET;
  inet_pton(AF_INET, "169.254.169.254", &v4.sin_addr);
  EXPECT_EQ(ClassifyAddress(reinterpret_cast<const sockaddr*>(&v4)), C::kMetadata);
  inet_pton(AF_INET, "1.1.1.1", &v4.sin_addr);
  EXPECT_EQ(ClassifyAddress(reinterpret_cast<const sockaddr*>(&v4)), C::kPublic);

  sockaddr_in6 v6{};
  v6.sin6_family = AF_INET6;
  inet_pton(AF_INET6, "::ffff:192.168.0.1", &v6.sin6_addr);
  EXPECT_EQ(ClassifyAddress(reinterpret_cast<const sockaddr*>(&v6)), C::kPrivate);

  sockaddr unix_addr{};
  unix_addr.sa_family = AF_UNIX;
  EXPECT_EQ(ClassifyAddress(&unix_addr), C::kInvalid);
  EXPECT_EQ(ClassifyAddress(static_cast<const sockaddr*>(nullptr)), C::kInvalid);
}

struct UrlRow {
  const char* name;
  const char* url;
  UrlPolicy policy;
  const char* error;  // nullptr: accepted
  const char* host;
  int port;
};

TEST(AddressPolicyTest, ValidatesWebhookUrls) {
  const UrlPolicy strict{false, false};
  const UrlPolicy http{true, false};
  const UrlPolicy dev{true, true};
  const UrlRow rows[] = {
      {"https", "https://hooks.example.com/x?y=1", strict, nullptr, "hooks.example.com", 443},
      {"https with port", "https://Example.COM:8443/", strict, nullptr, "example.com", 8443},
      {"ipv6 literal public", "https://[2606:4700::1]:9000/h", strict, nullptr, "2606:4700::1",
       9000},
      {"uppercase scheme", "HTTPS://example.com", strict, nullptr, "example.com", 443},
      {"http refused", "http://example.com/", strict, "webhook URL must start with https://",
       nullptr, 0},
      {"http allowed", "http://example.com/", http, nullptr, "example.com", 80},
      {"ftp refused", "ftp://example.com/", http,
       "webhook URL must start with http:// or https://", nullptr, 0},
      {"no scheme", "example.com/hook", strict, "webhook URL must start with https://", nullptr,
       0},
      {"userinfo", "https://user:pw@example.com/", strict,
       "webhook URL must not contain user information", nullptr, 0},
      {"userinfo trick", "https://example.com@10.0.0.1/", dev,
       "webhook URL must not contain user information", nullptr, 0},
      {"no host", "https:///path", strict, "webhook URL has no host", nullptr, 0},
      {"empty port", "https://example.com:/", strict, "webhook URL has an invalid port", nullptr,
       0},
      {"port zero", "https://example.com:0/", strict, "webhook URL has an invalid port", nullptr,
       0},
      {"port too big", "https://example.com:65536/", strict, "webhook URL has an invalid port",
       nullptr, 0},
      {"port not numeric", "https://example.com:ab/", strict, "webhook URL has an invalid port",
       nullptr, 0},
      {"whitespace", "https://example.com/a b", strict,
       "webhook URL contains whitespace or control characters", nullptr, 0},
      {"loopback literal", "https://127.0.0.1/", strict,
       "webhook URL targets a refused address (loopback)", nullptr, 0},
      {"metadata literal", "https://169.254.169.254/latest", strict,
       "webhook URL targets a refused address (metadata)", nullptr, 0},
      {"mapped ipv6 literal", "https://[::ffff:10.0.0.1]/", strict,
       "webhook URL targets a refused address (private)", nullptr, 0},
      {"localhost name", "https://localhost:8080/", strict,
       "webhook URL targets a refused host name", nullptr, 0},
      {"metadata name", "https://metadata.google.internal/", strict,
       "webhook URL targets a refused host name", nullptr, 0},
      {"loopback allowed in dev", "http://127.0.0.1:9999/hook", dev, nullptr, "127.0.0.1", 9999},
      {"localhost allowed in dev", "http://localhost:9999/", dev, nullptr, "localhost", 9999},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    auto r = ValidateWebhookUrl(row.url, row.policy);
    if (row.error == nullptr) {
      ASSERT_TRUE(r.ok()) << r.status().message();
      EXPECT_EQ(r->host, row.host);
      EXPECT_EQ(r->port, row.port);
    } else {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().code(), ErrorCode::kInvalidRequest);
      EXPECT_EQ(r.status().message(), row.error);
    }
  }
}

}  // namespace
}  // namespace dq::webhook
