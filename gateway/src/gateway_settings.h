// The gateway's settings, typed and loaded once.
//
// Every value is a row of the shared settings table (common/src/settings.cpp: name, default,
// range, help), which validates it and refuses unknown DQ_* names. BindGatewaySettings() turns
// the validated table into this struct, as the notifier's and the validator's settings are, so
// the rest of the gateway reads fields, never names. The one exception is SelfService, which
// still reads its rows (console, sessions, webhooks) from the table it is given.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "dq/common/redis_client.h"
#include "dq/common/settings.h"
#include "clients/validate_pool.h"
#include "gateway.h"
#include "dq/http/pistache_server.h"
#include "jobs/job_runner.h"
#include "jobs/job_worker.h"
#include "jobs/jobs_api.h"
#include "jobs/orphan_sweeper.h"
#include "jobs/redis_job_store.h"
#include "limits/quota.h"
#include "limits/rate_limiter.h"
#include "role.h"

namespace dq::gateway {

struct GatewaySettings {
  Role role = Role::kAll;                      // DQ_ROLE
  std::string log_level = "info";              // DQ_LOG_LEVEL
  std::chrono::milliseconds shutdown_grace{};  // DQ_SHUTDOWN_GRACE_MS

  RedisOptions redis;                          // DQ_REDIS_*
  // Set when the rate-limit counters live in a Redis of their own (DQ_RATE_LIMIT_REDIS_HOST or
  // _PORT): the main Redis's options with that host and port.
  std::optional<RedisOptions> limiter_redis;
  RateLimitPolicy rate_limit;                  // DQ_RATE_LIMIT_{GENERAL,UPLOAD,ANONYMOUS,...}
  QuotaPolicy quota;                           // DQ_QUOTA_*

  std::string validator_addr;                  // DQ_VALIDATOR_ADDR
  std::chrono::milliseconds validator_timeout{};  // DQ_VALIDATOR_TIMEOUT_MS
  std::chrono::milliseconds validator_stream_deadline{30 * 60 * 1000};  // DQ_VALIDATOR_STREAM_DEADLINE_MS
  // DQ_VALIDATE_{THREADS,PER_ACCOUNT,QUEUE}; its deadline is DQ_VALIDATOR_TIMEOUT_MS, at most
  // 55 s (below the HTTP server's 60 s header timeout, which would answer 408 on a connection
  // whose answer is still being worked on).
  ValidatePoolOptions validate_pool;

  StoreLimits store;                           // DQ_JOB_TTL_DAYS, DQ_ACCOUNT_MAX_STORED_BYTES
  JobsOptions jobs;                            // DQ_UPLOAD_MAX_BYTES, DQ_KEPT_UPLOAD_MINUTES
  RunnerOptions runner;                        // DQ_JOB_MAX_STORED_ISSUES
  SweepOptions sweep;                          // DQ_ARTIFACT_SWEEP_*
  WorkerOptions workers;                       // DQ_WORKERS (0 in role api), DQ_JOB_CLAIM_IDLE_MS
  std::chrono::milliseconds queue_metrics_interval{};  // DQ_QUEUE_METRICS_INTERVAL_MS

  GatewayOptions api;                          // DQ_MAX_BODY_BYTES, DQ_MAX_RECORDS, ...
  http::HttpServerOptions http;                // DQ_GATEWAY_{BIND,PORT,THREADS}, edge limits
  int ops_port = 9093;                         // DQ_GATEWAY_OPS_PORT (0: any free port)
  std::string console_dir;                     // DQ_CONSOLE_DIR
  std::string console_vendor_dir;              // DQ_CONSOLE_VENDOR_DIR
};

// Binds the validated table. Errors (kInvalidRequest, naming the variable): an unknown DQ_ROLE,
// and DQ_ROLE=worker with DQ_WORKERS=0 (a worker that runs no jobs).
Result<GatewaySettings> BindGatewaySettings(const Settings& s);

}  // namespace dq::gateway
