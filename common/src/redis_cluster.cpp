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
//   until the client's timeout. Only the commands that got such an answer are sent again; the
//   replies of those that ran are kept.
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
#include "redis_topology.h"

namespace dq {
namespace {

using redis_internal::Argv;
using redis_internal::Failure;
using redis_internal::Node;
using redis_internal::SteadyMillis;

constexpr int64_t kRefreshEveryMs = 100;
constexpr int kMaxRounds = 16;

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool IsWait(const Argv& argv) { return !argv.empty() && (argv[0] == "WAIT" || argv[0] == "wait"); }

class ClusterTopology final : public RedisClient::Topology {
 public:
  explicit ClusterTopology(const RedisOptions& o)
      : seeds_(o.cluster), node_options_(redis_internal::NodeOptionsOf(o)), timeout_(o.timeout) {
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
    const int64_t deadline = SteadyMillis() + timeout_.count();
    int64_t pause_ms = 10;
    bool reconnected = false;
    for (int round = 0; round < kMaxRounds && !pending.empty(); ++round) {
      auto node = ask ? NodeAt(*ask) : NodeFor(slot);
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
          WaitForRefresh(deadline);
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
        if (SteadyMillis() + pause_ms > deadline) break;  // out keeps the last answers
        std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
        pause_ms = std::min<int64_t>(200, pause_ms * 2);
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
      auto r = node->Run({{"PING"}}, &f);
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
    if (!node) node = std::make_shared<Node>(address, node_options_);
    return node;
  }

  Result<std::shared_ptr<Node>> NodeAt(const RedisAddress& address) { return Pool(address); }

  Result<std::shared_ptr<Node>> NodeFor(int slot) {
    {
      std::shared_lock lock(table_mu_);
      if (slots_[static_cast<size_t>(slot)]) return slots_[static_cast<size_t>(slot)];
    }
    RequestRefresh();
    WaitForRefresh(SteadyMillis() + timeout_.count());
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
    const int64_t left = deadline_ms - SteadyMillis();
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
      auto reply = redis_internal::OneShot(address, node_options_, {"CLUSTER", "SHARDS"});
      Result<std::vector<SlotRange>> ranges = Status(ErrorCode::kUnavailable, "");
      if (reply.ok() && !reply->is_error()) {
        ranges = ParseClusterShards(*reply, address);
      } else if (reply.ok()) {  // Redis < 7: no SHARDS
        auto slots = redis_internal::OneShot(address, node_options_, {"CLUSTER", "SLOTS"});
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
  const redis_internal::NodeOptions node_options_;
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
  return std::make_unique<ClusterTopology>(options);
}

}  // namespace dq
