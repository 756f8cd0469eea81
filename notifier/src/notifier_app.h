// Builds a running notifier from settings and owns its threads:
//   - N delivery workers, each with its own curl handle: XREADGROUP (BLOCK) -> Dispatcher -> XACK;
//   - retry schedulers: take due retries from the schedule (lease) -> Dispatcher;
//   - one reclaimer: XAUTOCLAIM entries left pending by a consumer that died -> Dispatcher -> XACK;
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
#include "notifier_settings.h"
#include "redis_event_stream.h"
#include "dq/webhook/retry_policy.h"

namespace dq::notifier {

class NotifierApp {
 public:
  explicit NotifierApp(NotifierSettings settings);
  ~NotifierApp();

  // Starts the health server and the threads. Redis may still be down: the threads keep trying.
  // Errors: kUnavailable when the health port cannot be bound.
  Status Start();
  // Stops the threads (each finishes the delivery in hand) and the health server.
  void Shutdown();
  int port() const { return health_ ? health_->port() : 0; }

 private:
  void WorkerLoop();
  void RetryLoop();
  void ReclaimLoop();
  // Delivers one stream entry and acknowledges it once its outcome is durable.
  void HandleEntry(const StreamEntry& entry, webhook::HttpSender& sender);
  std::unique_ptr<webhook::HttpSender> NewSender() const;
  // Waits up to ms or until Shutdown(); false when stopping.
  bool Pause(int64_t ms);

  NotifierSettings settings_;
  std::unique_ptr<RedisClient> redis_;
  std::unique_ptr<RedisClient> blocking_redis_;
  std::unique_ptr<RedisAccountStore> accounts_;
  std::unique_ptr<webhook::RedisDeliveryLog> store_;
  std::unique_ptr<webhook::MtRandomSource> random_;
  std::unique_ptr<webhook::RetryPolicy> policy_;
  std::unique_ptr<webhook::Dispatcher> dispatcher_;
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
