// A small, thread-safe Redis client over hiredis 0.14 (Debian 12 has no C++ wrapper).
//
// Connections are pooled: a call borrows one, runs, and gives it back. A connection that saw any
// error is dropped, never reused (hiredis contexts are dead after an error), so a Redis restart
// costs the calls in flight and nothing after it. Every socket has connect and command timeouts:
// with Redis down a call fails in about the timeout, as kUnavailable, and never hangs.
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

struct redisContext;

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

struct RedisOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string user;      // ACL user (empty: the default user)
  std::string password;  // empty: no AUTH
  std::chrono::milliseconds timeout{1000};
  size_t pool_size = 32;  // idle connections kept
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

class RedisClient {
 public:
  explicit RedisClient(RedisOptions options);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // Runs one command. Errors: kUnavailable when Redis cannot be reached or times out; kInternal
  // for an error reply (WRONGTYPE and the like are bugs, not traffic).
  Result<RedisReply> Command(const std::vector<std::string>& argv);

  // Runs the commands in one round trip; one reply per command, error replies included as
  // replies. Errors: kUnavailable as above.
  Result<std::vector<RedisReply>> Pipeline(const std::vector<std::vector<std::string>>& commands);

  // EVALSHA script (EVAL on NOSCRIPT). Errors as Command.
  Result<RedisReply> Eval(const RedisScript& script, const std::vector<std::string>& keys,
                          const std::vector<std::string>& args);

  // True when PING answers.
  bool Ping();

  const RedisOptions& options() const { return options_; }

 private:
  struct ContextDeleter {
    void operator()(redisContext* c) const;
  };
  using ContextPtr = std::unique_ptr<redisContext, ContextDeleter>;

  Result<ContextPtr> Acquire();
  Result<ContextPtr> Connect(std::chrono::milliseconds read_timeout);
  void Release(ContextPtr ctx);
  Result<RedisReply> RunOn(redisContext* ctx, const std::vector<std::string>& argv);

  RedisOptions options_;
  std::mutex mu_;
  std::vector<ContextPtr> idle_;
  // When a connection attempt failed less than kRetryConnectAfter ago, calls fail at once
  // instead of each waiting out the connect timeout: an outage costs one timeout per interval,
  // not one per request.
  std::atomic<int64_t> last_connect_failure_ms_{0};
};

// Builds the hash-tagged Redis key of an account: AccountKey("acct_1", "jobs") ==
// "dq:{acct_1}:jobs". Every key of one account shares the tag, so the data can move to Redis
// Cluster unchanged and every script touches one slot.
std::string AccountKey(std::string_view account_id, std::string_view suffix);

}  // namespace dq
