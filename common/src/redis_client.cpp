#include "dq/common/redis_client.h"

#include <openssl/sha.h>

#include <algorithm>
#include <map>

#include "dq/common/log.h"
#include "dq/common/partitions.h"
#include "dq/common/redis_slots.h"
#include "dq/common/settings.h"
#include "redis_topology.h"

namespace dq {
namespace {

using redis_internal::Argv;
using redis_internal::Failure;
using redis_internal::Node;

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Error replies that say Redis cannot take the command now: traffic, not a bug (503, not 500).
bool IsTransient(std::string_view error) {
  return IsRetryableError(error) || StartsWith(error, "OOM") || StartsWith(error, "MISCONF") ||
         StartsWith(error, "UNBLOCKED") || StartsWith(error, "MOVED") || StartsWith(error, "ASK ");
}

// Redis's own text names servers, scripts and internals, and tells a user nothing they can do:
// it goes to the log (at most one line a second, with a count of the lines left out), and the
// status carries one of the public messages of redis_client.h.
void LogRefusal(std::string_view raw) {
  static std::atomic<int64_t> last_ms{0};
  static std::atomic<int64_t> left_out{0};
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  int64_t last = last_ms.load(std::memory_order_relaxed);
  if (now - last < 1000 || !last_ms.compare_exchange_strong(last, now)) {
    left_out.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  log::Warn("Redis cannot take commands now",
            {{"error", std::string(raw)},
             {"not_logged_since_last", std::to_string(left_out.exchange(0))}});
}

Status PublicUnavailable(std::string_view raw) {
  LogRefusal(raw);
  return Status(ErrorCode::kUnavailable,
                std::string(IsRedisFull(raw) ? kRedisFullMessage : kRedisDownMessage));
}

Status ErrorReplyStatus(const RedisReply& r) {
  if (IsTransient(r.str)) return PublicUnavailable(r.str);
  return Status(ErrorCode::kInternal, "Redis error: " + r.str);
}

// The slot of a command (-1 without keys); kInternal when its keys span slots.
Result<int> SlotOf(const std::vector<std::string_view>& keys, std::string_view what) {
  if (keys.empty()) return -1;
  const int slot = KeySlot(keys.front());
  for (auto k : keys) {
    if (KeySlot(k) != slot) {
      // A bug of the caller: Redis Cluster would refuse it with CROSSSLOT.
      log::Error("CROSSSLOT refused by the client", {{"command", std::string(what)},
                                                     {"first", std::string(keys.front())},
                                                     {"other", std::string(k)}});
      return Status(ErrorCode::kInternal, "CROSSSLOT: " + std::string(what) + " keys " +
                                              std::string(keys.front()) + " and " + std::string(k) +
                                              " are in different slots");
    }
  }
  return slot;
}

// One server.
class SingleTopology final : public RedisClient::Topology {
 public:
  explicit SingleTopology(const RedisOptions& o)
      : node_({o.host, o.port}, redis_internal::NodeOptionsOf(o)) {}
  Result<std::vector<RedisReply>> Run(int, const std::vector<Argv>& cmds,
                                      std::chrono::milliseconds extra) override {
    Failure f;
    return node_.Run(cmds, &f, extra);
  }
  bool Ping() override {
    Failure f;
    auto r = node_.Run({{"PING"}}, &f);
    return r.ok() && r->front().str == "PONG";
  }
  std::string Describe(int) override { return node_.address().Text(); }

 private:
  Node node_;
};

}  // namespace

bool IsRedisFull(std::string_view error) {
  return StartsWith(error, "OOM") || error.find("-OOM") != std::string_view::npos ||
         error.find(": OOM") != std::string_view::npos;
}

namespace redis_internal {

NodeOptions NodeOptionsOf(const RedisOptions& o) {
  NodeOptions n;
  n.user = o.user;
  n.password = o.password;
  n.timeout = o.timeout;
  n.pool_size = o.pool_size;
  return n;
}

bool NoneRanOnAReplica(const std::vector<RedisReply>& replies) {
  bool replica = false;
  for (const auto& r : replies) {
    if (!r.is_error()) return false;
    if (IsNotMasterError(r.str) || StartsWith(r.str, "UNBLOCKED") ||
        r.str.find("replica") != std::string::npos) {
      replica = true;
    }
  }
  return replica;
}

}  // namespace redis_internal

std::unique_ptr<RedisClient::Topology> MakeSingleTopology(const RedisOptions& options) {
  return std::make_unique<SingleTopology>(options);
}

Result<std::vector<RedisAddress>> ParseRedisAddresses(std::string_view list) {
  std::vector<RedisAddress> out;
  size_t at = 0;
  while (at <= list.size()) {
    size_t comma = list.find(',', at);
    if (comma == std::string_view::npos) comma = list.size();
    std::string_view item = list.substr(at, comma - at);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    at = comma + 1;
    if (item.empty()) {
      if (comma == list.size()) break;
      continue;
    }
    const size_t colon = item.rfind(':');
    RedisAddress a;
    int port = 0;
    bool ok = colon != std::string_view::npos && colon > 0 && colon + 1 < item.size();
    if (ok) {
      for (char c : item.substr(colon + 1)) {
        if (c < '0' || c > '9' || port > 65535) {
          ok = false;
          break;
        }
        port = port * 10 + (c - '0');
      }
      ok = ok && port > 0 && port <= 65535;
    }
    if (!ok) {
      return Status(ErrorCode::kInvalidRequest, "\"" + std::string(item) + "\" is not host:port");
    }
    std::string_view host = item.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
      host = host.substr(1, host.size() - 2);
    }
    a.host = std::string(host);
    a.port = port;
    out.push_back(std::move(a));
  }
  return out;
}

Result<RedisOptions> RedisOptionsFromSettings(const Settings& s) {
  RedisOptions o;
  o.host = s.String("DQ_REDIS_HOST");
  o.port = static_cast<int>(s.Int("DQ_REDIS_PORT"));
  o.user = s.String("DQ_REDIS_USER");
  o.password = s.String("DQ_REDIS_PASSWORD");
  o.timeout = std::chrono::milliseconds(s.Int("DQ_REDIS_TIMEOUT_MS"));
  o.pool_size = static_cast<size_t>(s.Int("DQ_REDIS_POOL_SIZE"));
  o.master_name = s.String("DQ_REDIS_MASTER_NAME");
  o.sentinel_password = s.String("DQ_REDIS_SENTINEL_PASSWORD");
  o.min_replicas = static_cast<int>(s.Int("DQ_REDIS_MIN_REPLICAS"));
  o.wait_timeout = std::chrono::milliseconds(s.Int("DQ_REDIS_WAIT_TIMEOUT_MS"));
  const int partitions = static_cast<int>(s.Int("DQ_QUEUE_PARTITIONS"));
  auto sentinels = ParseRedisAddresses(s.String("DQ_REDIS_SENTINELS"));
  if (!sentinels.ok()) {
    return Status(ErrorCode::kInvalidRequest,
                  "DQ_REDIS_SENTINELS: " + sentinels.status().message());
  }
  auto cluster = ParseRedisAddresses(s.String("DQ_REDIS_CLUSTER"));
  if (!cluster.ok()) {
    return Status(ErrorCode::kInvalidRequest, "DQ_REDIS_CLUSTER: " + cluster.status().message());
  }
  if (!sentinels->empty() && !cluster->empty()) {
    return Status(ErrorCode::kInvalidRequest,
                  "DQ_REDIS_SENTINELS and DQ_REDIS_CLUSTER are both set; use one");
  }
  o.partitions = partitions > 0 ? partitions : DefaultPartitions(!cluster->empty());
  o.sentinels = std::move(*sentinels);
  o.cluster = std::move(*cluster);
  return o;
}

void LogRedisMode(const RedisOptions& o) {
  auto list = [](const std::vector<RedisAddress>& addresses) {
    std::string out;
    for (const auto& a : addresses) out += (out.empty() ? "" : ",") + a.Text();
    return out;
  };
  if (!o.sentinels.empty()) {
    log::Info("Redis through Sentinel: DQ_REDIS_HOST and DQ_REDIS_PORT are ignored",
              {{"sentinels", list(o.sentinels)},
               {"master_name", o.master_name},
               {"min_replicas", std::to_string(o.min_replicas)}});
  } else if (!o.cluster.empty()) {
    log::Info("Redis Cluster: DQ_REDIS_HOST and DQ_REDIS_PORT are ignored",
              {{"seeds", list(o.cluster)}, {"min_replicas", std::to_string(o.min_replicas)}});
  }
}

RedisScript::RedisScript(std::string body) : body_(std::move(body)) {
  unsigned char md[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(body_.data()), body_.size(), md);
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned char b : md) {
    sha1_.push_back(kHex[b >> 4]);
    sha1_.push_back(kHex[b & 0xf]);
  }
}

