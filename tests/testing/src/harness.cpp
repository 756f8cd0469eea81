#include "dq/testing/harness.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>
#include "dq/common/ascii.h"

extern char** environ;

namespace dq::testing {

// A port that is free now, below Linux's ephemeral range (32768-60999). A port the kernel hands
// out for bind(0) comes from that range, where any outgoing connection (a client to Redis, say)
// may take it before the server binds it; that made stacks fail to start now and then.
int FreePort() {
  static std::mt19937 gen(std::random_device{}());
  std::uniform_int_distribution<int> pick(20000, 32767);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int port = pick(gen);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    const bool free = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    close(fd);
    if (free) return port;
  }
  throw std::runtime_error("no free port in 20000-32767");
}

bool TcpConnects(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

bool WaitFor(const std::function<bool()>& cond, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (cond()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return cond();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::string TempDir() {
  char tmpl[] = "/tmp/dqt.XXXXXX";
  if (mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

ChildProcess::ChildProcess(std::string binary, std::map<std::string, std::string> env,
                           std::vector<std::string> args)
    : binary_(std::move(binary)) {
  log_path_ = TempDir() + "/process.log";
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "DQ_", 3) != 0) env_strings.emplace_back(*e);
  }
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_strings = {binary_};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    int fd = open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    // Signals blocked by the test's threads must not stay blocked in the child.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execve(binary_.c_str(), argv.data(), envp.data());
    _exit(127);
  }
}

ChildProcess::~ChildProcess() {
  if (Running()) Stop(SIGTERM, std::chrono::seconds(5));
}

bool ChildProcess::Running() {
  if (pid_ <= 0) return false;
  int status = 0;
  pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    exit_status_ = status;
    pid_ = -1;
    return false;
  }
  return r == 0;
}

int ChildProcess::Stop(int sig, std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return exit_status_;
  kill(pid_, sig);
  if (!WaitFor([&] { return !Running(); }, timeout)) {
    kill(pid_, SIGKILL);
    WaitFor([&] { return !Running(); }, std::chrono::seconds(5));
  }
  return exit_status_;
}

void ChildProcess::Kill9() { Stop(SIGKILL); }

std::string ChildProcess::Log() const {
  std::ifstream in(log_path_);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RedisServer::RedisServer(bool appendonly) : port_(FreePort()), appendonly_(appendonly) {
  dir_ = TempDir();
  Start();
}

RedisServer::~RedisServer() { Stop(); }

void RedisServer::Start() {
  std::vector<std::string> args = {"--port", std::to_string(port_), "--bind", "127.0.0.1",
                                   "--save", "", "--dir", dir_, "--appendonly",
                                   appendonly_ ? "yes" : "no"};
  if (appendonly_) {
    args.push_back("--appendfsync");
    args.push_back("always");
  }
  process_ = std::make_unique<ChildProcess>("/usr/bin/redis-server",
                                            std::map<std::string, std::string>{}, args);
  if (!WaitFor([&] { return TcpConnects(port_); }, std::chrono::seconds(10))) {
    throw std::runtime_error("redis-server did not start: " + process_->Log());
  }
}

void RedisServer::Stop() {
  if (process_) process_->Kill9();
  process_.reset();
}

void RedisServer::Restart() {
  Stop();
  Start();
}

std::string RedisServer::Cli(const std::vector<std::string>& args) const {
  std::string cmd = "redis-cli -p " + std::to_string(port_);
  for (const auto& a : args) cmd += " '" + a + "'";
  std::unique_ptr<FILE, decltype(&pclose)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  char buf[512];
  while (pipe && fgets(buf, sizeof buf, pipe.get()) != nullptr) out += buf;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

namespace {

size_t WriteBody(char* data, size_t size, size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

size_t WriteHeader(char* data, size_t size, size_t n, void* user) {
  std::string line(data, size * n);
  auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = ascii::Lower(std::string_view(line).substr(0, colon));
    std::string value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ')) value.erase(0, 1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n')) value.pop_back();
    // A repeated header (two Set-Cookie lines) keeps every value, one per line, in order.
    auto& headers = *static_cast<std::map<std::string, std::string>*>(user);
    auto [it, added] = headers.emplace(name, value);
    if (!added) it->second += "\n" + value;
  }
  return size * n;
}

}  // namespace

HttpResult Http(const std::string& method, const std::string& url,
                const std::map<std::string, std::string>& headers, const std::string& body) {
  HttpResult result;
  CURL* curl = curl_easy_init();
  curl_slist* list = nullptr;
  for (const auto& [k, v] : headers) list = curl_slist_append(list, (k + ": " + v).c_str());
  list = curl_slist_append(list, "Expect:");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
  curl_easy_setopt(curl, CURLOPT_PROXY, "");
  if (!body.empty() || method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  }
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &result.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, WriteHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &result.headers);
  if (curl_easy_perform(curl) == CURLE_OK) {
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    result.status = static_cast<int>(code);
  }
  curl_slist_free_all(list);
  curl_easy_cleanup(curl);
  return result;
}

}  // namespace dq::testing
