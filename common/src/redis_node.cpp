#include "redis_node.h"

#include <hiredis/hiredis.h>

namespace dq::redis_internal {
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

Status Unavailable(const redisContext* c, const RedisAddress& a) {
  std::string why = c != nullptr && c->errstr[0] != '\0' ? c->errstr : "connection failed";
  return Status(ErrorCode::kUnavailable, "Redis is unavailable (" + a.Text() + "): " + why);
}

void AppendArgv(redisContext* ctx, const Argv& argv) {
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

// Sends cmds and reads one reply each. False on an I/O error (ctx->err is then set).
bool Exchange(redisContext* ctx, const std::vector<Argv>& cmds, std::vector<RedisReply>* out) {
  for (const auto& argv : cmds) AppendArgv(ctx, argv);
  out->reserve(cmds.size());
  for (size_t i = 0; i < cmds.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(ctx, &raw) != REDIS_OK || raw == nullptr) return false;
    out->push_back(Convert(static_cast<redisReply*>(raw)));
    freeReplyObject(raw);
  }
  return true;
}

constexpr int64_t kRetryConnectAfterMs = 250;

}  // namespace

int64_t SteadyMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Node::ContextDeleter::operator()(redisContext* c) const { redisFree(c); }

Node::Node(RedisAddress address, NodeOptions options)
    : address_(std::move(address)), options_(std::move(options)) {}

Node::~Node() = default;

Result<Node::ContextPtr> Node::Connect() {
  const int64_t now = SteadyMillis();
  const int64_t last = last_connect_failure_ms_.load(std::memory_order_relaxed);
  if (last != 0 && now - last < kRetryConnectAfterMs) {
    return Status(ErrorCode::kUnavailable,
                  "Redis is unavailable (" + address_.Text() + "): recent connect failure");
  }
  ContextPtr ctx(
      redisConnectWithTimeout(address_.host.c_str(), address_.port, ToTimeval(options_.timeout)));
  if (!ctx || ctx->err) {
    last_connect_failure_ms_.store(SteadyMillis(), std::memory_order_relaxed);
    return Unavailable(ctx.get(), address_);
  }
  last_connect_failure_ms_.store(0, std::memory_order_relaxed);
  if (redisSetTimeout(ctx.get(), ToTimeval(options_.timeout)) != REDIS_OK) {
    return Unavailable(ctx.get(), address_);
  }
  redisEnableKeepAlive(ctx.get());
  std::vector<Argv> hello;
  if (!options_.password.empty()) {
    hello.push_back(options_.user.empty() ? Argv{"AUTH", options_.password}
                                          : Argv{"AUTH", options_.user, options_.password});
  }
  if (options_.require_master) hello.push_back({"ROLE"});
  if (hello.empty()) return ctx;
  std::vector<RedisReply> replies;
  if (!Exchange(ctx.get(), hello, &replies)) return Unavailable(ctx.get(), address_);
  for (const auto& r : replies) {
    if (r.is_error()) {
      return Status(ErrorCode::kUnavailable,
                    "Redis refused the connection (" + address_.Text() + "): " + r.str);
    }
  }
  if (options_.require_master) {
    const RedisReply& role = replies.back();
    if (role.elements.empty() || role.elements[0].str != "master") {
      return Status(ErrorCode::kUnavailable,
                    "Redis at " + address_.Text() + " is not a master (ROLE: " +
                        (role.elements.empty() ? std::string("?") : role.elements[0].str) + ")");
    }
  }
  return ctx;
}

Result<Node::ContextPtr> Node::Acquire() {
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      ContextPtr ctx = std::move(idle_.back());
      idle_.pop_back();
      return ctx;
    }
  }
  return Connect();
}

void Node::Release(ContextPtr ctx) {
  if (!ctx || ctx->err) return;  // a context that saw an error is never reused
  std::lock_guard lock(mu_);
  if (idle_.size() < options_.pool_size) idle_.push_back(std::move(ctx));
}

Result<std::vector<RedisReply>> Node::Run(const std::vector<Argv>& cmds, Failure* failure,
                                          std::chrono::milliseconds extra) {
  *failure = Failure::kNone;
  auto ctx = Acquire();
  if (!ctx.ok()) {
    *failure = Failure::kConnect;
    return ctx.status();
  }
  if (extra.count() > 0) redisSetTimeout(ctx->get(), ToTimeval(options_.timeout + extra));
  std::vector<RedisReply> replies;
  if (!Exchange(ctx->get(), cmds, &replies)) {
    *failure = Failure::kIo;
    return Unavailable(ctx->get(), address_);  // ctx is dropped: it has err set
  }
  if (extra.count() > 0) redisSetTimeout(ctx->get(), ToTimeval(options_.timeout));
  Release(std::move(*ctx));
  return replies;
}

Result<RedisReply> OneShot(const RedisAddress& address, const NodeOptions& options,
                           const Argv& argv) {
  NodeOptions o = options;
  o.require_master = false;
  o.pool_size = 0;
  Node node(address, o);
  Failure f;
  auto r = node.Run({argv}, &f);
  if (!r.ok()) return r.status();
  return std::move(r->front());
}

}  // namespace dq::redis_internal