RedisClient::RedisClient(RedisOptions options) : options_(std::move(options)) {
  if (!options_.cluster.empty()) {
    topology_ = MakeClusterTopology(options_);
  } else if (!options_.sentinels.empty()) {
    topology_ = MakeSentinelTopology(options_);
  } else {
    topology_ = MakeSingleTopology(options_);
  }
}

RedisClient::~RedisClient() = default;

Result<std::vector<RedisReply>> RedisClient::Run(int slot, std::vector<Argv> cmds, bool wait) {
  std::chrono::milliseconds extra{0};
  if (wait && options_.min_replicas > 0) {
    cmds.push_back({"WAIT", std::to_string(options_.min_replicas),
                    std::to_string(options_.wait_timeout.count())});
    extra = options_.wait_timeout;
  }
  auto r = topology_->Run(slot, cmds, extra);
  if (!r.ok() && r.status().code() == ErrorCode::kUnavailable) {
    return PublicUnavailable(r.status().message());
  }
  return r;
}

Result<RedisReply> RedisClient::Single(int slot, const Argv& argv, bool wait, int64_t* replicas) {
  auto r = Run(slot, {argv}, wait);
  if (!r.ok()) return r.status();
  if (replicas != nullptr && r->size() > 1 && !r->back().is_error()) *replicas = r->back().integer;
  RedisReply& reply = r->front();
  if (reply.is_error()) return ErrorReplyStatus(reply);
  return std::move(reply);
}

