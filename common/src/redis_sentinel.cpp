// Sentinel mode: the master is whatever the sentinels name for `master_name`.
//
// Resolution asks the sentinels in turn (the one that answered last first) with
// SENTINEL get-master-addr-by-name (an entry whose name has several addresses, such as a
// Kubernetes headless Service, stands for each of them); every new connection to the answer checks
// ROLE and is refused unless it is a master (a sentinel may still name a master that has just been
// demoted). After a lost connection, READONLY, MASTERDOWN or UNBLOCKED the master is forgotten and
// resolved again before the next command. A resolution that fails waits before the next one: 50 ms,
// doubling to at most 1 s, back to 50 ms once a command succeeds.
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "dq/common/log.h"
#include "dq/common/redis_slots.h"
#include "redis_topology.h"

namespace dq {
namespace {

using redis_internal::Argv;
using redis_internal::Failure;
using redis_internal::Node;
using redis_internal::SteadyMillis;

constexpr int64_t kMinBackoffMs = 50;
constexpr int64_t kMaxBackoffMs = 1000;

class SentinelTopology final : public RedisClient::Topology {
 public:
  explicit SentinelTopology(const RedisOptions& o)
      : sentinels_(o.sentinels), master_name_(o.master_name) {
    node_options_ = redis_internal::NodeOptionsOf(o);
    node_options_.require_master = true;
    sentinel_options_ = redis_internal::NodeOptionsOf(o);
    sentinel_options_.user.clear();
    sentinel_options_.password = o.sentinel_password;
    sentinel_options_.timeout = std::min(o.timeout, std::chrono::milliseconds(500));
  }

  Result<std::vector<RedisReply>> Run(int, const std::vector<Argv>& cmds,
                                      std::chrono::milliseconds extra) override {
    // Two tries at most: the second only when the first certainly ran nothing (no connection,
    // or every reply said the server is not the master).
    Status last = Status::Ok();
    for (int attempt = 0; attempt < 2; ++attempt) {
      auto node = Master();
      if (!node.ok()) return node.status();
      Failure f;
      auto replies = (*node)->Run(cmds, &f, extra);
      if (!replies.ok()) {
        Forget(*node, f == Failure::kConnect);
        if (f == Failure::kConnect) {
          last = replies.status();
          continue;
        }
        return replies.status();  // it may have run: never sent again
      }
      if (redis_internal::NoneRanOnAReplica(*replies)) {
        Forget(*node, false);
        last =
            Status(ErrorCode::kUnavailable, "Redis is unavailable: " + (*node)->address().Text() +
                                                " answered " + replies->front().str);
        continue;
      }
      for (const auto& r : *replies) {
        if (r.is_error() && (IsNotMasterError(r.str) || r.str.rfind("UNBLOCKED", 0) == 0)) {
          Forget(*node, false);
          break;
        }
      }
      Healthy();
      return replies;
    }
    return last;
  }

  bool Ping() override {
    auto r = Run(-1, {{"PING"}}, {});
    return r.ok() && r->front().str == "PONG";
  }

  std::string Describe(int) override {
    std::lock_guard lock(mu_);
    return master_ ? master_->address().Text() : "";
  }

 private:
  Result<std::shared_ptr<Node>> Master() {
    {
      std::lock_guard lock(mu_);
      if (master_) return master_;
    }
    std::lock_guard resolving(resolve_mu_);  // one thread asks; the others wait for its answer
    {
      std::lock_guard lock(mu_);
      if (master_) return master_;
      const int64_t wait = next_try_ms_ - SteadyMillis();
      if (wait > 0) {
        return Status(ErrorCode::kUnavailable,
                      "Redis is unavailable: no master known for \"" + master_name_ +
                          "\"; asking the sentinels again in " + std::to_string(wait) + " ms");
      }
    }
    auto address = AskSentinels();
    std::lock_guard lock(mu_);
    if (!address.ok()) {
      Backoff();
      return address.status();
    }
    master_ = std::make_shared<Node>(*address, node_options_);
    master_worked_ = false;
    if (!(*address == last_address_)) {
      log::Info("Redis master found",
                {{"master_name", master_name_},
                 {"address", address->Text()},
                 {"previous", last_address_.host.empty() ? "" : last_address_.Text()}});
      last_address_ = *address;
    }
    return master_;
  }

