// Issues 34 and 36: a client that reads a large streamed answer slowly, or not at all, costs the
// gateway a bounded amount of memory (the next part is made only once the previous one is
// written), and one that stops reading is cut after DQ_IDLE_TIMEOUT_MS with the answer's producer
// released. Real gateway, worker, validator and Redis; the fs artifact store; a raw socket
// client whose receive buffer is small.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <memory>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "dq/common/crypto.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

// A clean product CSV of about `bytes` bytes (nothing to fix: its cleaned file is itself).
std::string BigCsv(size_t bytes) {
  std::string csv = "Variant SKU,Title,Variant Price,Currency\r\n";
  for (int i = 1; csv.size() < bytes; ++i) {
    csv += "SKU-" + std::to_string(i) + ",Stoneware mug number " + std::to_string(i) +
           " in glazed stoneware with a long enough title to pad the row out to a size that keeps "
           "the row count of a 20 MB file within a month's quota,12.50,EUR\r\n";
  }
  return csv;
}

int64_t RssKb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
  }
  return -1;
}

int PortOf(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }

// The send queue (bytes not yet acknowledged) of the loopback TCP socket local_port ->
// remote_port, from /proc/net/tcp; -1 when there is none.
int64_t SendQueue(int local_port, int remote_port) {
  std::ifstream in("/proc/net/tcp");
  std::string line;
  std::getline(in, line);  // the header
  char want_local[16], want_remote[16];
  std::snprintf(want_local, sizeof want_local, ":%04X", local_port);
  std::snprintf(want_remote, sizeof want_remote, ":%04X", remote_port);
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string sl, local, remote, st, queues;
    f >> sl >> local >> remote >> st >> queues;
    if (local.size() < 5 || remote.size() < 5) continue;
    if (local.substr(local.size() - 5) != want_local) continue;
    if (remote.substr(remote.size() - 5) != want_remote) continue;
    return std::stoll(queues.substr(0, queues.find(':')), nullptr, 16);
  }
  return -1;
}