Result<RedisReply> RedisClient::Command(const Argv& argv) {
  auto slot = SlotOf(CommandKeys(argv), argv.empty() ? "" : argv[0]);
  if (!slot.ok()) return slot.status();
  return Single(*slot, argv, false, nullptr);
}

Result<RedisReply> RedisClient::CommandOn(std::string_view route, const Argv& argv) {
  return Single(KeySlot(route), argv, false, nullptr);
}

Result<std::vector<RedisReply>> RedisClient::Pipeline(const std::vector<Argv>& commands) {
  return RunPipeline(commands, nullptr);
}

Result<std::vector<RedisReply>> RedisClient::PipelineDurable(const std::vector<Argv>& commands,
                                                             DurableReply* outcome) {
  return RunPipeline(commands, outcome);
}

Result<std::vector<RedisReply>> RedisClient::RunPipeline(const std::vector<Argv>& commands,
                                                         DurableReply* outcome) {
  const bool wait = outcome != nullptr && options_.min_replicas > 0;
  // Commands grouped by slot (one group unless the cluster shards them), each group in order.
  std::map<int, std::vector<size_t>> groups;
  int last_slot = -1;
  for (size_t i = 0; i < commands.size(); ++i) {
    auto slot = SlotOf(CommandKeys(commands[i]), commands[i].empty() ? "" : commands[i][0]);
    if (!slot.ok()) return slot.status();
    if (*slot >= 0) last_slot = *slot;
    groups[topology_->Sharded() ? (*slot >= 0 ? *slot : last_slot) : 0].push_back(i);
  }
  std::vector<RedisReply> replies(commands.size());
  int64_t fewest = -1;
  for (const auto& [slot, idx] : groups) {
    std::vector<Argv> cmds;
    cmds.reserve(idx.size());
    for (size_t i : idx) cmds.push_back(commands[i]);
    const int route = topology_->Sharded() ? slot : last_slot;
    auto r = Run(route, std::move(cmds), wait);
    if (!r.ok()) return r.status();
    if (wait) {
      const RedisReply& w = r->back();
      const int64_t got = w.is_error() ? 0 : w.integer;
      fewest = fewest < 0 ? got : std::min(fewest, got);
    }
    for (size_t k = 0; k < idx.size(); ++k) {
      RedisReply& reply = (*r)[k];
      if (reply.is_error() && IsTransient(reply.str)) return ErrorReplyStatus(reply);
      replies[idx[k]] = std::move(reply);
    }
  }
  if (outcome != nullptr) {
    outcome->replicas = std::max<int64_t>(0, fewest);
    outcome->confirmed = !wait || fewest >= options_.min_replicas;
  }
  return replies;
}

