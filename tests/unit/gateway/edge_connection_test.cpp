// The edge in front of the HTTP parser, over a fake transport and a fake service: what is
// forwarded, what is answered at once, and what memory is reserved.
#include "dq/http/edge/edge_connection.h"

#include <gtest/gtest.h>

#include <optional>

namespace dq::http::edge {
namespace {

// Records what the edge did with the connection.
class FakeTransport final : public EdgeTransport {
 public:
  void Forward(std::string_view bytes) override {
    forwarded += bytes;
    ++forwards;
    if (on_forward) on_forward();
  }
  void ForwardRequest(std::string_view head, std::string body) override {
    requests.emplace_back(std::string(head), body);
    EdgeTransport::ForwardRequest(head, std::move(body));
  }
  void SendRaw(std::string bytes) override { sent += bytes; }
  void SendAndClose(const HttpResponse& response, const std::string& request_id) override {
    closed_with = response;
    closed_request_id = request_id;
  }
  std::string forwarded;
  std::vector<std::pair<std::string, std::string>> requests;  // ForwardRequest's head, body
  int forwards = 0;
  std::string sent;
  std::optional<HttpResponse> closed_with;
  std::string closed_request_id;
  std::function<void()> on_forward;
};

// Admits callers presenting "x-api-key: good"; answers edge errors with the status's code.
class FakeService final : public HttpService {
 public:
  HttpResponse Handle(const HttpRequest&) override { return HttpResponse{}; }
  std::optional<HttpResponse> Admit(const HttpRequest& head,
                                    std::optional<size_t> body_bytes) override {
    ++admits;
    last_head = head;
    last_size = body_bytes;
    const std::string* key = head.Header("x-api-key");
    if (key != nullptr && *key == "good") return std::nullopt;
    HttpResponse r;
    r.status = 401;
    r.body = "api_key_required";
    return r;
  }
  HttpResponse TransportError(const HttpRequest& head, const Status& status) override {
    HttpResponse r;
    r.status = status.code() == ErrorCode::kHeadersTooLarge    ? 431
               : status.code() == ErrorCode::kPayloadTooLarge ? 413
               : status.code() == ErrorCode::kUnavailable     ? 503
                                                               : 400;
    r.body = std::string(ErrorCodeName(status.code()));
    last_head = head;
    return r;
  }
  void Record(const ExchangeRecord& record) override {
    ++records;
    EXPECT_TRUE(record.refused_at_edge);
  }
  int admits = 0;
  int records = 0;
  HttpRequest last_head;
  std::optional<size_t> last_size;
};

class EdgeConnectionTest : public ::testing::Test {
 protected:
  EdgeConnectionTest() : budget_(1024 * 1024) {
    limits_.max_header_bytes = 1024;
    limits_.max_unauthenticated_body = 100;
    limits_.max_request_body = 10000;
    proxies_ = *TrustedProxies::Parse("10.0.0.0/8");
  }
  EdgeConnection Make(std::string peer = "192.0.2.7") {
    return EdgeConnection(transport_, service_, budget_, limits_, proxies_, std::move(peer), 0);
  }

