// A small, thread-safe Redis client over hiredis 0.14 (Debian 12 has no C++ wrapper, and no
// cluster-aware client: hiredis-cluster needs hiredis 1.0).
//
// Three ways to find the server, chosen by RedisOptions:
// - one server (host, port);
// - Redis Sentinel (`sentinels`, `master_name`): the client asks the sentinels for the master,
//   checks ROLE on every new connection, and asks again after READONLY, MASTERDOWN or a lost
//   connection, with a bounded backoff;
// - Redis Cluster (`cluster`, seed addresses): every command goes to the node that serves its
//   key's slot (redis_slots.h), from a slot table one thread refreshes at a limited rate; MOVED
//   and ASK are followed, TRYAGAIN and CLUSTERDOWN retried after a pause.
//
// Connections are pooled per server: a call borrows one, runs, and gives it back. A connection
// that saw any error is dropped, never reused, so a Redis restart costs the calls in flight and
// nothing after it. Every socket has connect and command timeouts: with Redis down a call fails in
// about the timeout, as kUnavailable, and never hangs. A command that may have run (its
// connection failed or timed out after it was sent) is never sent again by the client: the
// caller decides. Commands that did not run (a redirect, TRYAGAIN, READONLY) are.
//
// A script's keys must share one slot (one hash tag), in every mode: the client refuses one that
// does not, so a test against a single Redis catches what Redis Cluster would refuse.
//
// Writes that must survive a failover use the *Durable calls: with min_replicas > 0 the write is
// followed, on the same connection, by WAIT min_replicas wait_timeout, and the answer says
// whether enough replicas had it in time.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/status.h"

namespace dq {

// An owned copy of a Redis reply.
struct RedisReply {
  enum class Type { kNil, kString, kInteger, kArray, kStatus, kError };
  Type type = Type::kNil;
  std::string str;  // kString, kStatus, kError
  int64_t integer = 0;
  std::vector<RedisReply> elements;  // kArray

  bool is_nil() const { return type == Type::kNil; }
  bool is_error() const { return type == Type::kError; }
};

struct RedisAddress {
  std::string host;
  int port = 0;
  std::string Text() const { return host + ":" + std::to_string(port); }
  bool operator==(const RedisAddress&) const = default;
  bool operator<(const RedisAddress& o) const {
    return host != o.host ? host < o.host : port < o.port;
  }
};

// "host:port,host:port" (spaces allowed around commas; "[::1]:26379" for IPv6). Errors:
// kInvalidRequest naming the entry that is not host:port.
Result<std::vector<RedisAddress>> ParseRedisAddresses(std::string_view list);

struct RedisOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string user;      // ACL user (empty: the default user)
  std::string password;  // empty: no AUTH
  std::chrono::milliseconds timeout{1000};
  size_t pool_size = 32;  // idle connections kept (per server)
  // Sentinel mode when not empty: host and port are ignored.
  std::vector<RedisAddress> sentinels;
  std::string master_name = "dq";
  std::string sentinel_password;  // AUTH for the sentinels (empty: none)
  // Cluster mode when not empty (seed nodes; the rest is learnt from the cluster).
  std::vector<RedisAddress> cluster;
  // Durable writes wait for this many replicas, at most wait_timeout (0: no WAIT).
  int min_replicas = 0;
  std::chrono::milliseconds wait_timeout{500};
  // Partitions of the job queue, the event stream and the retry set (DQ_QUEUE_PARTITIONS, or
  // DefaultPartitions(cluster) when it is 0; dq/common/partitions.h). Not the client's concern:
  // carried here so that every process that reads those keys learns it with its Redis settings.
  int partitions = 1;
};

class Settings;
// The Redis options of a component, from its settings (DQ_REDIS_*). Errors: kInvalidRequest
// naming the variable (an address list that does not parse; sentinels and a cluster both set).
Result<RedisOptions> RedisOptionsFromSettings(const Settings& settings);
// The start-up log line of a service whose sentinels or cluster make DQ_REDIS_HOST and
// DQ_REDIS_PORT unused (nothing for one server).
void LogRedisMode(const RedisOptions& options);

// A write that must survive a failover, and whether it is known to: `replicas` replicas had it
// within the wait (WAIT's answer). With min_replicas 0, confirmed is always true.
struct DurableReply {
  RedisReply reply;
  int64_t replicas = 0;
  bool confirmed = true;
};

// A Lua script run with EVALSHA. Its SHA1 is computed once; after a Redis restart (script cache
// empty, NOSCRIPT) the client falls back to EVAL, which also reloads the cache.
class RedisScript {
 public:
  explicit RedisScript(std::string body);
  const std::string& body() const { return body_; }
  const std::string& sha1() const { return sha1_; }

 private:
  std::string body_;
  std::string sha1_;
};