// A client that sends one GET and then reads only when told to.
class RawClient {
 public:
  explicit RawClient(int port) : port_(port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int small = 64 * 1024;  // before connect, so the window stays small
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    sockaddr_in mine{};
    socklen_t len = sizeof mine;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&mine), &len);
    local_port_ = ntohs(mine.sin_port);
  }
  ~RawClient() { ::close(fd_); }
  bool connected() const { return connected_; }

  void Send(const std::string& s) {
    ASSERT_EQ(::send(fd_, s.data(), s.size(), 0), static_cast<ssize_t>(s.size()));
  }
  // Bytes waiting in this socket's receive buffer.
  int Waiting() const {
    int n = 0;
    ::ioctl(fd_, FIONREAD, &n);
    return n;
  }
  // The gateway's send queue towards this client.
  int64_t ServerQueue() const { return SendQueue(port_, local_port_); }
  // Reads until the peer closes (or fails): everything received.
  std::string ReadToEnd() {
    timeval tv{60, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string all;
    char buf[1 << 16];
    while (true) {
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      all.append(buf, static_cast<size_t>(n));
    }
    return all;
  }
  // Reads what has arrived, at most `most` bytes, without waiting; false once the peer has
  // closed (or failed).
  bool ReadAvailable(std::string* all, size_t most) {
    char buf[1 << 16];
    for (size_t taken = 0; taken < most;) {
      const ssize_t n = ::recv(fd_, buf, std::min(sizeof buf, most - taken), MSG_DONTWAIT);
      if (n > 0) {
        all->append(buf, static_cast<size_t>(n));
        taken += static_cast<size_t>(n);
        continue;
      }
      return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
    return true;
  }
  // Waits until neither this socket's receive buffer nor the gateway's send queue towards it
  // has changed over `stable` consecutive polls: the client's window is full and the gateway
  // writes nothing more until the client reads.
  bool WaitStalled(std::chrono::milliseconds deadline, int stable = 20) {
    int last_waiting = -1, same = 0;
    int64_t last_queue = -2;
    return WaitFor(
        [&] {
          const int waiting = Waiting();
          const int64_t queue = ServerQueue();
          same = waiting > 0 && waiting == last_waiting && queue == last_queue ? same + 1 : 0;
          last_waiting = waiting;
          last_queue = queue;
          return same >= stable;
        },
        deadline);
  }

 private:
  int port_;
  int fd_ = -1;
  int local_port_ = 0;
  bool connected_ = false;
};

// A chunked body's data, or nullopt when it is not whole (no last chunk).
std::optional<std::string> Dechunk(std::string_view body) {
  std::string out;
  while (true) {
    const size_t eol = body.find("\r\n");
    if (eol == std::string_view::npos) return std::nullopt;
    const size_t size = std::stoul(std::string(body.substr(0, eol)), nullptr, 16);
    body.remove_prefix(eol + 2);
    if (size == 0) return body == "\r\n" ? std::optional<std::string>(out) : std::nullopt;
    if (body.size() < size + 2 || body.substr(size, 2) != "\r\n") return std::nullopt;
    out.append(body.substr(0, size));
    body.remove_prefix(size + 2);
  }
}

// A gauge of the gateway's /metrics; -1 when it is not there.
int64_t GaugeValue(const Stack& stack, const std::string& gauge) {
  const std::string body = Http("GET", stack.GatewayOpsUrl() + "/metrics").body;
  const std::string name = "\n" + gauge + " ";
  const size_t at = body.find(name);
  return at == std::string::npos ? -1 : std::stoll(body.substr(at + name.size()));
}

int64_t StreamedAnswers(const Stack& stack) {
  return GaugeValue(stack, "dq_gateway_streamed_answers");
}

int64_t DownloadHeldBytes(const Stack& stack) {
  return GaugeValue(stack, "dq_gateway_download_held_bytes");
}

class SlowReaderTest : public ::testing::Test {
 protected:
  // A stack whose gateway cuts connections idle for idle_ms, and a done job whose cleaned file
  // is csv_ (about `bytes`).
  static void Start(const std::string& idle_ms, size_t bytes,
                    std::map<std::string, std::string> more = {}) {
    std::map<std::string, std::string> env = {{"DQ_RATE_LIMIT_GENERAL", "100000"},
                                              {"DQ_RATE_LIMIT_UPLOAD", "100000"},
                                              {"DQ_UPLOAD_MAX_BYTES", std::to_string(32 << 20)},
                                              {"DQ_IDLE_TIMEOUT_MS", idle_ms}};
    env.insert(more.begin(), more.end());
    stack_ = new Stack(StackOptions{1, false, env});
    std::tie(std::ignore, key_) = stack_->NewAccount(Plan::kBusiness);  // 20 MB: > 100,000 rows
    csv_ = BigCsv(bytes);
    HttpResult r = Http("POST", stack_->GatewayUrl() + "/v1/jobs?filename=big.csv",
                        {{"X-API-Key", key_}, {"Content-Type", "text/csv"}}, csv_);
    ASSERT_EQ(r.status, 202) << r.body;
    job_ = json::parse(r.body)["id"];
    json job;
    WaitFor(
        [&] {
          job = json::parse(Http("GET", stack_->GatewayUrl() + "/v1/jobs/" + job_,
                                 {{"X-API-Key", key_}}).body);
          return job["status"] == "done" || job["status"] == "failed";
        },
        std::chrono::seconds(120));
    ASSERT_EQ(job["status"], "done") << job.dump();
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }
  std::string Request() const {
    return "GET /v1/jobs/" + job_ +
           "/cleaned HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-API-Key: " + key_ +
           "\r\n\r\n";
  }

  static Stack* stack_;
  static std::string key_, job_, csv_;
};
Stack* SlowReaderTest::stack_ = nullptr;
std::string SlowReaderTest::key_, SlowReaderTest::job_, SlowReaderTest::csv_;

class SlowReader : public SlowReaderTest {
 protected:
  static void SetUpTestSuite() { Start("60000", 20 << 20); }
};

TEST_F(SlowReader, GatewayMemoryStaysBoundedThenTheClientGetsTheExactFile) {
  ASSERT_NE(stack_, nullptr);
  const pid_t gateway = stack_->gateway().pid();
  // One whole download first: the threads and allocator arenas it uses for the first time are
  // not what is measured.
  ASSERT_EQ(Http("GET", stack_->GatewayUrl() + "/v1/jobs/" + job_ + "/cleaned",
                 {{"X-API-Key", key_}}).body.size(),
            csv_.size());
  const int64_t idle_kb = RssKb(gateway);
  RawClient c(PortOf(stack_->GatewayUrl()));
  ASSERT_TRUE(c.connected());
  c.Send(Request());
  ASSERT_TRUE(c.WaitStalled(std::chrono::seconds(30)))
      << "the download never stalled: " << c.Waiting() << " bytes waiting";
  const int64_t stalled_kb = RssKb(gateway);
  // What reached the client and the kernel's buffers is far from the whole file: the gateway
  // holds the rest back rather than queueing it.
  EXPECT_LT(c.Waiting() + c.ServerQueue(), static_cast<int64_t>(csv_.size() / 2));
  // Bounded: a part or two (256 KiB each), their copies and the upload piece the producer reads
  // (1 MiB), allocator slack of the part makers' arenas: not the 20 MB file, which the gateway
  // queued whole before (a 12 MB file: 12.5 MB above idle).
  EXPECT_LT(stalled_kb - idle_kb, 6 * 1024)
      << "idle " << idle_kb << " kB, stalled " << stalled_kb << " kB";
  std::printf("gateway RSS idle %lld kB, stalled %lld kB (+%lld kB); file %zu bytes\n",
              static_cast<long long>(idle_kb), static_cast<long long>(stalled_kb),
              static_cast<long long>(stalled_kb - idle_kb), csv_.size());
  EXPECT_EQ(StreamedAnswers(*stack_), 1);

  // Reading on: the exact file, whole, and the end of the connection (Connection: close).
  const std::string all = c.ReadToEnd();
  const size_t head_end = all.find("\r\n\r\n");
  ASSERT_NE(head_end, std::string::npos);
  const std::string head = all.substr(0, head_end);
  EXPECT_EQ(head.substr(0, 15), "HTTP/1.1 200 OK") << head;
  EXPECT_NE(head.find("Transfer-Encoding: chunked"), std::string::npos) << head;
  const auto body = Dechunk(std::string_view(all).substr(head_end + 4));
  ASSERT_TRUE(body.has_value()) << "the body is not whole: " << all.size() << " bytes";
  EXPECT_EQ(body->size(), csv_.size());
  EXPECT_TRUE(*body == csv_) << "the cleaned file differs from the upload";
  EXPECT_TRUE(WaitFor([] { return StreamedAnswers(*stack_) == 0; }, std::chrono::seconds(10)));
}

// The same file through an ordinary client (libcurl, reading at once): the same bytes.
TEST_F(SlowReader, AFastClientGetsTheSameFile) {
  ASSERT_NE(stack_, nullptr);
  HttpResult r = Http("GET", stack_->GatewayUrl() + "/v1/jobs/" + job_ + "/cleaned",
                      {{"X-API-Key", key_}});
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.body.size(), csv_.size());
  EXPECT_TRUE(r.body == csv_);
}

