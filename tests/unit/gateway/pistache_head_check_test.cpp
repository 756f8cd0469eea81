// Pistache's verdict on heads the edge accepts, found with Pistache's own code: what its parser
// would answer by itself in plain text (or with 500) is named here, so the edge answers instead.
#include "dq/http/pistache_head_check.h"

#include <gtest/gtest.h>

namespace dq::http {
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
}  // namespace dq::http

#include <pistache/http.h>

namespace dq::http {
namespace {

// What Pistache's whole request parser makes of a head, as the edge forwards it.
bool PistacheAccepts(const std::string& block) {
  const std::string bare = edge::HeadWithoutBody(block);
  Pistache::Http::Private::ParserImpl<Pistache::Http::Request> parser(bare.size() + 1);
  try {
    parser.feed(bare.data(), bare.size());
    parser.parse();
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

TEST(PistacheHeadVerdictTest, AgreesWithPistachesWholeParser) {
  const char* headers[] = {
      "Date: notadate", "Date: ", "Date: Sun, 06 Nov 1994 08:49:37 GMT",
      "Date: Sunday, 06-Nov-94 08:49:37 GMT", "Date: Sun Nov  6 08:49:37 1994",
      "Date: 2026-11-26T10:00:00Z", "Date:\tSun, 06 Nov 1994 08:49:37 GMT",
      "Date: Sun, 06 Nov 1994 08:49:37 GMT  ", "DATE: notadate",
      "Cache-Control: max-age=abc", "Cache-Control: max-age=", "Cache-Control: max-age",
      "Cache-Control: max-age=99999999999999999999999", "Cache-Control: max-age=-1",
      "Cache-Control: no-cache,", "Cache-Control: ,,,", "Cache-Control: s-maxage=x",
      "Cache-Control: bogus-directive", "cache-control: no-cache, max-age=0",
      "Accept: ;;;", "Accept: text/html;q=abc", "Accept: */*;q=", "Accept: /", "Accept: text",
      "Accept: a/b/c", "Accept: \xff/\xfe", "Accept: application/json, text/*;q=0.5",
      "Connection: bogus", "Connection: ", "Connection: close, upgrade",
      "Expect: 100-continue", "Expect: bogus", "Expect: ",
      "Host: ", "Host: a:b:c", "Host: [::1", "Host: [::1]:80", "Host: example.com:99999999",
      "Host: \xff\xfe", "Host: exa mple.com", "Host: example.com:",
      "Authorization: Basic !!!", "Authorization: Basic", "Authorization: Bearer x",
      "User-Agent: \xff\xfe", "Content-Type: ", "Content-Type: application",
      "Content-Type: /", "Content-Type: application/json; charset=",
      "Content-Type: application/json; =;;=", "Content-Type: \xff/\xfe",
      "Content-Type: multipart/form-data", "Content-Encoding: bogus", "Content-Encoding: ",
      "Cookie: c", "Cookie: a=b; c", "Cookie: a=b;;c=d", "Cookie: =b", "Cookie: \xff=\xfe; ;;=;",
      "Set-Cookie: c", "Set-Cookie: a=b; Max-Age=abc", "Set-Cookie: a=b; Expires=never",
      "Location: \xff", "Server: \xff", "Allow: GET, x", "Access-Control-Allow-Origin: *",
      "X-Request-Id: \xff\xfe",
  };
  int refused = 0;
  for (const char* header : headers) {
    for (const std::string& method : {std::string("GET"), std::string("POST")}) {
      const std::string block = method + " /v1/usage?a=1&b HTTP/1.1\r\n" + header +
                                (method == "POST" ? "\r\nContent-Length: 5" : "") + "\r\n\r\n";
      auto head = edge::ParseRequestHead(block);
      if (!head.ok()) continue;  // the edge refuses it itself
      const bool ours = PistacheHeadVerdict(block, *head).ok();
      EXPECT_EQ(ours, PistacheAccepts(block)) << block;
      refused += ours ? 0 : 1;
    }
  }
  EXPECT_GT(refused, 20);  // the list does exercise refusals
}

}  // namespace
}  // namespace dq::http