// What a caller (and so a user) reads when Redis cannot take a command. Redis's own text (it names
// servers, scripts and internals) is logged instead, at most one line a second.
// - Redis is full (maxmemory reached under noeviction: an OOM reply): writes are refused, reads
//   and deletes still work.
inline constexpr std::string_view kRedisFullMessage =
    "dq cannot save new data right now because its database is full; your jobs can still be "
    "listed, read and deleted. Retry in a few minutes, and tell the service's operator if it "
    "lasts.";
// - anything else (unreachable, timed out, loading, a failover under way...).
inline constexpr std::string_view kRedisDownMessage =
    "dq's database is not reachable right now; retry in a few seconds.";
// True for Redis's reply to a write it refuses because maxmemory is reached ("OOM command not
// allowed when used memory > 'maxmemory'", also as a script's error).
bool IsRedisFull(std::string_view error);

class RedisClient {
 public:
  explicit RedisClient(RedisOptions options);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // Runs one command, routed by its first key (RoutingKey, redis_slots.h). Errors: kUnavailable
  // when Redis cannot be reached or times out, or answers that it cannot take the command now
  // (LOADING, READONLY, MASTERDOWN, TRYAGAIN, CLUSTERDOWN, NOREPLICAS, OOM, BUSY), with
  // kRedisFullMessage (OOM) or kRedisDownMessage; kInternal for any other error reply (WRONGTYPE
  // and the like are bugs, not traffic), with Redis's text.
  Result<RedisReply> Command(const std::vector<std::string>& argv);
  // The same, routed by `route` (a key of the slot the command belongs to).
  Result<RedisReply> CommandOn(std::string_view route, const std::vector<std::string>& argv);

  // Runs the commands in one round trip per server; one reply per command, error replies
  // included as replies. In cluster mode the commands are grouped by slot, each group sent to
  // its node in order. Errors: kUnavailable as above (a reply saying Redis cannot take commands
  // now fails the whole call).
  Result<std::vector<RedisReply>> Pipeline(const std::vector<std::vector<std::string>>& commands);

  // EVALSHA script (EVAL on NOSCRIPT), routed by its keys, which must share one slot (else
  // kInternal, before anything is sent). Errors as Command.
  Result<RedisReply> Eval(const RedisScript& script, const std::vector<std::string>& keys,
                          const std::vector<std::string>& args);

  // Durable writes: as Command and Eval, then WAIT on the same connection when min_replicas > 0.
  // An unconfirmed write did run on the master: the caller answers 503 and undoes or retries it
  // (NotReplicated gives the status to answer with).
  Result<DurableReply> CommandDurable(const std::vector<std::string>& argv);
  Result<DurableReply> EvalDurable(const RedisScript& script, const std::vector<std::string>& keys,
                                   const std::vector<std::string>& args);
  // Pipeline, then WAIT after the commands of each server. `replicas` (not null) gets the fewest
  // replicas any server reached, `confirmed` whether that is enough.
  Result<std::vector<RedisReply>> PipelineDurable(
      const std::vector<std::vector<std::string>>& commands, DurableReply* outcome);
  // kUnavailable: "the write reached N of the M replicas it waits for within T ms".
  Status NotReplicated(const DurableReply& reply) const;

  // True when PING answers (the master, in sentinel mode; every slot's node, in cluster mode).
  bool Ping();
  // True when Redis would take a write now; false while it refuses writes (maxmemory reached
  // under noeviction, a replica, failed persistence: MISCONF) or cannot be reached. Writes
  // nothing. In cluster mode it asks one node. A Redis older than 7 answers true while reachable.
  bool AcceptsWrites();

  const RedisOptions& options() const { return options_; }

  // Where requests go, for tests and logs: "host:port" of the current master (sentinel mode,
  // "" when unknown) or of the node serving `route`'s slot (cluster mode).
  std::string Describe(std::string_view route = "") const;

  class Topology;  // how a command finds its server (redis_client.cpp)

 private:
  Result<std::vector<RedisReply>> Run(int slot, std::vector<std::vector<std::string>> cmds,
                                      bool wait);
  Result<std::vector<RedisReply>> RunPipeline(const std::vector<std::vector<std::string>>& commands,
                                              DurableReply* outcome);
  Result<RedisReply> Single(int slot, const std::vector<std::string>& argv, bool wait,
                            int64_t* replicas);
  Result<RedisReply> EvalOn(const RedisScript& script, const std::vector<std::string>& keys,
                            const std::vector<std::string>& args, bool wait, int64_t* replicas);

  RedisOptions options_;
  std::unique_ptr<Topology> topology_;
};

// Builds the hash-tagged Redis key of an account: AccountKey("acct_1", "jobs") ==
// "dq:{acct_1}:jobs". Every key of one account shares the tag, so the data can move to Redis
// Cluster unchanged and every script touches one slot.
std::string AccountKey(std::string_view account_id, std::string_view suffix);

}  // namespace dq
