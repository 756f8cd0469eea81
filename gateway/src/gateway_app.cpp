#include "gateway_app.h"

#include "dq/common/log.h"

namespace dq::gateway {

GatewayApp::GatewayApp(const Settings& s) {
  // main() rejects a bad DQ_ROLE before it gets here; tests build apps from valid settings.
  if (auto role = ParseRole(s.String("DQ_ROLE")); role.ok()) role_ = *role;
  RedisOptions ro;
  ro.host = s.String("DQ_REDIS_HOST");
  ro.port = static_cast<int>(s.Int("DQ_REDIS_PORT"));
  ro.user = s.String("DQ_REDIS_USER");
  ro.password = s.String("DQ_REDIS_PASSWORD");
  ro.timeout = std::chrono::milliseconds(s.Int("DQ_REDIS_TIMEOUT_MS"));
  ro.pool_size = static_cast<size_t>(s.Int("DQ_REDIS_POOL_SIZE"));
  redis_ = std::make_unique<RedisClient>(ro);

  const Clock& clock = SystemClock::Instance();
  accounts_ = std::make_unique<RedisAccountStore>(*redis_, clock);
  RateLimitPolicy rl;
  rl.general = s.Int("DQ_RATE_LIMIT_GENERAL");
  rl.upload = s.Int("DQ_RATE_LIMIT_UPLOAD");
  rl.anonymous = s.Int("DQ_RATE_LIMIT_ANONYMOUS");
  rl.window_seconds = s.Int("DQ_RATE_LIMIT_WINDOW_SECONDS");
  // Rate-limit counters are hot, short-lived and need no durability: they may live in a Redis of
  // their own without an append-only file, so every request does not wait for an fsync.
  RedisClient* limiter_redis = redis_.get();
  if (!s.String("DQ_RATE_LIMIT_REDIS_HOST").empty() || s.Int("DQ_RATE_LIMIT_REDIS_PORT") != 0) {
    RedisOptions lo = ro;
    if (!s.String("DQ_RATE_LIMIT_REDIS_HOST").empty()) lo.host = s.String("DQ_RATE_LIMIT_REDIS_HOST");
    if (s.Int("DQ_RATE_LIMIT_REDIS_PORT") != 0) lo.port = static_cast<int>(s.Int("DQ_RATE_LIMIT_REDIS_PORT"));
    limiter_redis_ = std::make_unique<RedisClient>(lo);
    limiter_redis = limiter_redis_.get();
  }
  limiter_ = std::make_unique<RedisRateLimiter>(*limiter_redis, clock, rl);
  QuotaPolicy qp;
  qp.free = s.Int("DQ_QUOTA_FREE");
  qp.pro = s.Int("DQ_QUOTA_PRO");
  qp.business = s.Int("DQ_QUOTA_BUSINESS");
  qp.agency = s.Int("DQ_QUOTA_AGENCY");
  quota_ = std::make_unique<RedisQuotaService>(*redis_, clock, qp);
  validator_ = std::make_unique<GrpcValidatorClient>(
      s.String("DQ_VALIDATOR_ADDR"), std::chrono::milliseconds(s.Int("DQ_VALIDATOR_TIMEOUT_MS")));

  RedisOptions blocking = ro;
  blocking.timeout = std::chrono::milliseconds(ro.timeout.count() + 2000);
  blocking_redis_ = std::make_unique<RedisClient>(blocking);
  StoreLimits sl;
  sl.ttl = std::chrono::seconds(s.Int("DQ_JOB_TTL_DAYS") * 24 * 3600);
  sl.max_account_bytes = s.Int("DQ_ACCOUNT_MAX_STORED_BYTES");
  jobs_store_ = std::make_unique<RedisJobStore>(*redis_, sl);
  queue_ = std::make_unique<RedisJobQueue>(*redis_, *blocking_redis_);
  JobsOptions jo;
  jo.upload_max_bytes = static_cast<size_t>(s.Int("DQ_UPLOAD_MAX_BYTES"));
  jobs_api_ = std::make_unique<JobsApi>(*jobs_store_, *queue_, *quota_, clock, jo);
  events_ = std::make_unique<RedisEventPublisher>(*redis_);
  streams_ = std::make_unique<GrpcValidatorStreamFactory>(validator_->channel(),
                                                          std::chrono::minutes(30));
  RunnerOptions ro_run;
  ro_run.output.max_stored_issues = s.Int("DQ_JOB_MAX_STORED_ISSUES");
  runner_ = std::make_unique<JobRunner>(*jobs_store_, *queue_, *streams_, *events_, clock, ro_run);
  WorkerOptions wo;
  wo.threads = RunsWorkers(role_) ? static_cast<int>(s.Int("DQ_WORKERS")) : 0;
  wo.claim_idle = std::chrono::milliseconds(s.Int("DQ_JOB_CLAIM_IDLE_MS"));
  wo.heartbeat = wo.claim_idle / 6;
  workers_ = std::make_unique<JobWorkers>(*queue_, *runner_, wo);

  queue_stats_ = std::make_unique<RedisQueueStats>(*redis_, clock);
  queue_sampler_ = std::make_unique<QueueMetricsSampler>(
      *queue_stats_, std::chrono::milliseconds(s.Int("DQ_QUEUE_METRICS_INTERVAL_MS")));

  RedisClient* redis = redis_.get();
  if (!ServesApi(role_)) {
    // Worker role: no public listener. The operations port answers the probes and /metrics;
    // ready while Redis and the validator answer and the process is not draining.
    GrpcValidatorClient* validator = validator_.get();
    ops_ = std::make_unique<OpsHttpServer>(
        s.String("DQ_GATEWAY_BIND"), static_cast<int>(s.Int("DQ_GATEWAY_OPS_PORT")),
        [this, redis, validator] {
          return !draining_.load() && redis->Ping() && validator->Healthy();
        });
    return;
  }

  GatewayOptions go;
  go.max_body_bytes = static_cast<size_t>(s.Int("DQ_MAX_BODY_BYTES"));
  go.max_records = static_cast<size_t>(s.Int("DQ_MAX_RECORDS"));
  go.rate_limiting = s.Int("DQ_RATE_LIMIT_ENABLED") == 1;
  if (!go.rate_limiting) log::Warn("rate limiting is OFF (DQ_RATE_LIMIT_ENABLED=0)");
  self_service_ =
      std::make_unique<SelfService>(s, *redis_, *accounts_, *quota_, *limiter_, clock);
  // The web console's files; without them the gateway still serves the API.
  auto site = LoadConsoleSite(s.String("DQ_CONSOLE_DIR"), s.String("DQ_CONSOLE_VENDOR_DIR"));
  if (site.ok()) {
    console_site_ = std::make_unique<ConsoleSite>(std::move(*site));
    log::Info("console served at /console/", {{"version", console_site_->version()}});
  } else {
    log::Warn("console not served", {{"error", site.status().message()}});
  }
  GatewayDeps deps{*accounts_, *limiter_, *quota_, *validator_,
                   [redis, limiter_redis] {
                     return redis->Ping() && (limiter_redis == redis || limiter_redis->Ping());
                   },
                   jobs_api_.get(), clock, self_service_->console(),
                   self_service_->webhooks()};
  deps.console_site = console_site_.get();
  ValidatePoolOptions vp;
  vp.threads = static_cast<int>(s.Int("DQ_VALIDATE_THREADS"));
  vp.per_account = static_cast<int>(s.Int("DQ_VALIDATE_PER_ACCOUNT"));
  vp.queue = static_cast<int>(s.Int("DQ_VALIDATE_QUEUE"));
  // Below the HTTP server's header timeout (60 s), which would answer 408 on a connection whose
  // answer is still being worked on.
  vp.deadline = std::chrono::milliseconds(std::min<int64_t>(s.Int("DQ_VALIDATOR_TIMEOUT_MS"),
                                                            55'000));
  validate_pool_ = std::make_unique<ValidatePool>(vp);
  deps.validate_pool = validate_pool_.get();
  gateway_ = std::make_unique<Gateway>(std::move(deps), go);

  HttpServerOptions ho;
  ho.bind = s.String("DQ_GATEWAY_BIND");
  ho.port = static_cast<int>(s.Int("DQ_GATEWAY_PORT"));
  ho.threads = static_cast<int>(s.Int("DQ_GATEWAY_THREADS"));
  ho.trusted_proxies = s.String("DQ_TRUSTED_PROXIES");
  edge::EdgeLimits& el = ho.limits;
  el.max_header_bytes = static_cast<size_t>(s.Int("DQ_MAX_HEADER_BYTES"));
  el.max_unauthenticated_body = static_cast<size_t>(s.Int("DQ_UNAUTHENTICATED_BODY_BYTES"));
  // The largest body any route accepts, plus room for the multipart envelope of an upload.
  el.max_request_body = static_cast<size_t>(
      std::max(s.Int("DQ_MAX_BODY_BYTES"), s.Int("DQ_UPLOAD_MAX_BYTES")) + (1 << 20));
  el.body_memory_bytes = static_cast<size_t>(s.Int("DQ_BODY_MEMORY_BYTES"));
  el.max_connections = static_cast<size_t>(s.Int("DQ_MAX_CONNECTIONS"));
  el.max_connections_per_address = static_cast<size_t>(s.Int("DQ_MAX_CONNECTIONS_PER_ADDRESS"));
  el.min_bytes_per_second = static_cast<size_t>(s.Int("DQ_MIN_BYTES_PER_SECOND"));
  el.rate_grace = std::chrono::milliseconds(s.Int("DQ_REQUEST_GRACE_MS"));
  el.idle_timeout = std::chrono::milliseconds(s.Int("DQ_IDLE_TIMEOUT_MS"));
  http_ = std::make_unique<HttpServer>(*gateway_, ho);
  Gateway* gw = gateway_.get();
  ops_ = std::make_unique<OpsHttpServer>(s.String("DQ_GATEWAY_BIND"),
                                         static_cast<int>(s.Int("DQ_GATEWAY_OPS_PORT")),
                                         [gw] { return gw->Ready(); });
}

GatewayApp::~GatewayApp() { Shutdown(); }

Status GatewayApp::Start() {
  // The ops port (probes, /metrics) in every role; the API listener in roles api and all.
  if (Status s = ops_->Start(); !s.ok()) return s;
  if (http_) {
    if (Status s = http_->Start(); !s.ok()) return s;
  }
  workers_->Start();
  queue_sampler_->Start();
  log::Info("started", {{"role", std::string(RoleName(role_))}, {"port", std::to_string(port())}});
  return Status::Ok();
}

void GatewayApp::Shutdown() {
  if (queue_sampler_) queue_sampler_->Stop();
  // Calls still waiting are answered (503) and running ones end by their deadline while the
  // server can still send their answers.
  if (validate_pool_) validate_pool_->Stop();
  if (http_) http_->Shutdown();
  if (ops_) ops_->Shutdown();
  if (workers_) workers_->Stop();
}

}  // namespace dq::gateway