class StalledReader : public SlowReaderTest {
 protected:
  static void SetUpTestSuite() { Start("1500", 4 << 20); }
};

// A client that stops reading is cut once the answer has not moved for DQ_IDLE_TIMEOUT_MS, and
// the answer's producer is released (the gauge of streamed answers whose producer is held goes
// back to 0); what the client then reads is cut off, never a short file that looks whole.
TEST_F(StalledReader, IsCutAfterTheIdleTimeoutAndTheProducerIsReleased) {
  ASSERT_NE(stack_, nullptr);
  RawClient c(PortOf(stack_->GatewayUrl()));
  ASSERT_TRUE(c.connected());
  c.Send(Request());
  // Either still held, or already cut if the machine was slow to poll: both are checked below.
  ASSERT_TRUE(WaitFor([&] { return c.Waiting() > 0; }, std::chrono::seconds(30)));
  EXPECT_TRUE(WaitFor([] { return StreamedAnswers(*stack_) == 0; }, std::chrono::seconds(30)));
  const std::string all = c.ReadToEnd();
  const size_t head_end = all.find("\r\n\r\n");
  ASSERT_NE(head_end, std::string::npos);
  EXPECT_FALSE(Dechunk(std::string_view(all).substr(head_end + 4)).has_value());
  EXPECT_LT(all.size(), csv_.size());
  // The gateway goes on serving.
  EXPECT_EQ(Http("GET", stack_->GatewayUrl() + "/v1/jobs/" + job_, {{"X-API-Key", key_}}).status,
            200);
}

