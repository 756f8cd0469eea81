#include "gateway_app.h"

#include <unistd.h>

#include "dq/artifact/store_factory.h"
#include "dq/common/log.h"

namespace dq::gateway {

GatewayApp::GatewayApp(const GatewaySettings& g, const Settings& table) : role_(g.role) {
  LogRedisMode(g.redis);
  redis_ = std::make_unique<RedisClient>(g.redis);
  const Clock& clock = SystemClock::Instance();
  accounts_ = std::make_unique<RedisAccountStore>(*redis_, clock);
  RedisClient* limiter_redis = redis_.get();
  if (g.limiter_redis) {
    limiter_redis_ = std::make_unique<RedisClient>(*g.limiter_redis);
    limiter_redis = limiter_redis_.get();
  }
  limiter_ = std::make_unique<RedisRateLimiter>(*limiter_redis, clock, g.rate_limit);
  quota_ = std::make_unique<RedisQuotaService>(*redis_, clock, g.quota);
  validator_ = std::make_unique<GrpcValidatorClient>(g.validator_addr, g.validator_timeout);
  // Job files: in the artifact store (DQ_ARTIFACT_STORE), or in Redis when it says redis. A
  // store that cannot be opened stops Start() with its reason.
  if (auto store = artifact::MakeArtifactStore(table, artifact::ProcessEnvironment()); store.ok()) {
    artifacts_ = std::move(*store);
  } else {
    init_status_ = store.status();
  }
  downloads_ = std::make_unique<http::DownloadLedger>(
      g.http.downloads, &http::HttpServerMetrics::Global().download_held_bytes.Get());
  WireJobs(g, clock);

  RedisClient* redis = redis_.get();
  if (!ServesApi(role_)) {
    // Worker role: no public listener. The operations port answers the probes and /metrics;
    // ready while Redis and the validator answer and the process is not draining.
    GrpcValidatorClient* validator = validator_.get();
    ops_ = std::make_unique<OpsHttpServer>(
        g.http.bind, g.ops_port,
        [this, redis, validator] {
          return !draining_.load() && redis->Ping() && redis->AcceptsWrites() &&
                 validator->Healthy();
        });
    return;
  }
  WireApi(g, table, clock, limiter_redis);
}

void GatewayApp::WireJobs(const GatewaySettings& g, const Clock& clock) {
  RedisOptions blocking = g.redis;
  blocking.timeout = std::chrono::milliseconds(g.redis.timeout.count() + 2000);
  blocking_redis_ = std::make_unique<RedisClient>(blocking);
  jobs_store_ = std::make_unique<RedisJobStore>(*redis_, g.store, artifacts_.get());
  queue_ = std::make_unique<RedisJobQueue>(*redis_, *blocking_redis_, redis_->options().partitions,
                                           g.workers.threads);
  jobs_api_ = std::make_unique<JobsApi>(*jobs_store_, *queue_, *quota_, clock, g.jobs,
                                        downloads_.get());
  events_ = std::make_unique<RedisEventPublisher>(*redis_);
  streams_ = std::make_unique<GrpcValidatorStreamFactory>(validator_->channel(),
                                                          g.validator_stream_deadline);
  runner_ =
      std::make_unique<JobRunner>(*jobs_store_, *queue_, *streams_, *events_, clock, g.runner);
  workers_ = std::make_unique<JobWorkers>(*queue_, *runner_, g.workers);
  if (ServesApi(role_) && RunsWorkers(role_)) {  // uploads' raw pieces left for the workers
    handoff_ = std::make_unique<UploadHandoff>(UploadHandoff::kDefaultMaxBytes,
                                               UploadHandoff::kDefaultMaxAge, clock);
    jobs_api_->SetUploadHandoff(handoff_.get());
    runner_->SetUploadHandoff(handoff_.get());
  }
  queue_stats_ = std::make_unique<RedisQueueStats>(*redis_, clock);
  queue_sampler_ = std::make_unique<QueueMetricsSampler>(*queue_stats_, g.queue_metrics_interval);
  if (artifacts_ != nullptr && RunsWorkers(role_)) {
    // The sweep of orphaned objects: a worker duty, one process per interval (a Redis lease).
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    sweep_lease_ = std::make_unique<RedisSweepLease>(
        *redis_, std::string(host) + "-" + std::to_string(getpid()));
    RedisJobStore* store = jobs_store_.get();
    sweeper_ = std::make_unique<OrphanSweeper>(
        *artifacts_,
        [store](const std::string& account, const std::string& id) {
          return store->Get(account, id);
        },
        *sweep_lease_, clock, g.sweep);
  }
}

void GatewayApp::WireApi(const GatewaySettings& g, const Settings& table, const Clock& clock,
                         RedisClient* limiter_redis) {
  if (!g.api.rate_limiting) log::Warn("rate limiting is OFF (DQ_RATE_LIMIT_ENABLED=0)");
  self_service_ =
      std::make_unique<SelfService>(table, *redis_, *accounts_, *quota_, *limiter_, clock);
  // The web console's files; without them the gateway still serves the API.
  auto site = LoadConsoleSite(g.console_dir, g.console_vendor_dir);
  if (site.ok()) {
    console_site_ = std::make_unique<ConsoleSite>(std::move(*site));
    log::Info("console served at /console/", {{"version", console_site_->version()}});
  } else {
    log::Warn("console not served", {{"error", site.status().message()}});
  }
  RedisClient* redis = redis_.get();
  GatewayDeps deps{*accounts_, *limiter_, *quota_, *validator_,
                   // Not ready while Redis refuses writes (full): new work would only fail.
                   [redis, limiter_redis] {
                     return redis->Ping() && redis->AcceptsWrites() &&
                            (limiter_redis == redis ||
                             (limiter_redis->Ping() && limiter_redis->AcceptsWrites()));
                   },
                   jobs_api_.get(), clock, self_service_->console(),
                   self_service_->webhooks()};
  deps.console_site = console_site_.get();
  validate_pool_ = std::make_unique<ValidatePool>(g.validate_pool);
  deps.validate_pool = validate_pool_.get();
  gateway_ = std::make_unique<Gateway>(std::move(deps), g.api);
  http::HttpServerOptions http = g.http;
  http.download_ledger = downloads_.get();
  http_ = std::make_unique<http::HttpServer>(*gateway_, http);
  Gateway* gw = gateway_.get();
  ops_ = std::make_unique<OpsHttpServer>(g.http.bind, g.ops_port, [gw] { return gw->Ready(); });
}

GatewayApp::~GatewayApp() { Shutdown(); }

Status GatewayApp::Start() {
  if (!init_status_.ok()) return init_status_;  // e.g. an artifact directory it cannot write
  // The ops port (probes, /metrics) in every role; the API listener in roles api and all.
  if (Status s = ops_->Start(); !s.ok()) return s;
  if (http_) {
    if (Status s = http_->Start(); !s.ok()) return s;
  }
  workers_->Start();
  queue_sampler_->Start();
  if (sweeper_) sweeper_->Start();
  log::Info("started", {{"role", std::string(RoleName(role_))}, {"port", std::to_string(port())}});
  return Status::Ok();
}

void GatewayApp::Shutdown() {
  if (queue_sampler_) queue_sampler_->Stop();
  if (sweeper_) sweeper_->Stop();
  // Calls still waiting are answered (503) and running ones end by their deadline while the
  // server can still send their answers.
  if (validate_pool_) validate_pool_->Stop();
  if (http_) http_->Shutdown();
  if (ops_) ops_->Shutdown();
  if (workers_) workers_->Stop();
}

}  // namespace dq::gateway
