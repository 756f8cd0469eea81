// How RedisClient finds the server of a command (private to dq_common): one server, the master
// the sentinels name, or the node of a cluster that serves the command's slot.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "dq/common/redis_client.h"
#include "redis_node.h"

namespace dq {

class RedisClient::Topology {
 public:
  virtual ~Topology() = default;
  // Runs cmds, pipelined, on the server for `slot` (-1: a command without keys; any server).
  // Every command of cmds belongs to that slot. What the topology can repair it repairs: a
  // redirect, a stale master, a slot that is migrating. It sends commands again only when they
  // did not run. `extra` lengthens the read timeout (WAIT).
  virtual Result<std::vector<RedisReply>> Run(int slot,
                                              const std::vector<redis_internal::Argv>& cmds,
                                              std::chrono::milliseconds extra) = 0;
  // True when every server the client writes to answers PING.
  virtual bool Ping() = 0;
  // The address serving `slot` ("" when unknown).
  virtual std::string Describe(int slot) = 0;
  // Whether commands of different slots may go to different servers (cluster mode).
  virtual bool Sharded() const { return false; }
};

std::unique_ptr<RedisClient::Topology> MakeSingleTopology(const RedisOptions& options);
std::unique_ptr<RedisClient::Topology> MakeSentinelTopology(const RedisOptions& options);
std::unique_ptr<RedisClient::Topology> MakeClusterTopology(const RedisOptions& options);

namespace redis_internal {
NodeOptions NodeOptionsOf(const RedisOptions& options);
// True when every reply is an error and one of them says the server is not the master (so none
// of the commands ran, and all may go to the new master).
bool NoneRanOnAReplica(const std::vector<RedisReply>& replies);
}  // namespace redis_internal

}  // namespace dq