  FakeTransport transport_;
  FakeService service_;
  EdgeLimits limits_;
  BodyBudget budget_;
  TrustedProxies proxies_;
};

TEST_F(EdgeConnectionTest, AHeadTrickledByteByByteIsForwardedOnceWhole) {
  auto c = Make();
  const std::string head = "GET /v1/usage HTTP/1.1\r\nHost: x\r\nX-API-Key: k\r\n\r\n";
  for (char ch : head) c.OnData(std::string_view(&ch, 1), 5);
  EXPECT_EQ(transport_.forwarded, head);
  EXPECT_EQ(transport_.forwards, 1);
  EXPECT_EQ(service_.admits, 0);  // no body: nothing to decide
  EXPECT_FALSE(c.progress().in_request);
  EXPECT_FALSE(transport_.closed_with.has_value());
}

TEST_F(EdgeConnectionTest, AnOversizedHeadIsRefusedWith431AndNothingIsForwarded) {
  auto c = Make();
  c.OnData("GET / HTTP/1.1\r\nX-Big: ", 0);
  c.OnData(std::string(2000, 'a'), 0);
  ASSERT_TRUE(transport_.closed_with.has_value());
  EXPECT_EQ(transport_.closed_with->status, 431);
  EXPECT_TRUE(transport_.forwarded.empty());
  EXPECT_TRUE(c.closed());
  c.OnData("\r\n\r\nGET / HTTP/1.1\r\n\r\n", 0);  // the rest is dropped
  EXPECT_TRUE(transport_.forwarded.empty());
  EXPECT_EQ(service_.records, 1);
}

TEST_F(EdgeConnectionTest, ALargeBodyWithoutAValidKeyIsAnsweredFromTheHeaders) {
  auto c = Make();
  c.OnData("POST /v1/jobs HTTP/1.1\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n", 0);
  EXPECT_EQ(service_.admits, 1);
  EXPECT_EQ(service_.last_size, std::optional<size_t>(5000));
  ASSERT_TRUE(transport_.closed_with.has_value());
  EXPECT_EQ(transport_.closed_with->status, 401);
  EXPECT_TRUE(transport_.sent.empty()) << "no 100 Continue for a refused request";
  EXPECT_TRUE(transport_.forwarded.empty());
  EXPECT_EQ(budget_.in_use(), 0u);
  c.OnData(std::string(5000, 'x'), 0);
  EXPECT_TRUE(transport_.forwarded.empty());
}

TEST_F(EdgeConnectionTest, AnAdmittedBodyGets100ContinueReservesMemoryAndReleasesItWhenDone) {
  auto c = Make();
  const std::string head =
      "POST /v1/jobs HTTP/1.1\r\nX-API-Key: good\r\nContent-Length: 500\r\n"
      "Expect: 100-continue\r\n\r\n";
  c.OnData(head, 0);
  EXPECT_EQ(transport_.sent, "HTTP/1.1 100 Continue\r\n\r\n");
  EXPECT_TRUE(transport_.forwarded.empty()) << "the head waits for its body";
  EXPECT_EQ(budget_.in_use(), 500u);  // one copy: the edge collects the body itself
  std::optional<size_t> in_use_at_end;  // while the parser sees the body's last bytes
  transport_.on_forward = [&] {
    if (!in_use_at_end) in_use_at_end = budget_.in_use();
  };
  c.OnData(std::string(200, 'x'), 5);
  EXPECT_TRUE(transport_.forwarded.empty());
  c.OnData(std::string(300, 'y') + "GET /next HTTP/1.1\r\n\r\n", 10);
  EXPECT_EQ(in_use_at_end, std::optional<size_t>(500)) << "held while the parser handles the request";
  EXPECT_EQ(budget_.in_use(), 0u);
  EXPECT_EQ(transport_.forwarded,
            head + std::string(200, 'x') + std::string(300, 'y') + "GET /next HTTP/1.1\r\n\r\n");
  ASSERT_EQ(transport_.requests.size(), 1u);
  EXPECT_EQ(transport_.requests[0].first, head);
  EXPECT_EQ(transport_.requests[0].second, std::string(200, 'x') + std::string(300, 'y'));
  EXPECT_FALSE(transport_.closed_with.has_value());
}

// The head the HTTP parser gets when the edge hands the body over aside: only the
// Content-Length values change, whatever their case; the rest is byte for byte the same.
TEST(HeadWithoutBodyTest, ZeroesEveryContentLengthAndKeepsTheRest) {
  EXPECT_EQ(HeadWithoutBody("POST /v1/jobs?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 24527215\r\n"
                            "X-Content-Length-Note: 5\r\ncontent-LENGTH:12\r\n\r\n"),
            "POST /v1/jobs?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n"
            "X-Content-Length-Note: 5\r\ncontent-LENGTH: 0\r\n\r\n");
  const std::string no_body = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
  EXPECT_EQ(HeadWithoutBody(no_body), no_body);
  auto parsed = ParseRequestHead(HeadWithoutBody("POST / HTTP/1.1\r\nContent-Length: 7\r\n\r\n"));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->content_length, 0u);
  EXPECT_EQ(parsed->framing, RequestHead::Framing::kNone);
}

TEST_F(EdgeConnectionTest, SmallBodiesNeedNoAdmission) {
  auto c = Make();
  c.OnData("POST /v1/validate HTTP/1.1\r\nContent-Length: 50\r\n\r\n", 0);
  EXPECT_EQ(service_.admits, 0);
  c.OnData(std::string(50, '{'), 0);
  EXPECT_EQ(budget_.in_use(), 0u);
}

TEST_F(EdgeConnectionTest, PastTheMemoryCeilingTheAnswerIs503) {
  ASSERT_TRUE(budget_.TryReserve(1024 * 1024 - 100));
  auto c = Make();
  c.OnData("POST /v1/jobs HTTP/1.1\r\nX-API-Key: good\r\nContent-Length: 500\r\n\r\n", 0);
  ASSERT_TRUE(transport_.closed_with.has_value());
  EXPECT_EQ(transport_.closed_with->status, 503);
  EXPECT_TRUE(transport_.forwarded.empty());
  budget_.Release(1024 * 1024 - 100);
  EXPECT_EQ(budget_.in_use(), 0u);
}

TEST_F(EdgeConnectionTest, ABodyOverTheHardCapIs413BeforeAnyByteOfIt) {
  auto c = Make();
  c.OnData("POST /v1/jobs HTTP/1.1\r\nX-API-Key: good\r\nContent-Length: 20000\r\n\r\n", 0);
  ASSERT_TRUE(transport_.closed_with.has_value());
  EXPECT_EQ(transport_.closed_with->status, 413);
  EXPECT_EQ(service_.admits, 1);  // authentication is decided first
}

TEST_F(EdgeConnectionTest, MalformedHeadsAre400) {
  for (const char* bad : {"GARBAGE\r\n\r\n", "GET / HTTP/2.0\r\n\r\n",
                          "POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n",
                          "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                          "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
                          "GET / HTTP/1.1\r\nno colon here\r\n\r\n",
                          "GET /a\x01b HTTP/1.1\r\n\r\n", "GET /a\x7f HTTP/1.1\r\n\r\n",
                          "GET / HTTP/1.1\r\nHost: a\rb: c\r\n\r\n"}) {
    FakeTransport t;
    EdgeConnection c(t, service_, budget_, limits_, proxies_, "192.0.2.7", 0);
    c.OnData(bad, 0);
    ASSERT_TRUE(t.closed_with.has_value()) << bad;
    EXPECT_EQ(t.closed_with->status, 400) << bad;
    EXPECT_TRUE(t.forwarded.empty());
  }
}

TEST_F(EdgeConnectionTest, AChunkedBodyIsAdmittedFirstAndFollowedToItsEnd) {
  auto c = Make();
  const std::string head =
      "POST /v1/jobs HTTP/1.1\r\nX-API-Key: good\r\nTransfer-Encoding: chunked\r\n\r\n";
  const std::string body = "5\r\nhello\r\n3;ext=1\r\nabc\r\n0\r\nTrailer: t\r\n\r\n";
  const std::string next = "GET /v1/usage HTTP/1.1\r\n\r\n";
  c.OnData(head + body.substr(0, 7), 0);
  EXPECT_EQ(service_.admits, 1);
  EXPECT_FALSE(service_.last_size.has_value());
  EXPECT_GT(budget_.in_use(), 0u);
  c.OnData(body.substr(7) + next, 0);
  // The chunk extension and the trailer are not forwarded: Pistache's parser reads neither.
  EXPECT_EQ(transport_.forwarded, head + "5\r\nhello\r\n3\r\nabc\r\n0\r\n" + next);
  EXPECT_EQ(budget_.in_use(), 0u);
  EXPECT_FALSE(c.progress().in_request);
}

TEST_F(EdgeConnectionTest, AnUnauthenticatedChunkedBodyIsRefused) {
  auto c = Make();
  c.OnData("POST /v1/jobs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello", 0);
  ASSERT_TRUE(transport_.closed_with.has_value());
  EXPECT_EQ(transport_.closed_with->status, 401);
  EXPECT_TRUE(transport_.forwarded.empty());
}

TEST_F(EdgeConnectionTest, TheClientAddressComesFromForwardedForOnlyBehindATrustedProxy) {
  auto direct = Make("192.0.2.7");
  direct.OnData("POST /x HTTP/1.1\r\nX-Forwarded-For: 1.2.3.4\r\nContent-Length: 500\r\n\r\n", 0);
  EXPECT_EQ(service_.last_head.client_ip, "192.0.2.7");
  FakeTransport t;
  EdgeConnection proxied(t, service_, budget_, limits_, proxies_, "10.1.2.3", 0);
  proxied.OnData("POST /x HTTP/1.1\r\nX-Forwarded-For: 6.6.6.6, 1.2.3.4, 10.9.9.9\r\n"
                 "Content-Length: 500\r\n\r\n", 0);
  EXPECT_EQ(service_.last_head.client_ip, "1.2.3.4");
}

TEST_F(EdgeConnectionTest, TheRequestIdIsTheClientsWhenSane) {
  auto c = Make();
  c.OnData("POST /x HTTP/1.1\r\nX-Request-Id: abc-123\r\nContent-Length: 500\r\n\r\n", 0);
  EXPECT_EQ(transport_.closed_request_id, "abc-123");
}

TEST_F(EdgeConnectionTest, ControlCharactersInAHeaderValueAre400NamingTheHeader) {
  auto c = Make();
  c.OnData(std::string("GET / HTTP/1.1\r\nX-Thing: a\0b\r\n\r\n", 32), 0);
  ASSERT_TRUE(transport_.closed_with.has_value());
  EXPECT_EQ(transport_.closed_with->status, 400);
  EXPECT_TRUE(transport_.forwarded.empty());
  FakeTransport t;
  EdgeConnection tab(t, service_, budget_, limits_, proxies_, "192.0.2.7", 0);
  tab.OnData("GET / HTTP/1.1\r\nX-Thing: a\tb\r\n\r\n", 0);  // a tab is allowed
  EXPECT_FALSE(t.closed_with.has_value());
  EXPECT_EQ(t.forwarded, "GET / HTTP/1.1\r\nX-Thing: a\tb\r\n\r\n");
  auto head = ParseRequestHead(std::string("GET / HTTP/1.1\r\nX-Thing: a\x1b\r\n\r\n"));
  ASSERT_FALSE(head.ok());
  EXPECT_EQ(head.status().message(), "The value of the X-Thing header contains a control character.");
}

TEST(ParseRequestHeadTest, RefusesASecondKeyHostOrContentType) {
  auto two_keys = ParseRequestHead("GET / HTTP/1.1\r\nX-API-Key: a\r\nx-api-key: b\r\n\r\n");
  ASSERT_FALSE(two_keys.ok());
  EXPECT_EQ(two_keys.status().message(), "The request has more than one x-api-key header.");
  EXPECT_FALSE(ParseRequestHead("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n").ok());
  EXPECT_FALSE(ParseRequestHead("POST / HTTP/1.1\r\nContent-Type: a/b\r\n"
                                "Content-Type: c/d\r\n\r\n").ok());
  // Lists may repeat.
  EXPECT_TRUE(ParseRequestHead("GET / HTTP/1.1\r\nAccept: a/b\r\nAccept: c/d\r\n\r\n").ok());
}

TEST_F(EdgeConnectionTest, ALineEndingInLfAloneIsRefusedAtOnce) {
  auto c = Make();
  c.OnData("GET / HTTP/1.1\nHost: a\n", 0);  // the head has not ended, yet is answered
  ASSERT_TRUE(transport_.closed_with.has_value());
  EXPECT_EQ(transport_.closed_with->status, 400);
  EXPECT_TRUE(transport_.forwarded.empty());
}

// A transport whose parser refuses every head with a Date header.
class PickyTransport final : public EdgeTransport {
 public:
  Status CheckHead(std::string_view block, const RequestHead& head) override {
    checked = std::string(block);
    if (head.Header("date") != nullptr) {
      return Status(ErrorCode::kInvalidRequest, "The Date header's value is malformed.");
    }
    return Status::Ok();
  }
  void Forward(std::string_view bytes) override { forwarded += bytes; }
  void SendRaw(std::string bytes) override { sent += bytes; }
  void SendAndClose(const HttpResponse& response, const std::string&) override {
    closed_with = response;
  }
  std::string checked, forwarded, sent;
  std::optional<HttpResponse> closed_with;
};

TEST_F(EdgeConnectionTest, AHeadTheParserWouldRefuseIsAnsweredByTheEdgeWithItsRoute) {
  PickyTransport t;
  EdgeConnection c(t, service_, budget_, limits_, proxies_, "192.0.2.7", 0);
  const std::string head = "POST /v1/jobs HTTP/1.1\r\nDate: notadate\r\nExpect: 100-continue\r\n"
                           "Content-Length: 5\r\n\r\n";
  c.OnData(head + "hello", 0);
  EXPECT_EQ(t.checked, head);
  ASSERT_TRUE(t.closed_with.has_value());
  EXPECT_EQ(t.closed_with->status, 400);
  EXPECT_EQ(t.closed_with->body, "invalid_request");
  EXPECT_TRUE(t.forwarded.empty());
  EXPECT_TRUE(t.sent.empty());  // no 100 Continue for a refused head
  // The service saw the method and path (the answer's rate-limit class is the route's).
  EXPECT_EQ(service_.last_head.method, "POST");
  EXPECT_EQ(service_.last_head.path, "/v1/jobs");
  EXPECT_EQ(budget_.in_use(), 0u);
  PickyTransport ok;
  EdgeConnection fine(ok, service_, budget_, limits_, proxies_, "192.0.2.7", 0);
  fine.OnData("GET /v1/usage HTTP/1.1\r\nHost: a\r\n\r\n", 0);
  EXPECT_FALSE(ok.closed_with.has_value());
  EXPECT_EQ(ok.forwarded, "GET /v1/usage HTTP/1.1\r\nHost: a\r\n\r\n");
}

TEST(HeadScannerTest, ReportsABareLf) {
  HeadScanner s;
  EXPECT_EQ(s.Feed("GET / HTTP/1.1\r\nA: b\r\n"), HeadScanner::kNotYet);
  EXPECT_EQ(s.Feed("\n"), HeadScanner::kBareLf);
  HeadScanner t;
  EXPECT_EQ(t.Feed("GET / HTTP/1.1\n"), HeadScanner::kBareLf);
}

TEST(HeadScannerTest, FindsTheBlankLineAcrossReads) {
  HeadScanner s;
  EXPECT_EQ(s.Feed("GET / HTTP/1.1\r\nA: b\r\n\r"), HeadScanner::kNotYet);
  EXPECT_EQ(s.Feed("\nBODY"), 1u);
  s.Reset();
  EXPECT_EQ(s.Feed("X\r\r\n\r\n"), 6u);
}

TEST(ChunkedBodyTrackerTest, RejectsBadSizes) {
  std::string out;
  ChunkedBodyTracker t;
  EXPECT_FALSE(t.Feed("zz\r\n", &out).ok());
  ChunkedBodyTracker u;
  EXPECT_FALSE(u.Feed("5\r\nhelloX", &out).ok());
  ChunkedBodyTracker v;
  EXPECT_FALSE(v.Feed("ffffffffffffffff\r\n", &out).ok());
  ChunkedBodyTracker w;
  EXPECT_EQ(w.Feed("-5\r\n", &out).status().message(), "A chunk size is not hexadecimal.");
}

TEST(ChunkedBodyTrackerTest, ForwardsTheBodyInTheFormPistacheReads) {
  // Extensions and whitespace after a size dropped, bare LFs made CRLF, the trailer left out.
  const std::string body = "2;name=value\r\n{}\r\n3 \t\nabc\n000\r\nX-Trailer: 1\r\n\r\nNEXT";
  for (size_t split = 0; split <= body.size(); ++split) {
    ChunkedBodyTracker t;
    std::string out;
    auto a = t.Feed(std::string_view(body).substr(0, split), &out);
    ASSERT_TRUE(a.ok());
    auto b = t.Feed(std::string_view(body).substr(*a), &out);
    ASSERT_TRUE(b.ok());
    EXPECT_TRUE(t.done());
    EXPECT_EQ(*a + *b, body.size() - 4) << split;
    EXPECT_EQ(out, "2\r\n{}\r\n3\r\nabc\r\n000\r\n") << split;
  }
}

TEST(ChunkedBodyTrackerTest, DeclaredSizesPastTheLimitAre413BeforeTheData) {
  ChunkedBodyTracker t(100);
  std::string out;
  ASSERT_TRUE(t.Feed("40\r\n" + std::string(64, 'x') + "\r\n", &out).ok());
  auto r = t.Feed("25\r\n", &out);  // 64 + 37 > 100
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kPayloadTooLarge);
  ChunkedBodyTracker u(100);
  EXPECT_EQ(u.Feed("fffffffffffff\r\n", &out).status().code(), ErrorCode::kPayloadTooLarge);
}