// A download whose client stops reading holds its upload piece (up to two for CSV) and a part;
// with DQ_DOWNLOAD_STALL_TIMEOUT_MS far below DQ_IDLE_TIMEOUT_MS, it is that timeout that cuts it,
// and the memory downloads hold (dq_gateway_download_held_bytes) goes back to its idle value.
class StalledDownload : public SlowReaderTest {
 protected:
  static constexpr int kStallMs = 2000;
  static void SetUpTestSuite() {
    Start("600000", 4 << 20, {{"DQ_DOWNLOAD_STALL_TIMEOUT_MS", std::to_string(kStallMs)}});
  }
};

TEST_F(StalledDownload, WhatItHoldsIsFreedWithinTheStallTimeout) {
  ASSERT_NE(stack_, nullptr);
  const pid_t gateway = stack_->gateway().pid();
  const int64_t idle = DownloadHeldBytes(*stack_);
  EXPECT_EQ(idle, 0);  // no download in progress
  const int64_t idle_kb = RssKb(gateway);
  RawClient c(PortOf(stack_->GatewayUrl()));
  ASSERT_TRUE(c.connected());
  const auto sent = std::chrono::steady_clock::now();
  c.Send(Request());
  // Held while the client does not read: at least the upload piece the producer reads (a
  // 4 MiB upload is in several pieces, so the producer is mid-file).
  int64_t held = 0;
  ASSERT_TRUE(WaitFor(
      [&] {
        held = std::max(held, DownloadHeldBytes(*stack_));
        return held >= 256 * 1024;
      },
      std::chrono::seconds(30)))
      << "held " << held;
  const int64_t stalled_kb = RssKb(gateway);
  EXPECT_EQ(StreamedAnswers(*stack_), 1);
  // Freed: the gauge is back to idle, long before DQ_IDLE_TIMEOUT_MS (600 s) could have cut it.
  ASSERT_TRUE(WaitFor([&] { return DownloadHeldBytes(*stack_) == idle; },
                      std::chrono::milliseconds(kStallMs + 20000)));
  const auto freed_after = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - sent);
  EXPECT_GE(freed_after.count(), kStallMs);  // not before the client had its stall timeout
  EXPECT_TRUE(WaitFor([] { return StreamedAnswers(*stack_) == 0; }, std::chrono::seconds(10)));
  const int64_t freed_kb = RssKb(gateway);
  std::printf("download held %lld bytes at most (gauge); freed after %lld ms; gateway RSS idle "
              "%lld kB, stalled %lld kB, after the cut %lld kB\n",
              static_cast<long long>(held), static_cast<long long>(freed_after.count()),
              static_cast<long long>(idle_kb), static_cast<long long>(stalled_kb),
              static_cast<long long>(freed_kb));
  // The client sees an answer cut off, never a short file that looks whole.
  const std::string all = c.ReadToEnd();
  const size_t head_end = all.find("\r\n\r\n");
  ASSERT_NE(head_end, std::string::npos);
  EXPECT_FALSE(Dechunk(std::string_view(all).substr(head_end + 4)).has_value());
  EXPECT_LT(all.size(), csv_.size());
}

// A client that reads slowly but keeps reading (pauses shorter than the stall timeout) is never
// cut, and gets every byte.
TEST_F(StalledDownload, ASlowButMovingReaderGetsTheWholeFile) {
  ASSERT_NE(stack_, nullptr);
  RawClient c(PortOf(stack_->GatewayUrl()));
  ASSERT_TRUE(c.connected());
  c.Send(Request());
  std::string all;
  int pauses = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (c.ReadAvailable(&all, 768 * 1024) && std::chrono::steady_clock::now() < deadline) {
    // The reader's pace, not a synchronisation: it takes at most 768 KiB of what has come, then
    // looks away for half the stall timeout (the gateway's parts wait meanwhile).
    std::this_thread::sleep_for(std::chrono::milliseconds(kStallMs / 2));
    ++pauses;
  }
  const size_t head_end = all.find("\r\n\r\n");
  ASSERT_NE(head_end, std::string::npos);
  EXPECT_EQ(all.substr(0, 15), "HTTP/1.1 200 OK");
  const auto body = Dechunk(std::string_view(all).substr(head_end + 4));
  ASSERT_TRUE(body.has_value()) << "cut off after " << all.size() << " bytes, " << pauses
                                << " pauses";
  EXPECT_EQ(body->size(), csv_.size());
  EXPECT_EQ(Sha256Hex(*body), Sha256Hex(csv_));
  EXPECT_GE(pauses, 3) << "the reader was not slow: the file came in " << pauses << " reads";
  EXPECT_TRUE(WaitFor([] { return DownloadHeldBytes(*stack_) == 0; }, std::chrono::seconds(10)));
}

