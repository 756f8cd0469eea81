// Cluster mode: a slot-routing client over hiredis (Debian 12 packages no cluster-aware one).
//
// - The slot table maps each of the 16384 slots to its master's connection pool (one Node per
//   address). One thread refreshes it from CLUSTER SHARDS (CLUSTER SLOTS on Redis < 7), at most
//   every kRefreshEveryMs however many callers ask: after a MOVED, a lost connection, READONLY
//   or CLUSTERDOWN.
// - A call names its slot (the caller's routing key); the commands of one call are one slot's.
// - MOVED: the slot's new master is learnt at once (and a refresh asked for); the commands did
//   not run, and go there. ASK: they go to the named node, each after ASKING, this once.
//   TRYAGAIN (a multi-key command while the slot migrates), CLUSTERDOWN, LOADING, READONLY and
//   MASTERDOWN: they did not run, and are sent again after a pause (10 ms, doubling to 200 ms)
//   until the call's deadline (the client's timeout from the call's start; the last pause is cut
//   short so that the last try is made at the deadline): a slot migration that ends within the
//   timeout is waited for. Only the commands that got such an answer are sent again; the
//   replies of those that ran are kept. Redirects follow each other without a pause, at most
//   kMaxRedirects in a row (a table that keeps pointing elsewhere is answered with the redirect).
// - A lost connection or a timeout after sending: the commands may have run, so they are not
//   sent again (kUnavailable); the table is refreshed for the next call. A connection that
//   could not be made sent nothing: after a refresh, the call is tried once more.
// - WAIT (durable writes) is sent after every round that carries writes, on that round's
//   connection; the call's answer is the fewest replicas any round reached.
#include <algorithm>
#include <array>
#include <condition_variable>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "dq/common/log.h"
#include "dq/common/redis_slots.h"
#include "redis_cluster.h"

namespace dq {
namespace {

using redis_internal::Argv;
using redis_internal::ClusterIo;
using redis_internal::ClusterNode;
using redis_internal::Failure;
using redis_internal::RetryPauses;
using redis_internal::SteadyMillis;

constexpr int64_t kRefreshEveryMs = 100;
constexpr int kMaxRedirects = 16;
using Node = ClusterNode;

// Production's seams: pooled hiredis connections and the steady clock.
class PooledNode final : public ClusterNode {
 public:
  PooledNode(const RedisAddress& address, const redis_internal::NodeOptions& options)
      : node_(address, options) {}
  const RedisAddress& address() const override { return node_.address(); }
  Result<std::vector<RedisReply>> Run(const std::vector<Argv>& cmds, Failure* failure,
                                      std::chrono::milliseconds extra) override {
    return node_.Run(cmds, failure, extra);
  }

 private:
  redis_internal::Node node_;
};

class SystemClusterIo final : public ClusterIo {
 public:
  explicit SystemClusterIo(redis_internal::NodeOptions options) : options_(std::move(options)) {}
  std::shared_ptr<ClusterNode> Connect(const RedisAddress& address) override {
    return std::make_shared<PooledNode>(address, options_);
  }
  Result<RedisReply> OneShot(const RedisAddress& address, const Argv& argv) override {
    return redis_internal::OneShot(address, options_, argv);
  }
  int64_t NowMs() override { return SteadyMillis(); }
  void Sleep(std::chrono::milliseconds pause) override { std::this_thread::sleep_for(pause); }

 private:
  const redis_internal::NodeOptions options_;
};

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool IsWait(const Argv& argv) { return !argv.empty() && (argv[0] == "WAIT" || argv[0] == "wait"); }

class ClusterTopology final : public RedisClient::Topology {
 public:
  ClusterTopology(const RedisOptions& o, std::unique_ptr<ClusterIo> io)
      : seeds_(o.cluster), io_(std::move(io)), timeout_(o.timeout) {
    refresher_ = std::thread([this] { RefreshLoop(); });
    RequestRefresh();
  }

  ~ClusterTopology() override {
    {
      std::lock_guard lock(refresh_mu_);
      stop_ = true;
    }
    refresh_cv_.notify_all();
    refresher_.join();
  }

  bool Sharded() const override { return true; }

