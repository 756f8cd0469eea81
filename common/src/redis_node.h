// One Redis server: a pool of hiredis connections to one address (private to dq_common).
//
// A call borrows a connection, sends its commands pipelined, reads every reply and gives the
// connection back. A connection that saw an I/O error is dropped, never reused (a hiredis
// context is dead after an error). Error replies are replies here; what they mean (a redirect, a
// replica, a full Redis) is the caller's business (redis_client.cpp).
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "dq/common/redis_client.h"

struct redisContext;

namespace dq::redis_internal {

using Argv = std::vector<std::string>;

// Why a call got no replies.
enum class Failure {
  kNone,
  kConnect,  // no connection (or its AUTH or ROLE check failed): nothing was sent
  kIo,       // sent, then the connection failed or timed out: the commands may have run
};

struct NodeOptions {
  std::string user;
  std::string password;
  std::chrono::milliseconds timeout{1000};
  size_t pool_size = 32;
  // Sentinel mode: every new connection asks ROLE and is refused unless the server is a master.
  bool require_master = false;
};

class Node {
 public:
  Node(RedisAddress address, NodeOptions options);
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // Runs cmds pipelined on one connection; one reply per command. `extra` lengthens the read
  // timeout of this call (a WAIT blocks up to its own timeout). On an error status, *failure
  // says whether anything was sent.
  Result<std::vector<RedisReply>> Run(const std::vector<Argv>& cmds, Failure* failure,
                                      std::chrono::milliseconds extra = {});

  const RedisAddress& address() const { return address_; }

 private:
  struct ContextDeleter {
    void operator()(redisContext* c) const;
  };
  using ContextPtr = std::unique_ptr<redisContext, ContextDeleter>;

  Result<ContextPtr> Acquire();
  Result<ContextPtr> Connect();
  void Release(ContextPtr ctx);

  RedisAddress address_;
  NodeOptions options_;
  std::mutex mu_;
  std::vector<ContextPtr> idle_;
  // When a connection attempt failed less than kRetryConnectAfter ago, calls fail at once
  // instead of each waiting out the connect timeout: an outage costs one timeout per interval,
  // not one per request.
  std::atomic<int64_t> last_connect_failure_ms_{0};
};

// Sends one command on a fresh connection to address and returns its reply (error replies as
// replies): for sentinels and for the cluster's slot table, which need no pool.
Result<RedisReply> OneShot(const RedisAddress& address, const NodeOptions& options,
                           const Argv& argv);

int64_t SteadyMillis();

}  // namespace dq::redis_internal
