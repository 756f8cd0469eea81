#include "redis_group.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace dq::testing {
namespace {

std::string Run(const std::string& cmd) {
  std::unique_ptr<FILE, decltype(&pclose)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  char buf[512];
  while (pipe && fgets(buf, sizeof buf, pipe.get()) != nullptr) out += buf;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string CliLine(int port, const std::vector<std::string>& args) {
  std::string cmd = "redis-cli -p " + std::to_string(port);
  for (const auto& a : args) cmd += " '" + a + "'";
  return Run(cmd + " 2>&1");
}

// Debian's redis-sentinel package; without it, redis-server runs in sentinel mode the same way.
std::string SentinelBinary() {
  return access("/usr/bin/redis-sentinel", X_OK) == 0 ? "/usr/bin/redis-sentinel"
                                                      : "/usr/bin/redis-server";
}

}  // namespace

RedisNodeProcess::RedisNodeProcess(int replica_of)
    : port_(FreePort()), replica_of_(replica_of), dir_(TempDir()) {
  Start();
}

RedisNodeProcess::~RedisNodeProcess() { Kill9(); }

void RedisNodeProcess::Start() {
  std::vector<std::string> args = {"--port", std::to_string(port_), "--bind", "127.0.0.1", "--save",
                                   "", "--dir", dir_, "--appendonly", "no",
                                   // replicas announce themselves on loopback to the sentinels
                                   "--replica-announce-ip", "127.0.0.1"};
  if (replica_of_ != 0) {
    args.insert(args.end(), {"--replicaof", "127.0.0.1", std::to_string(replica_of_)});
  }
  process_ = std::make_unique<ChildProcess>("/usr/bin/redis-server",
                                            std::map<std::string, std::string>{}, args);
  if (!WaitFor([&] { return TcpConnects(port_); }, std::chrono::seconds(10))) {
    throw std::runtime_error("redis-server did not start: " + process_->Log());
  }
}

void RedisNodeProcess::Kill9() {
  if (process_) process_->Kill9();
  process_.reset();
}

std::string RedisNodeProcess::Cli(const std::vector<std::string>& args) const {
  return CliLine(port_, args);
}

std::string RedisNodeProcess::Role() const {
  const std::string info = Cli({"INFO", "replication"});
  const size_t at = info.find("role:");
  if (at == std::string::npos) return "";
  const size_t end = info.find_first_of("\r\n", at);
  return info.substr(at + 5, end - at - 5);
}

RedisGroup::RedisGroup(int replicas, bool sentinels) {
  nodes_.push_back(std::make_unique<RedisNodeProcess>());
  for (int i = 0; i < replicas; ++i) {
    nodes_.push_back(std::make_unique<RedisNodeProcess>(nodes_[0]->port()));
  }
  if (!WaitForReplicas(replicas, std::chrono::seconds(20))) {
    throw std::runtime_error("replicas did not sync: " + nodes_[0]->Cli({"INFO", "replication"}));
  }
  if (!sentinels) return;
  for (int i = 0; i < 3; ++i) {
    const int port = FreePort();
    const std::string dir = TempDir();
    const std::string conf = dir + "/sentinel.conf";
    std::ofstream(conf) << "port " << port << "\n"
                        << "bind 127.0.0.1\n"
                        << "dir " << dir << "\n"
                        << "sentinel announce-ip 127.0.0.1\n"
                        << "sentinel monitor dq 127.0.0.1 " << nodes_[0]->port() << " 2\n"
                        << "sentinel down-after-milliseconds dq 2000\n"
                        << "sentinel failover-timeout dq 10000\n"
                        << "sentinel parallel-syncs dq 1\n";
    std::vector<std::string> args = {conf};
    if (SentinelBinary() == "/usr/bin/redis-server") args.push_back("--sentinel");
    sentinels_.push_back(std::make_unique<ChildProcess>(
        SentinelBinary(), std::map<std::string, std::string>{}, args));
    sentinel_ports_.push_back(port);
    if (!WaitFor([&] { return TcpConnects(port); }, std::chrono::seconds(10))) {
      throw std::runtime_error("redis-sentinel did not start: " + sentinels_.back()->Log());
    }
  }
  // Every sentinel knows the master and its replicas, and the others.
  const bool ready = WaitFor(
      [&] {
        for (int port : sentinel_ports_) {
          const std::string m = CliLine(port, {"SENTINEL", "master", "dq"});
          const std::string r = CliLine(port, {"SENTINEL", "replicas", "dq"});
          const std::string s = CliLine(port, {"SENTINEL", "sentinels", "dq"});
          size_t replicas_seen = 0;
          for (size_t at = r.find("name"); at != std::string::npos; at = r.find("name", at + 1)) {
            ++replicas_seen;
          }
          size_t others = 0;
          for (size_t at = s.find("name"); at != std::string::npos; at = s.find("name", at + 1)) {
            ++others;
          }
          if (m.find("master") == std::string::npos ||
              replicas_seen < static_cast<size_t>(replicas) || others < 2) {
            return false;
          }
        }
        return true;
      },
      std::chrono::seconds(30));
  if (!ready) throw std::runtime_error("the sentinels did not discover the group");
}

RedisGroup::~RedisGroup() {
  for (auto& s : sentinels_) s.reset();
  nodes_.clear();
}

int RedisGroup::MasterIndex() const {
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i] && TcpConnects(nodes_[i]->port()) && nodes_[i]->Role() == "master") {
      return static_cast<int>(i);
    }
  }
  return -1;
}

std::string RedisGroup::SentinelList() const {
  std::string out;
  for (int port : sentinel_ports_) {
    out += (out.empty() ? "" : ",") + std::string("127.0.0.1:") + std::to_string(port);
  }
  return out;
}

bool RedisGroup::WaitForReplicas(int replicas, std::chrono::milliseconds timeout) const {
  return WaitFor(
      [&] {
        const int m = MasterIndex();
        if (m < 0) return false;
        const std::string info = nodes_[static_cast<size_t>(m)]->Cli({"INFO", "replication"});
        int online = 0;
        for (size_t at = info.find("state=online"); at != std::string::npos;
             at = info.find("state=online", at + 1)) {
          ++online;
        }
        return online >= replicas;
      },
      timeout);
}

RedisOptions RedisGroup::ClientOptions(int min_replicas) const {
  RedisOptions o;
  o.port = nodes_[0]->port();
  o.timeout = std::chrono::milliseconds(500);
  o.min_replicas = min_replicas;
  o.wait_timeout = std::chrono::milliseconds(300);
  if (!sentinel_ports_.empty()) {
    for (int port : sentinel_ports_) o.sentinels.push_back({"127.0.0.1", port});
  }
  return o;
}

std::string RedisGroup::SentinelCli(const std::vector<std::string>& args) const {
  return CliLine(sentinel_ports_.at(0), args);
}

}  // namespace dq::testing
