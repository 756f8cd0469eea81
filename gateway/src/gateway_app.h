// Builds a running gateway from its typed settings (gateway_settings.h): Redis, the account store, limits, the validator
// client, the pipeline and the HTTP server. main() and the integration tests both use it.
// DQ_ROLE (role.h) picks what runs: the API role has no job workers; the worker role has no
// public listener, only the operations port. Every role samples the queue for /metrics.
#pragma once

#include <atomic>
#include <memory>

#include "clients/grpc_validator_client.h"
#include "clients/validate_pool.h"
#include "console/self_service.h"
#include "dq/common/account_store.h"
#include "dq/common/ops_http_server.h"
#include "dq/common/redis_client.h"
#include "dq/common/settings.h"
#include "gateway.h"
#include "gateway_settings.h"
#include "dq/http/pistache_server.h"
#include "jobs/grpc_validator_stream.h"
#include "jobs/job_runner.h"
#include "jobs/job_worker.h"
#include "jobs/redis_event_publisher.h"
#include "jobs/redis_job_queue.h"
#include "jobs/redis_job_store.h"
#include "jobs/jobs_api.h"
#include "jobs/queue_stats.h"
#include "limits/quota.h"
#include "limits/rate_limiter.h"
#include "role.h"

namespace dq::gateway {

class GatewayApp {
 public:
  // `table` is the validated settings table the typed settings were bound from; only
  // SelfService still reads rows from it.
  GatewayApp(const GatewaySettings& settings, const Settings& table);
  ~GatewayApp();

  Status Start();
  // /readyz turns 503; the server keeps serving until Shutdown().
  void BeginDrain() {
    draining_ = true;
    if (gateway_) gateway_->BeginDrain();
    workers_->RequestStop();
  }
  void Shutdown();
  Role role() const { return role_; }
  // The public HTTP port (roles api and all), or the operations port (role worker).
  int port() const { return http_ ? http_->port() : ops_->port(); }
  int ops_port() const { return ops_->port(); }

 private:
  // The job system (every role) and the API (roles api and all).
  void WireJobs(const GatewaySettings& g, const Clock& clock);
  void WireApi(const GatewaySettings& g, const Settings& table, const Clock& clock,
               RedisClient* limiter_redis);

  std::unique_ptr<RedisClient> redis_;
  std::unique_ptr<RedisClient> limiter_redis_;  // only when counters live in their own Redis
  std::unique_ptr<RedisAccountStore> accounts_;
  std::unique_ptr<RedisRateLimiter> limiter_;
  std::unique_ptr<RedisQuotaService> quota_;
  std::unique_ptr<GrpcValidatorClient> validator_;
  std::unique_ptr<ValidatePool> validate_pool_;  // roles api and all
  std::unique_ptr<RedisClient> blocking_redis_;  // long read timeout, for XREADGROUP BLOCK
  std::unique_ptr<artifact::ArtifactStore> artifacts_;  // null: job files stay in Redis
  Status init_status_;  // what Start() reports when the constructor could not set up a part
  // Before the API and the runner that hold it (destroyed after them).
  std::unique_ptr<UploadHandoff> handoff_;
  // What the streamed answers hold: the HTTP server's bound, and the jobs API's early refusal
  // of a download before it builds its first part. Outlives both.
  std::unique_ptr<http::DownloadLedger> downloads_;
  std::unique_ptr<RedisJobStore> jobs_store_;
  std::unique_ptr<JobQueue> queue_;
  std::unique_ptr<JobsApi> jobs_api_;
  std::unique_ptr<RedisEventPublisher> events_;
  std::unique_ptr<GrpcValidatorStreamFactory> streams_;
  std::unique_ptr<JobRunner> runner_;
  std::unique_ptr<JobWorkers> workers_;
  std::unique_ptr<ConsoleSite> console_site_;
  std::unique_ptr<RedisQueueStats> queue_stats_;
  std::unique_ptr<QueueMetricsSampler> queue_sampler_;
  std::unique_ptr<RedisSweepLease> sweep_lease_;  // roles worker and all, with an artifact store
  std::unique_ptr<OrphanSweeper> sweeper_;
  std::unique_ptr<SelfService> self_service_;  // roles api and all
  std::unique_ptr<Gateway> gateway_;          // roles api and all
  std::unique_ptr<http::HttpServer> http_;    // roles api and all
  std::unique_ptr<OpsHttpServer> ops_;        // every role: probes and /metrics
  Role role_ = Role::kAll;
  std::atomic<bool> draining_{false};
};

}  // namespace dq::gateway