TEST(JudgeTest, SlowIdleAndLingeringConnections) {
  EdgeLimits l;
  l.min_bytes_per_second = 1000;
  l.rate_grace = std::chrono::milliseconds(10000);
  l.idle_timeout = std::chrono::milliseconds(60000);
  l.linger = std::chrono::milliseconds(2000);
  EXPECT_EQ(Judge(Progress{true, 0, 5}, 9000, l), Verdict::kKeep);        // within the grace
  EXPECT_EQ(Judge(Progress{true, 0, 5}, 11000, l), Verdict::kTooSlow);    // 5 bytes in 11 s
  EXPECT_EQ(Judge(Progress{true, 0, 20000}, 11000, l), Verdict::kKeep);   // fast enough
  EXPECT_EQ(Judge(Progress{false, 0, 0}, 59000, l), Verdict::kKeep);
  EXPECT_EQ(Judge(Progress{false, 0, 0}, 61000, l), Verdict::kIdle);
  EXPECT_EQ(Judge(Progress{true, 0, 0, true}, 2500, l), Verdict::kIdle);  // linger over
}

TEST(ConnectionTableTest, CapsPerAddressAndInTotalWithProxiesExempt) {
  EdgeLimits l;
  l.max_connections = 4;
  l.max_connections_per_address = 2;
  ConnectionTable t(l);
  EXPECT_TRUE(t.Open(1, "a", false, 11, 0).ok());
  EXPECT_TRUE(t.Open(2, "a", false, 12, 0).ok());
  EXPECT_EQ(t.Open(3, "a", false, 13, 0).code(), ErrorCode::kUnavailable);
  EXPECT_TRUE(t.Open(4, "p", true, 14, 0).ok());
  EXPECT_TRUE(t.Open(5, "p", true, 15, 0).ok());
  EXPECT_EQ(t.Open(6, "b", false, 16, 0).code(), ErrorCode::kUnavailable);  // total
  t.Close(1);
  EXPECT_EQ(t.CountFor("a"), 1u);
  EXPECT_TRUE(t.Open(7, "a", false, 17, 0).ok());
  t.Update(7, Progress{true, 0, 1});
  std::vector<int> cut;
  t.Sweep(20000, [&](int fd, Verdict v) {
    EXPECT_EQ(v, Verdict::kTooSlow);
    cut.push_back(fd);
  });
  EXPECT_EQ(cut, std::vector<int>{17});
  t.Sweep(30000, [&](int fd, Verdict) { cut.push_back(fd); });
  EXPECT_EQ(cut.size(), 1u) << "each connection is cut once";
}

TEST(TrustedProxiesTest, ParsesAndMatchesCidrs) {
  auto p = TrustedProxies::Parse("10.0.0.0/8, 192.168.1.5, fd00::/8");
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->Contains("10.200.3.4"));
  EXPECT_FALSE(p->Contains("11.0.0.1"));
  EXPECT_TRUE(p->Contains("192.168.1.5"));
  EXPECT_FALSE(p->Contains("192.168.1.6"));
  EXPECT_TRUE(p->Contains("fd12::1"));
  EXPECT_FALSE(p->Contains("::1"));
  EXPECT_FALSE(TrustedProxies::Parse("10.0.0.0/33").ok());
  EXPECT_FALSE(TrustedProxies::Parse("example.com").ok());
  const std::string xff = "1.1.1.1, garbage";
  EXPECT_EQ(p->ClientAddress("10.0.0.1", &xff), "10.0.0.1");  // unparseable: the peer
  const std::string all_trusted = "10.0.0.2, 10.0.0.3";
  EXPECT_EQ(p->ClientAddress("10.0.0.1", &all_trusted), "10.0.0.2");
}

}  // namespace
}  // namespace dq::http::edge
