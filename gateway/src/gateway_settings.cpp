#include "gateway_settings.h"

#include <algorithm>

namespace dq::gateway {
namespace {

size_t Size(const Settings& s, std::string_view name) {
  return static_cast<size_t>(s.Int(name));
}
std::chrono::milliseconds Ms(const Settings& s, std::string_view name) {
  return std::chrono::milliseconds(s.Int(name));
}

void BindLimits(const Settings& s, GatewaySettings& g) {
  g.rate_limit.general = s.Int("DQ_RATE_LIMIT_GENERAL");
  g.rate_limit.upload = s.Int("DQ_RATE_LIMIT_UPLOAD");
  g.rate_limit.anonymous = s.Int("DQ_RATE_LIMIT_ANONYMOUS");
  g.rate_limit.window_seconds = s.Int("DQ_RATE_LIMIT_WINDOW_SECONDS");
  // Rate-limit counters are hot, short-lived and need no durability: they may live in a Redis of
  // their own without an append-only file, so every request does not wait for an fsync.
  const std::string& host = s.String("DQ_RATE_LIMIT_REDIS_HOST");
  const int64_t port = s.Int("DQ_RATE_LIMIT_REDIS_PORT");
  if (!host.empty() || port != 0) {
    RedisOptions lo = g.redis;
    if (!host.empty()) lo.host = host;
    if (port != 0) lo.port = static_cast<int>(port);
    // One server: its counters need neither a failover nor replicas (issue 35).
    lo.sentinels.clear();
    lo.cluster.clear();
    lo.min_replicas = 0;
    g.limiter_redis = lo;
  }
  g.quota.free = s.Int("DQ_QUOTA_FREE");
  g.quota.pro = s.Int("DQ_QUOTA_PRO");
  g.quota.business = s.Int("DQ_QUOTA_BUSINESS");
  g.quota.agency = s.Int("DQ_QUOTA_AGENCY");
}

void BindJobs(const Settings& s, GatewaySettings& g) {
  g.store.ttl = std::chrono::seconds(s.Int("DQ_JOB_TTL_DAYS") * 24 * 3600);
  g.store.max_account_bytes = s.Int("DQ_ACCOUNT_MAX_STORED_BYTES");
  g.sweep.interval = std::chrono::seconds(s.Int("DQ_ARTIFACT_SWEEP_INTERVAL_SECONDS"));
  g.sweep.grace = std::chrono::seconds(s.Int("DQ_ARTIFACT_SWEEP_GRACE_SECONDS"));
  g.store.free_bytes = s.Int("DQ_STORAGE_FREE_BYTES");
  g.store.pro_bytes = s.Int("DQ_STORAGE_PRO_BYTES");
  g.store.business_bytes = s.Int("DQ_STORAGE_BUSINESS_BYTES");
  g.store.agency_bytes = s.Int("DQ_STORAGE_AGENCY_BYTES");
  g.jobs.upload_max_bytes = Size(s, "DQ_UPLOAD_MAX_BYTES");
  g.jobs.kept_upload_minutes = static_cast<int>(s.Int("DQ_KEPT_UPLOAD_MINUTES"));
  g.store.kept_upload_ttl = std::chrono::minutes(g.jobs.kept_upload_minutes);
  g.store.max_kept_uploads = static_cast<int>(s.Int("DQ_KEPT_UPLOADS_PER_ACCOUNT"));
  g.runner.output.max_stored_issues = s.Int("DQ_JOB_MAX_STORED_ISSUES");
  g.workers.threads = RunsWorkers(g.role) ? static_cast<int>(s.Int("DQ_WORKERS")) : 0;
  g.workers.claim_idle = Ms(s, "DQ_JOB_CLAIM_IDLE_MS");
  g.workers.heartbeat = g.workers.claim_idle / 6;
  g.queue_metrics_interval = Ms(s, "DQ_QUEUE_METRICS_INTERVAL_MS");
}

void BindHttp(const Settings& s, GatewaySettings& g) {
  g.api.max_body_bytes = Size(s, "DQ_MAX_BODY_BYTES");
  g.api.max_records = Size(s, "DQ_MAX_RECORDS");
  g.api.rate_limiting = s.Int("DQ_RATE_LIMIT_ENABLED") == 1;
  g.api.hsts = s.Int("DQ_HSTS") == 1;
  http::HttpServerOptions& ho = g.http;
  ho.bind = s.String("DQ_GATEWAY_BIND");
  ho.port = static_cast<int>(s.Int("DQ_GATEWAY_PORT"));
  ho.threads = static_cast<int>(s.Int("DQ_GATEWAY_THREADS"));
  ho.trusted_proxies = s.String("DQ_TRUSTED_PROXIES");
  http::edge::EdgeLimits& el = ho.limits;
  el.max_header_bytes = Size(s, "DQ_MAX_HEADER_BYTES");
  el.max_unauthenticated_body = Size(s, "DQ_UNAUTHENTICATED_BODY_BYTES");
  // The largest body any route accepts, plus room for the multipart envelope of an upload.
  el.max_request_body = static_cast<size_t>(
      std::max(s.Int("DQ_MAX_BODY_BYTES"), s.Int("DQ_UPLOAD_MAX_BYTES")) + (1 << 20));
  el.body_memory_bytes = Size(s, "DQ_BODY_MEMORY_BYTES");
  el.max_connections = Size(s, "DQ_MAX_CONNECTIONS");
  el.max_connections_per_address = Size(s, "DQ_MAX_CONNECTIONS_PER_ADDRESS");
  el.min_bytes_per_second = Size(s, "DQ_MIN_BYTES_PER_SECOND");
  el.rate_grace = Ms(s, "DQ_REQUEST_GRACE_MS");
  el.idle_timeout = Ms(s, "DQ_IDLE_TIMEOUT_MS");
  ho.downloads.stall_timeout = Ms(s, "DQ_DOWNLOAD_STALL_TIMEOUT_MS");
  ho.downloads.memory_bytes = Size(s, "DQ_DOWNLOAD_MEMORY_BYTES");
  g.ops_port = static_cast<int>(s.Int("DQ_GATEWAY_OPS_PORT"));
  g.console_dir = s.String("DQ_CONSOLE_DIR");
  g.console_vendor_dir = s.String("DQ_CONSOLE_VENDOR_DIR");
}

}  // namespace

Result<GatewaySettings> BindGatewaySettings(const Settings& s) {
  GatewaySettings g;
  auto role = ParseRole(s.String("DQ_ROLE"));
  if (!role.ok()) return role.status();
  g.role = *role;
  if (g.role == Role::kWorker && s.Int("DQ_WORKERS") == 0) {
    return Status(ErrorCode::kInvalidRequest,
                  "DQ_ROLE=worker needs DQ_WORKERS of at least 1");
  }
  const std::string mail = s.String("DQ_MAIL_TRANSPORT");
  if (mail != "log" && mail != "file") {
    return Status(ErrorCode::kInvalidRequest, "DQ_MAIL_TRANSPORT must be log or file, not " + mail);
  }
  if (mail == "file" && s.String("DQ_MAIL_DIR").empty()) {
    return Status(ErrorCode::kInvalidRequest, "DQ_MAIL_TRANSPORT=file needs DQ_MAIL_DIR");
  }
  g.log_level = s.String("DQ_LOG_LEVEL");
  g.shutdown_grace = Ms(s, "DQ_SHUTDOWN_GRACE_MS");
  auto redis = RedisOptionsFromSettings(s);  // one server, Sentinel or Cluster
  if (!redis.ok()) return redis.status();
  g.redis = std::move(*redis);
  BindLimits(s, g);
  g.validator_addr = s.String("DQ_VALIDATOR_ADDR");
  g.validator_timeout = Ms(s, "DQ_VALIDATOR_TIMEOUT_MS");
  g.validator_stream_deadline = Ms(s, "DQ_VALIDATOR_STREAM_DEADLINE_MS");
  g.validate_pool.threads = static_cast<int>(s.Int("DQ_VALIDATE_THREADS"));
  g.validate_pool.per_account = static_cast<int>(s.Int("DQ_VALIDATE_PER_ACCOUNT"));
  g.validate_pool.queue = static_cast<int>(s.Int("DQ_VALIDATE_QUEUE"));
  g.validate_pool.deadline = std::min(g.validator_timeout, std::chrono::milliseconds(55'000));
  BindJobs(s, g);
  BindHttp(s, g);
  return g;
}

}  // namespace dq::gateway
