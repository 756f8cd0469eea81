// Integration-test harness: real processes on free loopback ports.
//
//   RedisServer redis;                                   // redis-server on 127.0.0.1:<free>
//   ChildProcess validator(DQ_VALIDATOR_BIN, {{"DQ_VALIDATOR_PORT", port}});
//   WaitFor([&] { return TcpConnects(port); }, 10s);
//   HttpResponse r = Http("POST", url, {{"X-API-Key", key}}, body);
//
// Every process is killed (SIGKILL after a SIGTERM grace) when its object is destroyed, so a
// failing test leaves nothing running. Nothing here talks to anything but 127.0.0.1.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dq::testing {

// A TCP port that was free a moment ago on 127.0.0.1.
int FreePort();
// True when a TCP connection to 127.0.0.1:port succeeds.
bool TcpConnects(int port);
// Polls cond every 10 ms until it holds or the timeout passes; returns the last result.
bool WaitFor(const std::function<bool()>& cond, std::chrono::milliseconds timeout);
// A fresh temporary directory (short path: unix sockets need < 108 characters).
std::string TempDir();

class ChildProcess {
 public:
  // Starts binary with args and env added to the inherited environment (DQ_* variables of the
  // test process are dropped first, so tests are hermetic). Output goes to a log file.
  ChildProcess(std::string binary, std::map<std::string, std::string> env,
               std::vector<std::string> args = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool Running();
  // Sends sig; waits for exit up to timeout; returns the exit status (or -1).
  int Stop(int sig, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  void Kill9();
  std::string Log() const;

 private:
  std::string binary_;
  std::string log_path_;
  pid_t pid_ = -1;
  int exit_status_ = -1;
};

class RedisServer {
 public:
  // appendonly: keep an AOF (for restart tests) in the server's own temp dir.
  explicit RedisServer(bool appendonly = false);
  ~RedisServer();
  int port() const { return port_; }
  void Stop();     // SIGKILL
  void Restart();  // same port, same data dir
  // redis-cli style command against the server; returns the raw reply text.
  std::string Cli(const std::vector<std::string>& args) const;

 private:
  void Start();
  int port_;
  bool appendonly_;
  std::string dir_;
  std::unique_ptr<ChildProcess> process_;
};

struct HttpResult {
  int status = 0;  // 0: the connection failed
  std::map<std::string, std::string> headers;  // names lower-cased; repeated: one value a line
  std::string body;
  std::string Header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? "" : it->second;
  }
};

// One HTTP request with libcurl (no Expect: 100-continue; 30 s timeout).
HttpResult Http(const std::string& method, const std::string& url,
                const std::map<std::string, std::string>& headers = {},
                const std::string& body = "");

}  // namespace dq::testing
