// The edge of the real gateway, on raw sockets: decisions made from the headers before a body
// is read, connection caps, slow senders, the ops port, and job ids checked before Redis.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

int Connect(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

void SendAll(int fd, const std::string& bytes) {
  (void)send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
}

// Reads until one complete response (head + Content-Length body) or the end of the stream.
// Bytes past it (the next pipelined answer) are kept in *rest for the next call.
std::string ReadResponse(int fd, std::string* rest) {
  std::string out = std::move(*rest);
  rest->clear();
  char buf[4096];
  while (true) {
    const size_t head = out.find("\r\n\r\n");
    if (head != std::string::npos) {
      size_t end = std::string::npos;
      const size_t cl = out.find("Content-Length: ");
      if (out.rfind("HTTP/1.1 100", 0) == 0) {
        end = head + 4;
      } else if (cl != std::string::npos && cl < head) {
        const size_t len = std::stoul(out.substr(cl + 16));
        if (out.size() >= head + 4 + len) end = head + 4 + len;
      }
      if (end != std::string::npos) {
        *rest = out.substr(end);
        out.resize(end);
        return out;
      }
    }
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return out;
    out.append(buf, static_cast<size_t>(n));
  }
}

std::string ReadResponse(int fd) {
  std::string rest;
  return ReadResponse(fd, &rest);
}

json BodyOf(const std::string& response) {
  return json::parse(response.substr(response.find("\r\n\r\n") + 4), nullptr, false);
}

class EdgeIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{1, false,
                                    {{"DQ_MAX_CONNECTIONS_PER_ADDRESS", "6"},
                                     {"DQ_REQUEST_GRACE_MS", "500"},
                                     {"DQ_MIN_BYTES_PER_SECOND", "1000"},
                                     {"DQ_RATE_LIMIT_ANONYMOUS", "100000"}}});
    const std::string url = stack_->GatewayUrl();
    port_ = std::stoi(url.substr(url.rfind(':') + 1));
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }
  static Stack* stack_;
  static int port_;
};
Stack* EdgeIntegrationTest::stack_ = nullptr;
int EdgeIntegrationTest::port_ = 0;

TEST_F(EdgeIntegrationTest, AHeaderBlockOver16KiBIs431) {
  const int fd = Connect(port_);
  ASSERT_GE(fd, 0);
  SendAll(fd, "GET /v1/usage HTTP/1.1\r\nHost: x\r\nX-Pad: " + std::string(32 * 1024, 'a') +
                  "\r\n\r\n");
  const std::string r = ReadResponse(fd);
  close(fd);
  EXPECT_EQ(r.rfind("HTTP/1.1 431", 0), 0u) << r.substr(0, 200);
  EXPECT_EQ(BodyOf(r)["error"], "headers_too_large");
  EXPECT_FALSE(BodyOf(r)["request_id"].get<std::string>().empty());
  EXPECT_NE(r.find("X-RateLimit-Limit: "), std::string::npos);
}

TEST_F(EdgeIntegrationTest, AnUnauthenticatedLargeUploadIsAnsweredBeforeItsBody) {
  const int fd = Connect(port_);
  ASSERT_GE(fd, 0);
  SendAll(fd, "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n"
              "Content-Length: 99614720\r\nExpect: 100-continue\r\n\r\n");
  const std::string r = ReadResponse(fd);  // no body byte was sent
  close(fd);
  EXPECT_EQ(r.rfind("HTTP/1.1 401", 0), 0u) << r.substr(0, 300);
  EXPECT_EQ(BodyOf(r)["error"], "api_key_required");
  EXPECT_NE(r.find("X-RateLimit-Limit: 10\r\n"), std::string::npos) << "the upload class";
}

TEST_F(EdgeIntegrationTest, AnAuthenticatedUploadGets100ContinueAfterTheDecision) {
  auto [id, key] = stack_->NewAccount();
  const int fd = Connect(port_);
  ASSERT_GE(fd, 0);
  const std::string body = "sku,price\r\nA,1.00\r\n";
  std::string big = body + std::string(70000, ' ');
  SendAll(fd, "POST /v1/validate HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key +
                  "\r\nContent-Type: application/json\r\nContent-Length: " +
                  std::to_string(big.size()) + "\r\nExpect: 100-continue\r\n\r\n");
  const std::string interim = ReadResponse(fd);
  EXPECT_EQ(interim, "HTTP/1.1 100 Continue\r\n\r\n");
  SendAll(fd, big);
  const std::string r = ReadResponse(fd);
  close(fd);
  EXPECT_EQ(r.rfind("HTTP/1.1 400", 0), 0u) << r.substr(0, 300);  // not JSON: but it was read
}