// Past DQ_DOWNLOAD_MEMORY_BYTES (1 MiB here, less than one CSV download holds), a download
// stalled for a second or more is cut at once, whatever the stall timeout (600 s), and a new
// download meanwhile is refused with a 503 that says to come back.
class DownloadMemoryBound : public SlowReaderTest {
 protected:
  static void SetUpTestSuite() {
    Start("600000", 4 << 20,
          {{"DQ_DOWNLOAD_STALL_TIMEOUT_MS", "600000"},
           {"DQ_DOWNLOAD_MEMORY_BYTES", std::to_string(1 << 20)}});
  }
};

TEST_F(DownloadMemoryBound, AStalledDownloadOverTheBoundIsCutAndANewOneWaitsMeanwhile) {
  ASSERT_NE(stack_, nullptr);
  RawClient c(PortOf(stack_->GatewayUrl()));
  ASSERT_TRUE(c.connected());
  c.Send(Request());
  int64_t held = 0;
  // Held past the bound, or already cut if the machine was slow to poll: both end below.
  WaitFor(
      [&] {
        held = std::max(held, DownloadHeldBytes(*stack_));
        return held > (1 << 20);
      },
      std::chrono::seconds(30));
  bool refused = false;
  if (DownloadHeldBytes(*stack_) >= (1 << 20)) {
    HttpResult r = Http("GET", stack_->GatewayUrl() + "/v1/jobs/" + job_ + "/cleaned",
                        {{"X-API-Key", key_}});
    if (r.status == 503) {
      refused = true;
      EXPECT_EQ(json::parse(r.body)["error"], "service_unavailable") << r.body;
      EXPECT_NE(r.body.find("Too many downloads are in progress"), std::string::npos) << r.body;
      EXPECT_NE(r.headers.find("retry-after"), r.headers.end());
    } else {
      EXPECT_EQ(r.status, 200);  // the stalled one was cut just before
    }
  }
  ASSERT_TRUE(WaitFor([] { return DownloadHeldBytes(*stack_) == 0; }, std::chrono::seconds(20)))
      << DownloadHeldBytes(*stack_);
  std::printf("held %lld bytes at most; a new download was %s\n", static_cast<long long>(held),
              refused ? "refused" : "not tried or served");
  const std::string all = c.ReadToEnd();
  const size_t head_end = all.find("\r\n\r\n");
  ASSERT_NE(head_end, std::string::npos);
  EXPECT_FALSE(Dechunk(std::string_view(all).substr(head_end + 4)).has_value());
  // Once it is gone, a download that reads at once gets the whole file.
  HttpResult again = Http("GET", stack_->GatewayUrl() + "/v1/jobs/" + job_ + "/cleaned",
                          {{"X-API-Key", key_}});
  ASSERT_EQ(again.status, 200);
  EXPECT_EQ(Sha256Hex(again.body), Sha256Hex(csv_));
}

// Many clients that stop reading at once: what their downloads hold stays near the bound
// (DQ_DOWNLOAD_MEMORY_BYTES, 8 MiB here; soft by what the admitted downloads grow to after their
// first part), those past it are refused with 503, and the longest-stalled are cut a second or so
// after they stall until the rest fit, not after the stall timeout (600 s).
class ManyStalledDownloads : public SlowReaderTest {
 protected:
  static constexpr int64_t kBound = 8 << 20;
  static void SetUpTestSuite() {
    Start("600000", 4 << 20,
          {{"DQ_DOWNLOAD_STALL_TIMEOUT_MS", "600000"},
           {"DQ_DOWNLOAD_MEMORY_BYTES", std::to_string(kBound)}});
  }
};

