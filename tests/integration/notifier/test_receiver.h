// A small HTTP/1.1 webhook receiver for tests and the benchmark: listens on 127.0.0.1:<free>,
// keeps connections alive, records every request, and answers what the test's responder says.
// Header-only; one thread per connection (tests open a handful).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#include "dq/common/ascii.h"

namespace dq::notifier::testing {

struct ReceivedRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::chrono::steady_clock::time_point at;
  std::string Header(const std::string& lower) const {
    auto it = headers.find(lower);
    return it == headers.end() ? "" : it->second;
  }
};

struct ReceiverReply {
  int status = 200;
  std::chrono::milliseconds delay{0};  // before answering (a slow receiver)
  std::string body = "ok";              // the answer's body
};

class TestReceiver {
 public:
  using Responder = std::function<ReceiverReply(const ReceivedRequest&, int index)>;

  explicit TestReceiver(Responder responder = nullptr) : responder_(std::move(responder)) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    listen(listen_fd_, 512);
    socklen_t len = sizeof addr;
    getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { AcceptLoop(); });
  }

  ~TestReceiver() {
    stop_ = true;
    acceptor_.join();
    close(listen_fd_);
    std::vector<std::thread> workers;
    {
      std::lock_guard lock(mu_);
      workers.swap(workers_);
    }
    for (auto& t : workers) t.join();
  }

  int port() const { return port_; }
  std::string Url(const std::string& path = "/hook") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  void SetResponder(Responder r) {
    std::lock_guard lock(mu_);
    responder_ = std::move(r);
  }
  std::vector<ReceivedRequest> Requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }
  size_t Count() const {
    std::lock_guard lock(mu_);
    return requests_.size();
  }
  // Called on every request after it is recorded (the benchmark timestamps receipts here).
  void OnRequest(std::function<void(const ReceivedRequest&)> f) {
    std::lock_guard lock(mu_);
    on_request_ = std::move(f);
  }
  void SetRecording(bool on) { recording_ = on; }

 private:
  void AcceptLoop() {
    while (!stop_) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      std::lock_guard lock(mu_);
      workers_.emplace_back([this, fd] { Serve(fd); });
    }
  }

  static std::string Lower(std::string_view s) { return ascii::Lower(s); }

  void Serve(int fd) {
    std::string buf;
    char chunk[16384];
    while (!stop_) {
      // Read until a full request (headers + Content-Length body) is buffered.
      size_t header_end;
      while ((header_end = buf.find("\r\n\r\n")) == std::string::npos) {
        if (!ReadMore(fd, buf, chunk, sizeof chunk)) return Close(fd);
      }
      ReceivedRequest req;
      const std::string head = buf.substr(0, header_end);
      size_t line_end = head.find("\r\n");
      const std::string first = head.substr(0, line_end);
      const size_t sp1 = first.find(' '), sp2 = first.rfind(' ');
      req.method = first.substr(0, sp1);
      req.path = first.substr(sp1 + 1, sp2 - sp1 - 1);
      size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
      while (pos < head.size()) {
        size_t e = head.find("\r\n", pos);
        if (e == std::string::npos) e = head.size();
        const std::string line = head.substr(pos, e - pos);
        const size_t colon = line.find(':');
        if (colon != std::string::npos) {
          size_t v = colon + 1;
          while (v < line.size() && line[v] == ' ') ++v;
          req.headers[Lower(line.substr(0, colon))] = line.substr(v);
        }
        pos = e + 2;
      }
      const size_t length = static_cast<size_t>(std::stoul(
          req.headers.count("content-length") ? req.headers["content-length"] : "0"));
      while (buf.size() < header_end + 4 + length) {
        if (!ReadMore(fd, buf, chunk, sizeof chunk)) return Close(fd);
      }
      req.body = buf.substr(header_end + 4, length);
      buf.erase(0, header_end + 4 + length);
      req.at = std::chrono::steady_clock::now();

      Responder responder;
      std::function<void(const ReceivedRequest&)> hook;
      int index;
      {
        std::lock_guard lock(mu_);
        index = static_cast<int>(seen_++);
        if (recording_) requests_.push_back(req);
        responder = responder_;
        hook = on_request_;
      }
      if (hook) hook(req);
      ReceiverReply reply = responder ? responder(req, index) : ReceiverReply{};
      if (reply.delay.count() > 0) std::this_thread::sleep_for(reply.delay);
      const std::string& body = reply.body;
      const std::string resp = "HTTP/1.1 " + std::to_string(reply.status) +
                               " X\r\nContent-Length: " + std::to_string(body.size()) +
                               "\r\nConnection: keep-alive\r\n\r\n" + body;
      if (send(fd, resp.data(), resp.size(), MSG_NOSIGNAL) < 0) return Close(fd);
    }
    Close(fd);
  }

  bool ReadMore(int fd, std::string& buf, char* chunk, size_t size) {
    while (!stop_) {
      pollfd p{fd, POLLIN, 0};
      const int r = poll(&p, 1, 50);
      if (r == 0) continue;
      if (r < 0) return false;
      const ssize_t n = recv(fd, chunk, size, 0);
      if (n <= 0) return false;
      buf.append(chunk, static_cast<size_t>(n));
      return true;
    }
    return false;
  }

  static void Close(int fd) { close(fd); }

  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<bool> recording_{true};
  mutable std::mutex mu_;
  Responder responder_;
  std::function<void(const ReceivedRequest&)> on_request_;
  std::vector<ReceivedRequest> requests_;
  size_t seen_ = 0;
  std::thread acceptor_;
  std::vector<std::thread> workers_;
};

// A receiver that accepts connections and never answers: a dead endpoint that holds every
// attempt for the sender's whole timeout. Counts the connections open at once (a connection
// ends when the sender closes it) and the most seen.
class BlackHole {
 public:
  BlackHole() {
    listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    listen(listen_fd_, 512);
    socklen_t len = sizeof addr;
    getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Loop(); });
  }
  ~BlackHole() {
    stop_ = true;
    thread_.join();
    for (int fd : open_) close(fd);
    close(listen_fd_);
  }
  std::string Url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/hook"; }
  std::string Destination() const { return "127.0.0.1:" + std::to_string(port_); }
  int accepted() const { return accepted_.load(); }
  int peak() const { return peak_.load(); }

 private:
  void Loop() {
    char buf[4096];
    while (!stop_) {
      std::vector<pollfd> fds = {{listen_fd_, POLLIN, 0}};
      for (int fd : open_) fds.push_back({fd, POLLIN, 0});
      if (poll(fds.data(), fds.size(), 50) <= 0) continue;
      if (fds[0].revents & POLLIN) {
        const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) {
          open_.push_back(fd);
          ++accepted_;
          peak_ = std::max<int>(peak_.load(), static_cast<int>(open_.size()));
        }
      }
      for (size_t i = 1; i < fds.size(); ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        if (recv(fds[i].fd, buf, sizeof buf, MSG_DONTWAIT) == 0 || (fds[i].revents & POLLERR)) {
          close(fds[i].fd);  // the sender gave up
          open_.erase(std::find(open_.begin(), open_.end(), fds[i].fd));
        }
      }
    }
  }

  int listen_fd_ = -1;
  int port_ = 0;
  std::vector<int> open_;
  std::atomic<int> accepted_{0};
  std::atomic<int> peak_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace dq::notifier::testing