  Result<std::vector<RedisReply>> Run(int slot, const std::vector<Argv>& cmds,
                                      std::chrono::milliseconds extra) override {
    if (slot < 0) slot = 0;  // no key: any master will do
    const bool wait = !cmds.empty() && IsWait(cmds.back());
    const size_t n = wait ? cmds.size() - 1 : cmds.size();
    std::vector<RedisReply> out(n);
    std::vector<size_t> pending(n);
    for (size_t i = 0; i < n; ++i) pending[i] = i;
    std::optional<int64_t> fewest_replicas;
    std::optional<RedisAddress> ask;
    RetryPauses pauses(io_->NowMs() + timeout_.count());
    int redirects = 0;  // rounds in a row that followed a redirect
    bool reconnected = false;
    while (!pending.empty()) {
      auto node = ask ? NodeAt(*ask) : NodeFor(slot, pauses.deadline_ms());
      if (!node.ok()) return node.status();
      std::vector<Argv> send;
      for (size_t i : pending) {
        if (ask) send.push_back({"ASKING"});
        send.push_back(cmds[i]);
      }
      if (wait) send.push_back(cmds.back());
      Failure f;
      auto replies = (*node)->Run(send, &f, extra);
      if (!replies.ok()) {
        RequestRefresh();
        if (f == Failure::kConnect && !reconnected && !ask) {
          reconnected = true;  // nothing was sent: once more, after the table is refreshed
          WaitForRefresh(pauses.deadline_ms());
          continue;
        }
        return replies.status();
      }
      const bool asked = ask.has_value();
      ask.reset();
      std::vector<size_t> again;
      bool retry_later = false;
      size_t at = 0;
      for (size_t i : pending) {
        if (asked) ++at;  // ASKING's +OK
        RedisReply& r = (*replies)[at++];
        if (r.is_error()) {
          if (auto redirect = ParseRedirect(r.str)) {
            if (redirect->host.empty()) redirect->host = (*node)->address().host;
            const RedisAddress to{redirect->host, redirect->port};
            if (redirect->kind == Redirect::Kind::kMoved) {
              Learn(redirect->slot, to);
              RequestRefresh();
            } else {
              ask = to;
            }
            out[i] = std::move(r);
            again.push_back(i);
            continue;
          }
          if (IsRetryableError(r.str) || StartsWith(r.str, "UNBLOCKED")) {
            if (IsNotMasterError(r.str) || StartsWith(r.str, "CLUSTERDOWN")) RequestRefresh();
            retry_later = true;
            out[i] = std::move(r);
            again.push_back(i);
            continue;
          }
        }
        out[i] = std::move(r);
      }
      if (wait && again.size() < pending.size()) {  // this round's connection wrote something
        const RedisReply& w = replies->back();
        const int64_t got = w.is_error() ? 0 : w.integer;
        fewest_replicas = fewest_replicas ? std::min(*fewest_replicas, got) : got;
      }
      pending = std::move(again);
      if (pending.empty()) break;
      if (retry_later && !ask) {
        auto pause = pauses.Next(io_->NowMs());
        if (!pause) break;  // the deadline has passed: out keeps the last answers
        io_->Sleep(*pause);
        redirects = 0;
      } else if (++redirects > kMaxRedirects) {
        break;  // out keeps the redirects
      }
    }
    if (wait) {
      RedisReply w;
      w.type = RedisReply::Type::kInteger;
      w.integer = fewest_replicas.value_or(0);
      out.push_back(std::move(w));
    }
    return out;
  }

  bool Ping() override {
    std::vector<std::shared_ptr<Node>> masters;
    {
      std::shared_lock lock(table_mu_);
      for (const auto& node : slots_) {
        if (!node) return false;  // a slot nobody serves
        if (std::find(masters.begin(), masters.end(), node) == masters.end()) {
          masters.push_back(node);
        }
      }
    }
    if (masters.empty()) {
      RequestRefresh();
      return false;
    }
    for (const auto& node : masters) {
      Failure f;
      auto r = node->Run({{"PING"}}, &f, {});
      if (!r.ok() || r->front().str != "PONG") {
        RequestRefresh();
        return false;
      }
    }
    return true;
  }

  std::string Describe(int slot) override {
    std::shared_lock lock(table_mu_);
    const auto& node = slots_[static_cast<size_t>(std::max(0, slot))];
    return node ? node->address().Text() : "";
  }

 private:
  // The pool of address (one per address, kept for the client's life).
  std::shared_ptr<Node> Pool(const RedisAddress& address) {
    std::lock_guard lock(nodes_mu_);
    auto& node = nodes_[address];
    if (!node) node = io_->Connect(address);
    return node;
  }

  Result<std::shared_ptr<Node>> NodeAt(const RedisAddress& address) { return Pool(address); }

  // The node of slot; when the table has none, after a refresh (waited for until deadline_ms).
  Result<std::shared_ptr<Node>> NodeFor(int slot, int64_t deadline_ms) {
    {
      std::shared_lock lock(table_mu_);
      if (slots_[static_cast<size_t>(slot)]) return slots_[static_cast<size_t>(slot)];
    }
    RequestRefresh();
    WaitForRefresh(deadline_ms);
    std::shared_lock lock(table_mu_);
    if (slots_[static_cast<size_t>(slot)]) return slots_[static_cast<size_t>(slot)];
    return Status(ErrorCode::kUnavailable,
                  "Redis Cluster is unavailable: no node serves slot " + std::to_string(slot));
  }

  void Learn(int slot, const RedisAddress& address) {
    auto node = Pool(address);
    std::unique_lock lock(table_mu_);
    slots_[static_cast<size_t>(slot)] = std::move(node);
  }

