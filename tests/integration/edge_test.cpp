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
std::string ReadResponse(int fd) {
  std::string out;
  char buf[4096];
  while (true) {
    const size_t head = out.find("\r\n\r\n");
    if (head != std::string::npos) {
      const size_t cl = out.find("Content-Length: ");
      if (out.rfind("HTTP/1.1 100", 0) == 0) {
        return out.substr(0, head + 4);
      }
      if (cl != std::string::npos && cl < head) {
        const size_t len = std::stoul(out.substr(cl + 16));
        if (out.size() >= head + 4 + len) return out.substr(0, head + 4 + len);
      }
    }
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return out;
    out.append(buf, static_cast<size_t>(n));
  }
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
