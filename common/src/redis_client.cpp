#include "dq/common/redis_client.h"

#include <hiredis/hiredis.h>
#include <openssl/sha.h>

#include <cstring>

namespace dq {
namespace {

RedisReply Convert(const redisReply* r) {
  RedisReply out;
  switch (r->type) {
    case REDIS_REPLY_STRING:
      out.type = RedisReply::Type::kString;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      out.type = RedisReply::Type::kStatus;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      out.type = RedisReply::Type::kError;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_INTEGER:
      out.type = RedisReply::Type::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::Type::kArray;
      out.elements.reserve(r->elements);
      for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(Convert(r->element[i]));
      break;
    default:
      out.type = RedisReply::Type::kNil;
  }
  return out;
}

timeval ToTimeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

Status Unavailable(const redisContext* c) {
  std::string why = c != nullptr && c->errstr[0] != '\0' ? c->errstr : "connection failed";
  return Status(ErrorCode::kUnavailable, "Redis is unavailable: " + why);
}

void AppendArgv(redisContext* ctx, const std::vector<std::string>& argv) {
  std::vector<const char*> ptrs;
  std::vector<size_t> lens;
  ptrs.reserve(argv.size());
  lens.reserve(argv.size());
  for (const auto& a : argv) {
    ptrs.push_back(a.data());
    lens.push_back(a.size());
  }
  redisAppendCommandArgv(ctx, static_cast<int>(argv.size()), ptrs.data(), lens.data());
}

constexpr int64_t kRetryConnectAfterMs = 250;

int64_t SteadyMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void RedisClient::ContextDeleter::operator()(redisContext* c) const { redisFree(c); }

RedisScript::RedisScript(std::string body) : body_(std::move(body)) {
  unsigned char md[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(body_.data()), body_.size(), md);
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned char b : md) {
    sha1_.push_back(kHex[b >> 4]);
    sha1_.push_back(kHex[b & 0xf]);
  }
}

RedisClient::RedisClient(RedisOptions options) : options_(std::move(options)) {}

RedisClient::~RedisClient() = default;

Result<RedisClient::ContextPtr> RedisClient::Connect(std::chrono::milliseconds read_timeout) {
  const int64_t now = SteadyMillis();
  const int64_t last = last_connect_failure_ms_.load(std::memory_order_relaxed);
  if (last != 0 && now - last < kRetryConnectAfterMs) {
    return Status(ErrorCode::kUnavailable, "Redis is unavailable (recent connect failure)");
  }
  ContextPtr ctx(
      redisConnectWithTimeout(options_.host.c_str(), options_.port, ToTimeval(options_.timeout)));
  if (!ctx || ctx->err) {
    last_connect_failure_ms_.store(SteadyMillis(), std::memory_order_relaxed);
    return Unavailable(ctx.get());
  }
  last_connect_failure_ms_.store(0, std::memory_order_relaxed);
  if (redisSetTimeout(ctx.get(), ToTimeval(read_timeout)) != REDIS_OK) {
    return Unavailable(ctx.get());
  }
  redisEnableKeepAlive(ctx.get());
  if (!options_.password.empty()) {
    auto reply = options_.user.empty()
                     ? RunOn(ctx.get(), {"AUTH", options_.password})
                     : RunOn(ctx.get(), {"AUTH", options_.user, options_.password});
    if (!reply.ok()) return reply.status();
  }
  return ctx;
}

Result<RedisClient::ContextPtr> RedisClient::Acquire() {
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      ContextPtr ctx = std::move(idle_.back());
      idle_.pop_back();
      return ctx;
    }
  }
  return Connect(options_.timeout);
}

void RedisClient::Release(ContextPtr ctx) {
  if (!ctx || ctx->err) return;  // a context that saw an error is never reused
  std::lock_guard lock(mu_);
  if (idle_.size() < options_.pool_size) idle_.push_back(std::move(ctx));
}

Result<RedisReply> RedisClient::RunOn(redisContext* ctx, const std::vector<std::string>& argv) {
  AppendArgv(ctx, argv);
  void* raw = nullptr;
  if (redisGetReply(ctx, &raw) != REDIS_OK || raw == nullptr) return Unavailable(ctx);
  std::unique_ptr<redisReply, decltype(&freeReplyObject)> reply(static_cast<redisReply*>(raw),
                                                                 freeReplyObject);
  RedisReply out = Convert(reply.get());
  if (out.is_error()) {
    // LOADING (restart in progress) and READONLY (failover) are transient, not bugs.
    if (out.str.rfind("LOADING", 0) == 0 || out.str.rfind("READONLY", 0) == 0 ||
        out.str.rfind("MASTERDOWN", 0) == 0) {
      return Status(ErrorCode::kUnavailable, "Redis is unavailable: " + out.str);
    }
    return Status(ErrorCode::kInternal, "Redis error: " + out.str);
  }
  return out;
}

Result<RedisReply> RedisClient::Command(const std::vector<std::string>& argv) {
  auto ctx = Acquire();
  if (!ctx.ok()) return ctx.status();
  auto reply = RunOn(ctx->get(), argv);
  Release(std::move(*ctx));
  return reply;
}

Result<std::vector<RedisReply>> RedisClient::Pipeline(
    const std::vector<std::vector<std::string>>& commands) {
  auto ctx = Acquire();
  if (!ctx.ok()) return ctx.status();
  for (const auto& argv : commands) AppendArgv(ctx->get(), argv);
  std::vector<RedisReply> replies;
  replies.reserve(commands.size());
  for (size_t i = 0; i < commands.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(ctx->get(), &raw) != REDIS_OK || raw == nullptr) {
      return Unavailable(ctx->get());  // ctx is dropped: it has err set
    }
    replies.push_back(Convert(static_cast<redisReply*>(raw)));
    freeReplyObject(raw);
  }
  Release(std::move(*ctx));
  return replies;
}

Result<RedisReply> RedisClient::Eval(const RedisScript& script,
                                     const std::vector<std::string>& keys,
                                     const std::vector<std::string>& args) {
  std::vector<std::string> argv;
  argv.reserve(3 + keys.size() + args.size());
  argv.push_back("EVALSHA");
  argv.push_back(script.sha1());
  argv.push_back(std::to_string(keys.size()));
  argv.insert(argv.end(), keys.begin(), keys.end());
  argv.insert(argv.end(), args.begin(), args.end());
  auto reply = Command(argv);
  if (!reply.ok() && reply.status().message().find("NOSCRIPT") != std::string::npos) {
    // The script cache is empty after a Redis restart or failover: EVAL loads it again.
    argv[0] = "EVAL";
    argv[1] = script.body();
    return Command(argv);
  }
  return reply;
}

bool RedisClient::Ping() {
  auto reply = Command({"PING"});
  return reply.ok() && reply->str == "PONG";
}

std::string AccountKey(std::string_view account_id, std::string_view suffix) {
  std::string key;
  key.reserve(6 + account_id.size() + suffix.size());
  key += "dq:{";
  key += account_id;
  key += "}:";
  key += suffix;
  return key;
}

}  // namespace dq