  Result<RedisAddress> AskSentinels() {
    std::string errors;
    for (size_t i = 0; i < sentinels_.size(); ++i) {
      const size_t at = (first_sentinel_ + i) % sentinels_.size();
      // A name with several addresses (a headless Service in Kubernetes) is every sentinel
      // behind it.
      for (const RedisAddress& sentinel : Expand(sentinels_[at])) {
        auto r = redis_internal::OneShot(sentinel, sentinel_options_,
                                         {"SENTINEL", "get-master-addr-by-name", master_name_});
        if (r.ok() && r->elements.size() == 2) {
          RedisAddress a;
          a.host = r->elements[0].str;
          a.port = std::atoi(r->elements[1].str.c_str());
          if (a.port > 0) {
            first_sentinel_ = at;
            return a;
          }
        }
        errors += (errors.empty() ? "" : "; ") + sentinel.Text() + ": " +
                  (!r.ok()       ? r.status().message()
                   : r->is_nil() ? "does not know \"" + master_name_ + "\""
                                 : r->str);
      }
    }
    return Status(ErrorCode::kUnavailable,
                  "Redis is unavailable: no sentinel named the master of \"" + master_name_ +
                      "\" (" + errors + ")");
  }

  // Every address of the entry's host name (the name itself when it does not resolve, so the
  // connection attempt reports why).
  static std::vector<RedisAddress> Expand(const RedisAddress& entry) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    std::vector<RedisAddress> out;
    if (getaddrinfo(entry.host.c_str(), nullptr, &hints, &found) == 0) {
      for (addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
        char text[INET6_ADDRSTRLEN] = {};
        const void* where =
            ai->ai_family == AF_INET
                ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(ai->ai_addr)->sin_addr)
                : static_cast<const void*>(
                      &reinterpret_cast<sockaddr_in6*>(ai->ai_addr)->sin6_addr);
        if (inet_ntop(ai->ai_family, where, text, sizeof text) == nullptr) continue;
        RedisAddress a{text, entry.port};
        if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
      }
      freeaddrinfo(found);
    }
    if (out.size() <= 1) return {entry};
    return out;
  }

  // Drops the master the caller used (if still current), so the next command resolves again.
  // `failed_connect`: the address did not take a connection. For an address the sentinels have
  // just given, that counts as a failed resolution (they have not seen the failure yet: asking
  // again at once would give the same answer); for a master that worked, it is asked at once.
  void Forget(const std::shared_ptr<Node>& node, bool failed_connect) {
    std::lock_guard lock(mu_);
    if (master_ != node) return;
    master_.reset();
    healthy_.store(false, std::memory_order_relaxed);
    if (failed_connect && !master_worked_) Backoff();
    master_worked_ = false;
  }

  void Backoff() {  // under mu_
    next_try_ms_ = SteadyMillis() + backoff_ms_;
    backoff_ms_ = std::min(kMaxBackoffMs, backoff_ms_ * 2);
  }

  void Healthy() {
    if (healthy_.load(std::memory_order_relaxed)) return;  // the common case: no lock
    std::lock_guard lock(mu_);
    backoff_ms_ = kMinBackoffMs;
    master_worked_ = true;
    healthy_.store(true, std::memory_order_relaxed);
  }

  const std::vector<RedisAddress> sentinels_;
  const std::string master_name_;
  redis_internal::NodeOptions node_options_;
  redis_internal::NodeOptions sentinel_options_;
  std::mutex resolve_mu_;
  size_t first_sentinel_ = 0;  // under resolve_mu_
  std::mutex mu_;
  std::shared_ptr<Node> master_;
  bool master_worked_ = false;        // a command succeeded on master_
  std::atomic<bool> healthy_{false};  // master_worked_ and the backoff is back to its minimum
  RedisAddress last_address_;
  int64_t next_try_ms_ = 0;
  int64_t backoff_ms_ = kMinBackoffMs;
};

}  // namespace

std::unique_ptr<RedisClient::Topology> MakeSentinelTopology(const RedisOptions& options) {
  return std::make_unique<SentinelTopology>(options);
}

}  // namespace dq