TEST_F(ManyStalledDownloads, HoldNearTheBoundTheRestAreRefusedOrCut) {
  ASSERT_NE(stack_, nullptr);
  const pid_t gateway = stack_->gateway().pid();
  const int64_t idle_kb = RssKb(gateway);
  constexpr int kClients = 12;
  std::vector<std::unique_ptr<RawClient>> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.push_back(std::make_unique<RawClient>(PortOf(stack_->GatewayUrl())));
    ASSERT_TRUE(clients.back()->connected());
  }
  const auto sent = std::chrono::steady_clock::now();
  for (auto& c : clients) c->Send(Request());
  int64_t most = 0, most_kb = 0;
  auto sample = [&] {
    const int64_t held = DownloadHeldBytes(*stack_);
    most = std::max(most, held);
    most_kb = std::max(most_kb, RssKb(gateway));
    return held;
  };
  // Every client has its answer's head (a 200 whose body then stalls, or a 503).
  ASSERT_TRUE(WaitFor(
      [&] {
        sample();
        for (auto& c : clients) {
          if (c->Waiting() == 0) return false;
        }
        return true;
      },
      std::chrono::seconds(30)));
  // Over the bound, the longest-stalled are cut until the rest fit.
  ASSERT_TRUE(WaitFor([&] { return sample() <= kBound; }, std::chrono::seconds(20)))
      << DownloadHeldBytes(*stack_);
  const auto fit_after = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - sent);
  const int64_t fit = DownloadHeldBytes(*stack_);
  // The clients read now, one after the other: the cut ones find their answer without its last
  // chunk; the ones left alone (they fit) go on from where they stopped and get the whole file.
  int refused = 0, cut = 0, held = 0;
  for (auto& c : clients) {
    const std::string all = c->ReadToEnd();
    if (all.rfind("HTTP/1.1 503", 0) == 0) {
      ++refused;
      EXPECT_NE(all.find("Too many downloads are in progress"), std::string::npos) << all;
      continue;
    }
    ASSERT_EQ(all.substr(0, 15), "HTTP/1.1 200 OK");
    const size_t head_end = all.find("\r\n\r\n");
    ASSERT_NE(head_end, std::string::npos);
    const auto body = Dechunk(std::string_view(all).substr(head_end + 4));
    if (!body) {
      ++cut;
      continue;
    }
    ++held;
    EXPECT_EQ(Sha256Hex(*body), Sha256Hex(csv_));
  }
  std::printf("%d stalled clients: %d refused (503), %d cut, %d left alone; downloads held "
              "%lld bytes at most (bound %lld), %lld once the cut ones were gone, after %lld ms; "
              "gateway RSS idle %lld kB, at most %lld kB (+%lld kB)\n",
              kClients, refused, cut, held, static_cast<long long>(most),
              static_cast<long long>(kBound), static_cast<long long>(fit),
              static_cast<long long>(fit_after.count()), static_cast<long long>(idle_kb),
              static_cast<long long>(most_kb), static_cast<long long>(most_kb - idle_kb));
  // Twelve cannot all fit: some are refused at once, or admitted and then cut. Which of the two
  // depends on how far the admitted ones had got when the others came (the admission sees only
  // what is held already), so on a loaded machine either may be zero, not both. Two helpers saw
  // a fixed `cut >= 1` fail under load on 2026-11-26.
  EXPECT_GE(refused + cut, 1);
  if (most > kBound) {
    EXPECT_GE(cut, 1) << "held " << most << " bytes, over the bound, but none cut";
  }
  EXPECT_GE(held, 1);  // those that fit are left alone until their stall timeout
  // Soft by what the admitted downloads grow to after their first part: well under what twelve
  // stalled downloads hold unbounded (about 3.7 MiB each, 44 MiB).
  EXPECT_LE(most, 2 * kBound);
  EXPECT_TRUE(WaitFor([&] { return DownloadHeldBytes(*stack_) == 0; }, std::chrono::seconds(20)));
  // The gateway goes on serving: a download that reads at once gets the whole file.
  HttpResult again = Http("GET", stack_->GatewayUrl() + "/v1/jobs/" + job_ + "/cleaned",
                          {{"X-API-Key", key_}});
  ASSERT_EQ(again.status, 200);
  EXPECT_EQ(Sha256Hex(again.body), Sha256Hex(csv_));
}

}  // namespace
}  // namespace dq::testing