  void RequestRefresh() {
    {
      std::lock_guard lock(refresh_mu_);
      refresh_wanted_ = true;
    }
    refresh_cv_.notify_all();
  }

  // Waits until a refresh asked for before this call has ended, or the deadline.
  void WaitForRefresh(int64_t deadline_ms) {
    std::unique_lock lock(refresh_mu_);
    const uint64_t target = refreshes_done_ + (refreshing_ ? 2 : 1);
    const int64_t left = deadline_ms - io_->NowMs();
    if (left <= 0) return;
    refresh_cv_.wait_for(lock, std::chrono::milliseconds(left),
                         [&] { return stop_ || refreshes_done_ >= target; });
  }

  void RefreshLoop() {
    std::unique_lock lock(refresh_mu_);
    int64_t last = 0;
    while (true) {
      refresh_cv_.wait(lock, [&] { return stop_ || refresh_wanted_; });
      if (stop_) return;
      const int64_t wait = last + kRefreshEveryMs - SteadyMillis();
      if (wait > 0) {  // the rate limit: one refresh per kRefreshEveryMs, however many ask
        refresh_cv_.wait_for(lock, std::chrono::milliseconds(wait), [&] { return stop_; });
        if (stop_) return;
      }
      refresh_wanted_ = false;
      refreshing_ = true;
      lock.unlock();
      Refresh();
      lock.lock();
      last = SteadyMillis();
      refreshing_ = false;
      ++refreshes_done_;
      refresh_cv_.notify_all();
    }
  }

  // Asks the known masters, then the seeds, for the table; the first answer that covers slots
  // replaces it.
  void Refresh() {
    std::vector<RedisAddress> ask;
    {
      std::shared_lock lock(table_mu_);
      for (const auto& node : slots_) {
        if (node && std::find(ask.begin(), ask.end(), node->address()) == ask.end()) {
          ask.push_back(node->address());
        }
      }
    }
    for (const auto& seed : seeds_) {
      if (std::find(ask.begin(), ask.end(), seed) == ask.end()) ask.push_back(seed);
    }
    std::string errors;
    for (const auto& address : ask) {
      auto reply = io_->OneShot(address, {"CLUSTER", "SHARDS"});
      Result<std::vector<SlotRange>> ranges = Status(ErrorCode::kUnavailable, "");
      if (reply.ok() && !reply->is_error()) {
        ranges = ParseClusterShards(*reply, address);
      } else if (reply.ok()) {  // Redis < 7: no SHARDS
        auto slots = io_->OneShot(address, {"CLUSTER", "SLOTS"});
        if (slots.ok() && !slots->is_error()) ranges = ParseClusterSlots(*slots, address);
      }
      if (!ranges.ok() || ranges->empty()) {
        errors += address.Text() +
                  (reply.ok() ? ": " + reply->str : ": " + reply.status().message()) + "; ";
        continue;
      }
      std::array<std::shared_ptr<Node>, kClusterSlots> table;
      for (const auto& r : *ranges) {
        auto node = Pool(r.master);
        for (int s = r.first; s <= r.last; ++s) table[static_cast<size_t>(s)] = node;
      }
      std::unique_lock lock(table_mu_);
      slots_ = std::move(table);
      return;
    }
    log::Warn("Redis Cluster slot table not refreshed", {{"errors", errors}});
  }

  const std::vector<RedisAddress> seeds_;
  const std::unique_ptr<ClusterIo> io_;
  const std::chrono::milliseconds timeout_;

  std::mutex nodes_mu_;
  std::map<RedisAddress, std::shared_ptr<Node>> nodes_;

  std::shared_mutex table_mu_;
  std::array<std::shared_ptr<Node>, kClusterSlots> slots_;

  std::mutex refresh_mu_;
  std::condition_variable refresh_cv_;
  bool refresh_wanted_ = false;
  bool refreshing_ = false;
  uint64_t refreshes_done_ = 0;
  bool stop_ = false;
  std::thread refresher_;
};

}  // namespace

std::unique_ptr<RedisClient::Topology> MakeClusterTopology(const RedisOptions& options) {
  return redis_internal::MakeClusterTopology(
      options, std::make_unique<SystemClusterIo>(redis_internal::NodeOptionsOf(options)));
}

namespace redis_internal {

std::optional<std::chrono::milliseconds> RetryPauses::Next(int64_t now_ms) {
  const int64_t left = deadline_ms_ - now_ms;
  if (left <= 0) return std::nullopt;
  const int64_t pause = std::min(pause_ms_, left);
  pause_ms_ = std::min(kMostMs, pause_ms_ * 2);
  return std::chrono::milliseconds(pause);
}

std::unique_ptr<RedisClient::Topology> MakeClusterTopology(const RedisOptions& options,
                                                           std::unique_ptr<ClusterIo> io) {
  return std::make_unique<ClusterTopology>(options, std::move(io));
}

}  // namespace redis_internal

}  // namespace dq
