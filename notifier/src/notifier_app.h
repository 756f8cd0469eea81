// Builds a running notifier from settings and owns its threads (docs/notifier.md, "Threads"):
//   - one stream reader: XREADGROUP (BLOCK) -> the fair queue (an account's overflow goes on
//     the retry schedule), while it has room;
//   - one retry claimer: due retries, fairly (none of accounts that cannot start an attempt,
//     at most a backlog's worth per account), leased -> the fair queue;
//   - one reclaimer: XAUTOCLAIM entries left pending by a consumer that died -> the fair queue;
//   - N delivery threads, each with its own curl handle: the fair queue (round-robin across
//     accounts, per_account at a time) -> Dispatcher (through the FairGate: per-destination
//     limit, a breaker per destination) -> XACK;
//   - the health server (/healthz, /readyz, /metrics).
// main() and the integration tests both use it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "dq/common/delivery_log.h"
#include "dq/webhook/dispatcher.h"
#include "dq/common/account_store.h"
#include "dq/common/redis_client.h"
#include "dq/common/grpc_health_server.h"
#include "dq/common/ops_http_server.h"
#include "dq/webhook/http_sender.h"
#include "notifier_metrics.h"
#include "notifier_settings.h"
#include "redis_event_stream.h"
#include "fair_queue.h"
#include "dq/webhook/fair_gate.h"
#include "dq/webhook/retry_policy.h"

namespace dq::notifier {

class NotifierApp {
 public:
  explicit NotifierApp(NotifierSettings settings,
                       NotifierMetrics& metrics = NotifierMetrics::Global());
  ~NotifierApp();

  // Starts the health server and the threads. Redis may still be down: the threads keep trying.
  // Errors: kUnavailable when the health port cannot be bound.
  Status Start();
  // Stops the threads (each finishes the delivery in hand) and the health server.
  void Shutdown();
  int port() const { return health_ ? health_->port() : 0; }

 private:
  void ReaderLoop();
  void DeliveryLoop();
  void RetryLoop();
  void ReclaimLoop();
  // Queues a stream entry for its account, or puts it on the retry schedule when the account's
  // backlog is full (then acknowledges it).
  void Enqueue(const StreamEntry& entry);
  // Delivers one item; a stream entry is acknowledged once its outcome is durable.
  void Deliver(const WorkItem& item, webhook::HttpSender& sender);
  std::unique_ptr<webhook::HttpSender> NewSender() const;
  // Waits up to ms or until Shutdown(); false when stopping.
  bool Pause(int64_t ms);

  NotifierSettings settings_;
  NotifierMetrics& metrics_;
  std::unique_ptr<RedisClient> redis_;
  std::unique_ptr<RedisClient> blocking_redis_;
  std::unique_ptr<RedisAccountStore> accounts_;
  std::unique_ptr<webhook::RedisDeliveryLog> store_;
  std::unique_ptr<webhook::MtRandomSource> random_;
  std::unique_ptr<webhook::RetryPolicy> policy_;
  std::unique_ptr<webhook::FairGate> gate_;
  std::unique_ptr<webhook::Dispatcher> dispatcher_;
  std::unique_ptr<FairQueue> work_;
  std::unique_ptr<RedisEventStream> stream_;
  std::unique_ptr<OpsHttpServer> health_;
  std::unique_ptr<GrpcHealthServer> grpc_health_;

  std::atomic<bool> stop_{false};
  std::atomic<bool> group_ready_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::thread> threads_;
};

// "<hostname>-<pid>": unique per process, readable in XINFO CONSUMERS.
std::string ConsumerName();

}  // namespace dq::notifier
