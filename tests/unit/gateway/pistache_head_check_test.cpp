// Pistache's verdict on heads the edge accepts, found with Pistache's own code: what its parser
// would answer by itself in plain text (or with 500) is named here, so the edge answers instead.
#include "http/pistache/pistache_head_check.h"

#include <gtest/gtest.h>

namespace dq::gateway {
namespace {

Status Verdict(const std::string& block) {
  auto head = edge::ParseRequestHead(block);
  EXPECT_TRUE(head.ok()) << block;
  if (!head.ok()) return head.status();
  return PistacheHeadVerdict(block, *head);
}

std::string With(const std::string& header) {
  return "GET /v1/usage HTTP/1.1\r\n" + header + "\r\n\r\n";
}

TEST(PistacheHeadVerdictTest, AcceptsOrdinaryHeads) {
  EXPECT_TRUE(Verdict(With("Accept: application/json")).ok());
  EXPECT_TRUE(Verdict(With("Date: Sun, 06 Nov 1994 08:49:37 GMT")).ok());
  EXPECT_TRUE(Verdict(With("Cache-Control: no-cache, max-age=0")).ok());
  EXPECT_TRUE(Verdict(With("Cookie: a=b; c=d")).ok());
  EXPECT_TRUE(Verdict(With("X-Anything: \xff\xfe")).ok());
  EXPECT_TRUE(Verdict("POST /v1/validate HTTP/1.1\r\nContent-Type: application/json\r\n"
                      "Content-Length: 17\r\n\r\n").ok());
  EXPECT_TRUE(Verdict("POST /v1/jobs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n").ok());
  for (const char* m : {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}) {
    EXPECT_TRUE(Verdict(std::string(m) + " / HTTP/1.1\r\n\r\n").ok()) << m;
  }
}

TEST(PistacheHeadVerdictTest, NamesTheHeaderPistacheWouldRefuse) {
  // Each of these made Pistache 0.0.5 answer by itself, in plain text; the 500s are marked.
  const std::pair<const char*, const char*> cases[] = {
      {"Date: notadate", "The Date header's value is malformed."},                    // 500
      {"Cache-Control: max-age=abc", "The Cache-Control header's value is malformed."},  // 500
      {"cache-control: bogus-directive", "The Cache-Control header's value is malformed."},
      {"Host: a:b:c", "The Host header's value is malformed."},                       // 500
      {"Host: example.com:99999999", "The Host header's value is malformed."},        // 500
      {"Accept: ;;;", "The Accept header's value is malformed."},
      {"Accept: text/html;q=abc", "The Accept header's value is malformed."},
      {"Content-Type: application", "The Content-Type header's value is malformed."},
      {"Cookie: c", "The Cookie header's value is malformed."},                       // 500
  };
  for (const auto& [header, message] : cases) {
    const Status s = Verdict(With(header));
    EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest) << header;
    EXPECT_EQ(s.message(), message) << header;
  }
}

TEST(PistacheHeadVerdictTest, RefusesMethodsPistacheDoesNotKnow) {
  const Status s = Verdict("PROPFIND /v1/usage HTTP/1.1\r\n\r\n");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(s.message(),
            "The method PROPFIND is not supported; use GET, HEAD, POST, PUT, PATCH, DELETE or "
            "OPTIONS.");
  EXPECT_EQ(Verdict("get / HTTP/1.1\r\n\r\n").code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(Verdict(std::string(300, 'M') + " / HTTP/1.1\r\n\r\n").message(),
            "The method " + std::string(40, 'M') +
                "... is not supported; use GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.");
}

}  // namespace
}  // namespace dq::gateway