Result<RedisReply> RedisClient::EvalOn(const RedisScript& script, const Argv& keys,
                                       const Argv& args, bool wait, int64_t* replicas) {
  std::vector<std::string_view> views(keys.begin(), keys.end());
  auto slot = SlotOf(views, "EVALSHA");
  if (!slot.ok()) return slot.status();
  Argv argv;
  argv.reserve(3 + keys.size() + args.size());
  argv.push_back("EVALSHA");
  argv.push_back(script.sha1());
  argv.push_back(std::to_string(keys.size()));
  argv.insert(argv.end(), keys.begin(), keys.end());
  argv.insert(argv.end(), args.begin(), args.end());
  auto reply = Single(*slot, argv, wait, replicas);
  if (!reply.ok() && reply.status().message().find("NOSCRIPT") != std::string::npos) {
    // The script cache is empty after a Redis restart or failover: EVAL loads it again. The
    // script did not run, so running it now runs it once.
    argv[0] = "EVAL";
    argv[1] = script.body();
    return Single(*slot, argv, wait, replicas);
  }
  return reply;
}

Result<RedisReply> RedisClient::Eval(const RedisScript& script, const Argv& keys,
                                     const Argv& args) {
  return EvalOn(script, keys, args, false, nullptr);
}

namespace {
Result<DurableReply> Durable(Result<RedisReply> reply, int64_t replicas, int min_replicas) {
  if (!reply.ok()) return reply.status();
  DurableReply d;
  d.reply = std::move(*reply);
  d.replicas = replicas;
  d.confirmed = min_replicas <= 0 || replicas >= min_replicas;
  return d;
}
}  // namespace

Result<DurableReply> RedisClient::CommandDurable(const Argv& argv) {
  auto slot = SlotOf(CommandKeys(argv), argv.empty() ? "" : argv[0]);
  if (!slot.ok()) return slot.status();
  int64_t replicas = 0;
  auto r = Single(*slot, argv, true, &replicas);
  return Durable(std::move(r), replicas, options_.min_replicas);
}

Result<DurableReply> RedisClient::EvalDurable(const RedisScript& script, const Argv& keys,
                                              const Argv& args) {
  int64_t replicas = 0;
  auto r = EvalOn(script, keys, args, true, &replicas);
  return Durable(std::move(r), replicas, options_.min_replicas);
}

Status RedisClient::NotReplicated(const DurableReply& reply) const {
  return Status(ErrorCode::kUnavailable, "Redis did not confirm the write: it reached " +
                                             std::to_string(reply.replicas) + " of the " +
                                             std::to_string(options_.min_replicas) +
                                             " replicas it waits for within " +
                                             std::to_string(options_.wait_timeout.count()) + " ms");
}

bool RedisClient::Ping() { return topology_->Ping(); }

bool RedisClient::AcceptsWrites() {
  // "#!lua" with no flags: a script that may write, so Redis 7 refuses it up front where it would
  // refuse a write (OOM, READONLY, MISCONF). It writes nothing: no AOF record, no fsync.
  auto r = Single(-1, {"EVAL", "#!lua\nreturn 1", "0"}, false, nullptr);
  if (r.ok()) return true;
  // Anything but "cannot take it now" (a Redis 6 that knows no shebang) says nothing about writes.
  return r.status().code() != ErrorCode::kUnavailable;
}

std::string RedisClient::Describe(std::string_view route) const {
  return topology_->Describe(route.empty() ? -1 : KeySlot(route));
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
