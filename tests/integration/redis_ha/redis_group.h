// Real replicated Redis on loopback for the failover tests: a master, replicas started with
// --replicaof, and optionally three redis-sentinel processes watching them as master "dq"
// (down-after-milliseconds 2000, quorum 2). Every port is a free one; every process dies with
// the object.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dq/common/redis_client.h"
#include "dq/testing/harness.h"

namespace dq::testing {

class RedisNodeProcess {
 public:
  // replica_of: the master's port (0: a master).
  explicit RedisNodeProcess(int replica_of = 0);
  ~RedisNodeProcess();
  int port() const { return port_; }
  pid_t pid() const { return process_ ? process_->pid() : -1; }
  void Kill9();
  void Start();  // again, same port (after Kill9): it comes back empty, as a master
  std::string Cli(const std::vector<std::string>& args) const;
  // INFO replication's role: "master" or "slave".
  std::string Role() const;

 private:
  int port_;
  int replica_of_;
  std::string dir_;
  std::unique_ptr<ChildProcess> process_;
};

class RedisGroup {
 public:
  RedisGroup(int replicas, bool sentinels);
  ~RedisGroup();

  RedisNodeProcess& node(int i) { return *nodes_[static_cast<size_t>(i)]; }
  int nodes() const { return static_cast<int>(nodes_.size()); }
  // Index of the node whose role is master now (-1: none).
  int MasterIndex() const;
  // "127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3" for DQ_REDIS_SENTINELS.
  std::string SentinelList() const;
  // Waits until the master sees `replicas` replicas online.
  bool WaitForReplicas(int replicas, std::chrono::milliseconds timeout) const;
  // Options for a RedisClient of this group (sentinel mode when sentinels run).
  RedisOptions ClientOptions(int min_replicas = 0) const;
  std::string SentinelCli(const std::vector<std::string>& args) const;

 private:
  std::vector<std::unique_ptr<RedisNodeProcess>> nodes_;
  std::vector<int> sentinel_ports_;
  std::vector<std::unique_ptr<ChildProcess>> sentinels_;
};

}  // namespace dq::testing
