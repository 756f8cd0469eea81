// The cluster topology's seams (private to dq_common): what it asks of the outside world, so
// that its routing and retries are unit-tested against fake nodes and a fake clock
// (tests/unit/common/redis_cluster_test.cpp) instead of servers and sleeps.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "redis_topology.h"

namespace dq::redis_internal {

// One node of the cluster, as the topology talks to it: Node (redis_node.h) in production.
class ClusterNode {
 public:
  virtual ~ClusterNode() = default;
  virtual const RedisAddress& address() const = 0;
  // As Node::Run: the commands pipelined on one connection; one reply per command, error
  // replies as replies. On an error status, *failure says whether anything was sent.
  virtual Result<std::vector<RedisReply>> Run(const std::vector<Argv>& cmds, Failure* failure,
                                              std::chrono::milliseconds extra) = 0;
};

// Everything else the topology needs. Called from any thread.
class ClusterIo {
 public:
  virtual ~ClusterIo() = default;
  // The node at address; called once per address for the client's life.
  virtual std::shared_ptr<ClusterNode> Connect(const RedisAddress& address) = 0;
  // One command on a fresh connection (CLUSTER SHARDS, CLUSTER SLOTS), as OneShot.
  virtual Result<RedisReply> OneShot(const RedisAddress& address, const Argv& argv) = 0;
  // A monotonic clock in milliseconds, and a pause of the calling thread: the deadline of a
  // call and its pauses between retries (TRYAGAIN, CLUSTERDOWN...) are measured with these.
  virtual int64_t NowMs() = 0;
  virtual void Sleep(std::chrono::milliseconds pause) = 0;
};

// The pause before the next try of commands that did not run (TRYAGAIN and the like): 10 ms,
// doubling to 200 ms, never past the call's deadline. nullopt when the deadline has passed: the
// caller answers with the last replies. So the last try is made at the deadline, and a slot
// migration that ends within the timeout is seen.
class RetryPauses {
 public:
  explicit RetryPauses(int64_t deadline_ms) : deadline_ms_(deadline_ms) {}
  std::optional<std::chrono::milliseconds> Next(int64_t now_ms);
  int64_t deadline_ms() const { return deadline_ms_; }

  static constexpr int64_t kFirstMs = 10;
  static constexpr int64_t kMostMs = 200;

 private:
  int64_t deadline_ms_;
  int64_t pause_ms_ = kFirstMs;
};

// A cluster topology over `io` (MakeClusterTopology uses real nodes and the steady clock).
std::unique_ptr<RedisClient::Topology> MakeClusterTopology(const RedisOptions& options,
                                                           std::unique_ptr<ClusterIo> io);

}  // namespace dq::redis_internal
