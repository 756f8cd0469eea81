// The floor under POST /v1/validate on this machine: an HTTP/1.1 server that does nothing but
// take each request's body and send back a fixed answer, so that wrk against it measures what the
// kernel's loopback copies, wrk itself and the bytes alone cost, with no service work at all.
// With --parse it also parses each body with simdjson (DOM, one parser per connection), the
// least any JSON service must do with it. scripts/bench-validate-floor.sh runs it beside the real
// stack with the same body and the same wrk load (docs/PERFORMANCE.md).
//
//   http_floor PORT ANSWER_FILE [--parse]
//
// One blocking thread per connection, keep-alive, Content-Length bodies only: a benchmark
// fixture, never a service. Listens on 127.0.0.1 only.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <simdjson.h>

#include <cctype>
#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

namespace {

bool WriteAll(int fd, const std::string& head, const std::string& body) {
  iovec iov[2] = {{const_cast<char*>(head.data()), head.size()},
                  {const_cast<char*>(body.data()), body.size()}};
  size_t left = head.size() + body.size();
  int first = 0;
  while (left > 0) {
    const ssize_t n = writev(fd, iov + first, 2 - first);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    left -= static_cast<size_t>(n);
    size_t k = static_cast<size_t>(n);
    while (first < 2 && k >= iov[first].iov_len) k -= iov[first++].iov_len;
    if (first < 2) {
      iov[first].iov_base = static_cast<char*>(iov[first].iov_base) + k;
      iov[first].iov_len -= k;
    }
  }
  return true;
}

size_t ContentLength(std::string_view head) {
  for (size_t at = 0; (at = head.find('\n', at)) != std::string_view::npos;) {
    ++at;
    static constexpr std::string_view kName = "content-length:";
    if (head.size() - at < kName.size()) break;
    bool match = true;
    for (size_t i = 0; i < kName.size() && match; ++i) {
      match = std::tolower(static_cast<unsigned char>(head[at + i])) == kName[i];
    }
    if (match) return std::strtoul(head.data() + at + kName.size(), nullptr, 10);
  }
  return 0;
}

void Serve(int fd, const std::string& answer, bool parse) {
  const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                           std::to_string(answer.size()) + "\r\n\r\n";
  simdjson::dom::parser parser;
  std::string buf;
  size_t have = 0;
  while (true) {
    // Read until the head is complete, then until the body is.
    size_t head_end;
    while ((head_end = std::string_view(buf.data(), have).find("\r\n\r\n")) ==
           std::string_view::npos) {
      if (buf.size() - have < 65536) buf.resize(have + 65536);
      const ssize_t n = read(fd, buf.data() + have, buf.size() - have);
      if (n <= 0) return close(fd), void();
      have += static_cast<size_t>(n);
    }
    const size_t body_at = head_end + 4;
    const size_t length = ContentLength(std::string_view(buf.data(), body_at));
    if (buf.size() < body_at + length + simdjson::SIMDJSON_PADDING) {
      buf.resize(body_at + length + simdjson::SIMDJSON_PADDING);
    }
    while (have < body_at + length) {
      const ssize_t n = read(fd, buf.data() + have, buf.size() - have);
      if (n <= 0) return close(fd), void();
      have += static_cast<size_t>(n);
    }
    if (parse) {
      auto doc = parser.parse(buf.data() + body_at, length, /*realloc_if_needed=*/false);
      if (doc.error()) {
        std::fprintf(stderr, "http_floor: %s\n", simdjson::error_message(doc.error()));
        return close(fd), void();
      }
    }
    if (!WriteAll(fd, head, answer)) return close(fd), void();
    // Keep what came after this request (a pipelined one).
    const size_t used = body_at + length;
    std::memmove(buf.data(), buf.data() + used, have - used);
    have -= used;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s PORT ANSWER_FILE [--parse]\n", argv[0]);
    return 2;
  }
  const int port = std::atoi(argv[1]);
  std::ifstream in(argv[2], std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string answer = ss.str();
  const bool parse = argc > 3 && std::string_view(argv[3]) == "--parse";
  // wrk closes its connections when its run ends, often in the middle of a large answer: the
  // write must fail with EPIPE on that connection, not end the server by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);

  const int lfd = socket(AF_INET, SOCK_STREAM, 0);
  const int one = 1;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(lfd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(lfd, 128) != 0) {
    std::perror("http_floor: bind/listen");
    return 1;
  }
  while (true) {
    const int fd = accept(lfd, nullptr, nullptr);
    if (fd < 0) continue;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::thread(Serve, fd, std::cref(answer), parse).detach();
  }
}
