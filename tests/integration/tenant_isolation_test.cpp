// One tenant cannot stall another through the validator: the real gateway with two HTTP threads
// and a validator stopped with SIGSTOP (it accepts connections, never answers). Calls to
// POST /v1/validate wait on the gateway's validate pool, never on an HTTP thread; past an
// account's cap they are refused at once, past their deadline they answer 503.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>
#include <nlohmann/json.hpp>
#include <thread>

#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr const char* kBody = R"({"records":[{"id":"A"}],"mapping":{"sku":"id"}})";

// A stopped validator is continued when the test ends, so the stack can stop it.
struct Paused {
  explicit Paused(pid_t pid) : pid(pid) { kill(pid, SIGSTOP); }
  ~Paused() { kill(pid, SIGCONT); }
  pid_t pid;
};

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
  timeval tv{20, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

// Reads one complete answer per entry of with_body (head, plus its Content-Length body when
// true: false for the answer to a HEAD request); returns them.
std::vector<std::string> ReadAnswers(int fd, const std::vector<bool>& with_body) {
  std::vector<std::string> answers;
  std::string buf;
  char chunk[4096];
  while (answers.size() < with_body.size()) {
    const size_t head = buf.find("\r\n\r\n");
    if (head != std::string::npos) {
      const size_t cl = buf.find("Content-Length: ");
      const size_t len = cl != std::string::npos && cl < head && with_body[answers.size()]
                             ? std::stoul(buf.substr(cl + 16))
                             : 0;
      if (buf.size() >= head + 4 + len) {
        answers.push_back(buf.substr(0, head + 4 + len));
        buf.erase(0, head + 4 + len);
        continue;
      }
    }
    const ssize_t n = recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) break;
    buf.append(chunk, static_cast<size_t>(n));
  }
  return answers;
}

int Status(const std::string& answer) { return std::stoi(answer.substr(9, 3)); }

class TenantIsolationTest : public ::testing::Test {
 protected:
  TenantIsolationTest()
      : stack_(StackOptions{1, false,
                            {{"DQ_GATEWAY_THREADS", "2"},
                             {"DQ_VALIDATOR_TIMEOUT_MS", "3000"},
                             {"DQ_VALIDATE_THREADS", "8"},
                             {"DQ_VALIDATE_PER_ACCOUNT", "2"},
                             {"DQ_VALIDATE_QUEUE", "16"},
                             {"DQ_RATE_LIMIT_ENABLED", "0"}}}) {}
  Stack stack_;
};

TEST_F(TenantIsolationTest, AHungValidatorHoldsNoHttpThread) {
  std::vector<std::string> attackers;
  for (int i = 0; i < 6; ++i) attackers.push_back(stack_.NewAccount().second);
  const std::string other = stack_.NewAccount().second;
  const std::string url = stack_.GatewayUrl();
  ASSERT_EQ(Http("GET", url + "/v1/usage", {{"X-API-Key", other}}).status, 200);

  Paused paused(stack_.validator().pid());
  // Six accounts, three calls each: two of each account's wait (12 in flight), the third is
  // refused at once.
  std::vector<std::future<std::pair<int, double>>> calls;
  const auto started = Clock::now();
  for (const auto& key : attackers) {
    for (int j = 0; j < 3; ++j) {
      calls.push_back(std::async(std::launch::async, [&url, key] {
        const auto t0 = Clock::now();
        HttpResult r = Http("POST", url + "/v1/validate",
                            {{"X-API-Key", key}, {"Content-Type", "application/json"}}, kBody);
        return std::pair<int, double>(
            r.status, std::chrono::duration<double>(Clock::now() - t0).count());
      }));
    }
  }
  // Meanwhile another tenant is answered at once, on the same two HTTP threads, again and again
  // (new connections land on either thread).
  int slow = 0;
  double worst = 0;
  while (Clock::now() - started < std::chrono::milliseconds(2000)) {
    const auto t0 = Clock::now();
    HttpResult r = Http("GET", url + "/v1/usage", {{"X-API-Key", other}});
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    ASSERT_EQ(r.status, 200) << r.body;
    worst = std::max(worst, s);
    if (s > 0.5) ++slow;
  }
  EXPECT_EQ(slow, 0) << "slowest GET /v1/usage: " << worst << " s";

  int refused = 0, timed_out = 0;
  for (auto& c : calls) {
    const auto [status, seconds] = c.get();
    if (status == 429) {
      ++refused;
      EXPECT_LT(seconds, 1.0);  // refused at once, not after waiting
    } else {
      EXPECT_EQ(status, 503);
      EXPECT_GT(seconds, 2.5);  // answered by the deadline (3 s from admission)
      EXPECT_LT(seconds, 6.0);
      ++timed_out;
    }
  }
  EXPECT_EQ(refused, 6);
  EXPECT_EQ(timed_out, 12);
}

TEST_F(TenantIsolationTest, AnswersKeepTheirOrderBehindADeferredOne) {
  const std::string key = stack_.NewAccount().second;
  const int port = std::stoi(stack_.GatewayUrl().substr(stack_.GatewayUrl().rfind(':') + 1));
  Paused paused(stack_.validator().pid());
  const int fd = Connect(port);
  ASSERT_GE(fd, 0);
  const std::string body = kBody;
  const std::string validate = "POST /v1/validate HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key +
                               "\r\nContent-Type: application/json\r\nContent-Length: " +
                               std::to_string(body.size()) + "\r\n\r\n" + body;
  const std::string usage = "GET /v1/usage HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\n\r\n";
  const std::string head = "HEAD /v1/usage HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\n\r\n";
  // Pipelined: the validate call waits for its deadline; the two after it must not overtake it.
  const std::string all = validate + usage + head;
  ASSERT_EQ(send(fd, all.data(), all.size(), MSG_NOSIGNAL), static_cast<ssize_t>(all.size()));
  const auto answers = ReadAnswers(fd, {true, true, false});
  close(fd);
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(Status(answers[0]), 503) << answers[0];
  EXPECT_NE(answers[0].find("service_unavailable"), std::string::npos) << answers[0];
  EXPECT_EQ(Status(answers[1]), 200) << answers[1];
  EXPECT_NE(answers[1].find("records_used"), std::string::npos) << answers[1];
  // HEAD: GET's head, no body.
  EXPECT_EQ(Status(answers[2]), 200) << answers[2];
  EXPECT_EQ(answers[2].find("records_used"), std::string::npos) << answers[2];
}

}  // namespace
}  // namespace dq::testing