// Answers are written straight to the socket while nothing of the connection's waits in the
// HTTP library's queue, and queued behind it otherwise. A client that sends its requests in one
// go and reads with a small window makes the first answer wait: it is larger than the kernel's
// largest send buffer (4 MiB), so the socket cannot take it whole. Every later answer must
// still arrive after it, whole and in the order asked.
TEST_F(EdgeIntegrationTest, PipelinedAnswersArriveInOrderToASlowReader) {
  auto [id, key] = stack_->NewAccount();
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  const int window = 4096;  // set before connect, so the server sees a small window
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &window, sizeof window);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port_));
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  timeval tv{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);

  // Answers that carry their own record count (an issue on every record) and echo each
  // record's note in their cleaned rows.
  auto validate = [&](int records, size_t note_bytes) {
    json body = {{"records", json::array()}, {"mapping", {{"sku", "SKU"}, {"price", "Price"}}}};
    for (int i = 0; i < records; ++i) {
      body["records"].push_back({{"SKU", "S" + std::to_string(i)},
                                 {"Price", "not a price"},
                                 {"Note", std::string(note_bytes, 'n')}});
    }
    const std::string text = body.dump();
    return "POST /v1/validate HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key +
           "\r\nContent-Type: application/json\r\nContent-Length: " +
           std::to_string(text.size()) + "\r\n\r\n" + text;
  };
  SendAll(fd, validate(250, 20000) + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" +
                  validate(7, 10) + "GET /v1/nope HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key +
                  "\r\n\r\n" + validate(249, 10));

  std::string rest;
  const std::string first = ReadResponse(fd, &rest);
  ASSERT_EQ(first.rfind("HTTP/1.1 200", 0), 0u) << first.substr(0, 300);
  EXPECT_GT(first.size(), size_t{5000000}) << "larger than the largest send buffer";
  EXPECT_EQ(BodyOf(first)["stats"]["rows"], 250);
  const std::string second = ReadResponse(fd, &rest);
  EXPECT_EQ(second.rfind("HTTP/1.1 200", 0), 0u) << second.substr(0, 300);
  EXPECT_EQ(BodyOf(second)["status"], "ok");
  const std::string third = ReadResponse(fd, &rest);
  EXPECT_EQ(BodyOf(third)["stats"]["rows"], 7) << third.substr(0, 300);
  const std::string fourth = ReadResponse(fd, &rest);
  EXPECT_EQ(fourth.rfind("HTTP/1.1 404", 0), 0u) << fourth.substr(0, 300);
  const std::string fifth = ReadResponse(fd, &rest);
  EXPECT_EQ(BodyOf(fifth)["stats"]["rows"], 249) << fifth.substr(0, 300);
  EXPECT_EQ(rest, "") << "nothing more was asked";
  close(fd);
}

TEST_F(EdgeIntegrationTest, SlowSendersAreCut) {
  const int fd = Connect(port_);
  ASSERT_GE(fd, 0);
  SendAll(fd, "GET /v1/usage HTTP/1.1\r\nHost: x\r\n");  // and nothing more
  const std::string r = ReadResponse(fd);  // the server cuts it after the grace (0.5 s)
  close(fd);
  EXPECT_EQ(r.rfind("HTTP/1.1 408", 0), 0u) << r;
  EXPECT_EQ(BodyOf(r)["error"], "request_timeout");
}

TEST_F(EdgeIntegrationTest, ConnectionsPerAddressAreCapped) {
  std::vector<int> fds;
  std::string refused;
  for (int i = 0; i < 10 && refused.empty(); ++i) {
    const int fd = Connect(port_);
    ASSERT_GE(fd, 0);
    fds.push_back(fd);
    // A request on each: the refused one answers 503 at once.
    SendAll(fd, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    const std::string r = ReadResponse(fd);
    if (r.rfind("HTTP/1.1 503", 0) == 0) refused = r;
  }
  for (int fd : fds) close(fd);
  ASSERT_FALSE(refused.empty());
  EXPECT_LE(fds.size(), 7u);
  EXPECT_EQ(BodyOf(refused)["error"], "service_unavailable");
  EXPECT_NE(refused.find("Retry-After: "), std::string::npos);
}

TEST_F(EdgeIntegrationTest, ProbesAndMetricsLiveOnTheOpsPort) {
  EXPECT_EQ(Http("GET", stack_->GatewayOpsUrl() + "/healthz").status, 200);
  EXPECT_EQ(Http("GET", stack_->GatewayOpsUrl() + "/readyz").status, 200);
  EXPECT_EQ(Http("GET", stack_->GatewayOpsUrl() + "/metrics").status, 200);
  EXPECT_EQ(Http("GET", stack_->GatewayUrl() + "/metrics").status, 404);
  EXPECT_EQ(Http("GET", stack_->GatewayUrl() + "/healthz").status, 200);  // still documented
}

TEST_F(EdgeIntegrationTest, MalformedJobIdsNeverReachRedis) {
  auto [id, key] = stack_->NewAccount();
  HttpResult r = Http("GET", stack_->GatewayUrl() + "/v1/jobs/abc:issues", {{"X-API-Key", key}});
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_EQ(json::parse(r.body)["error"], "not_found");
  EXPECT_EQ(r.body.find("WRONGTYPE"), std::string::npos);
}

}  // namespace
}  // namespace dq::testing
