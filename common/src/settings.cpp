#include "dq/common/settings.h"

#include <cstdlib>
#include <cstring>
#include <sstream>

extern char** environ;

namespace dq {
namespace {

constexpr uint8_t kAll = kGateway | kValidator | kNotifier | kDqctl;
constexpr uint8_t kRedisUsers = kGateway | kNotifier | kDqctl;
constexpr int64_t kMiB = 1024 * 1024;

// The table. Keep docs/configuration.md in step (tests/unit/common/settings_test.cpp checks it).
constexpr SettingSpec kSettings[] = {
    // Shared
    {"DQ_LOG_LEVEL", "info", false, 0, 0, kAll, false, "debug, info, warn or error"},
    {"DQ_REDIS_HOST", "127.0.0.1", false, 0, 0, kRedisUsers, false, "Redis host name or address"},
    {"DQ_REDIS_PORT", "6379", true, 1, 65535, kRedisUsers, false, "Redis TCP port"},
    {"DQ_REDIS_USER", "", false, 0, 0, kRedisUsers, false,
     "Redis ACL user (deploy/redis/users.acl: dq-gateway, dq-notifier, dq-dqctl; empty: default)"},
    {"DQ_REDIS_PASSWORD", "", false, 0, 0, kRedisUsers, true, "Redis AUTH password (empty: none)"},
    {"DQ_REDIS_TIMEOUT_MS", "1000", true, 10, 60000, kRedisUsers, false,
     "connect and command timeout for Redis"},
    {"DQ_REDIS_POOL_SIZE", "32", true, 1, 1024, kRedisUsers, false,
     "idle Redis connections kept per process (per Redis server)"},
    {"DQ_REDIS_SENTINELS", "", false, 0, 0, kRedisUsers, false,
     "Redis Sentinel addresses, host:port,host:port (set: the master comes from them, and "
     "DQ_REDIS_HOST and DQ_REDIS_PORT are ignored)"},
    {"DQ_REDIS_MASTER_NAME", "dq", false, 0, 0, kRedisUsers, false,
     "the master's name in Sentinel (sentinel monitor <name> ...)"},
    {"DQ_REDIS_SENTINEL_PASSWORD", "", false, 0, 0, kRedisUsers, true,
     "AUTH password of the sentinels (empty: none)"},
    {"DQ_REDIS_CLUSTER", "", false, 0, 0, kRedisUsers, false,
     "Redis Cluster seed nodes, host:port,host:port (set: commands are routed by slot, and "
     "DQ_REDIS_HOST and DQ_REDIS_PORT are ignored)"},
    {"DQ_REDIS_MIN_REPLICAS", "0", true, 0, 16, kRedisUsers, false,
     "writes that must survive a failover (claims, finishes, quota, keys, sign-ups) wait for "
     "this many replicas (WAIT); fewer in time answers 503 (0: no wait, for one Redis)"},
    {"DQ_REDIS_WAIT_TIMEOUT_MS", "500", true, 1, 60000, kRedisUsers, false,
     "how long such a write waits for its replicas"},
    {"DQ_QUEUE_PARTITIONS", "0", true, 0, 1024, kRedisUsers, false,
     "partitions of the job queue, the event stream and the webhook retry set (each its own "
     "hash tag, so Redis Cluster spreads them); 0: 16 under Redis Cluster (DQ_REDIS_CLUSTER), "
     "1 otherwise. The same value in every process: change it only with the queue drained. An "
     "account's work always goes to one partition; the single keys of older releases are "
     "drained too"},
    // Gateway
    {"DQ_GATEWAY_BIND", "0.0.0.0", false, 0, 0, kGateway, false, "address the HTTP server binds"},
    {"DQ_GATEWAY_PORT", "8080", true, 0, 65535, kGateway, false, "HTTP port (0: any free port)"},
    {"DQ_GATEWAY_THREADS", "8", true, 1, 256, kGateway, false, "HTTP worker threads"},
    {"DQ_GATEWAY_OPS_PORT", "9093", true, 0, 65535, kGateway, false,
     "HTTP port for /healthz, /readyz and /metrics in every role (probes; never public)"},
    {"DQ_TRUSTED_PROXIES", "", false, 0, 0, kGateway, false,
     "comma-separated IPs/CIDRs of proxies whose X-Forwarded-For names the client (empty: none)"},
    {"DQ_MAX_HEADER_BYTES", "16384", true, 1024, 1024 * 1024, kGateway, false,
     "largest request line plus headers; larger gets 431 headers_too_large"},
    {"DQ_UNAUTHENTICATED_BODY_BYTES", "65536", true, 0, 1024 * kMiB, kGateway, false,
     "a larger body is read only after its API key or session was accepted from the headers"},
    {"DQ_BODY_MEMORY_BYTES", "134217728", true, kMiB, 64LL * 1024 * kMiB, kGateway, false,
     "request-body bytes held in memory at once, all connections together (a chunked body "
     "counts twice: the HTTP library keeps two copies); past it 503 service_unavailable"},
    {"DQ_MAX_CONNECTIONS", "1024", true, 1, 1000000, kGateway, false,
     "open API connections in total; more get 503 and are closed"},
    {"DQ_MAX_CONNECTIONS_PER_ADDRESS", "64", true, 1, 1000000, kGateway, false,
     "open API connections per client address (trusted proxies exempt)"},
    {"DQ_MIN_BYTES_PER_SECOND", "1024", true, 0, 1024 * kMiB, kGateway, false,
     "a request slower than this on average, once past DQ_REQUEST_GRACE_MS, is cut (408)"},
    {"DQ_REQUEST_GRACE_MS", "10000", true, 100, 3600000, kGateway, false,
     "how long a request may take before the minimum data rate applies"},
    {"DQ_IDLE_TIMEOUT_MS", "60000", true, 100, 3600000, kGateway, false,
     "a connection with no request in progress, or whose streamed answer has not moved (its "
     "client reads nothing), is closed after this long"},
    {"DQ_DOWNLOAD_STALL_TIMEOUT_MS", "30000", true, 100, 3600000, kGateway, false,
     "a streamed answer (a cleaned file, the issues CSV) whose client has taken nothing for this "
     "long is cut, which frees what it holds (the lower of this and DQ_IDLE_TIMEOUT_MS applies)"},
    {"DQ_DOWNLOAD_MEMORY_BYTES", "134217728", true, kMiB, 64LL * 1024 * kMiB, kGateway, false,
     "bytes all streamed answers in progress may hold together (upload pieces being read, parts "
     "not yet written; gauge dq_gateway_download_held_bytes); past it, those stalled a second or "
     "more are cut, longest-stalled first, and a new download gets 503 service_unavailable"},
    {"DQ_VALIDATOR_ADDR", "127.0.0.1:50051", false, 0, 0, kGateway, false,
     "gRPC target of the validator (host:port or a gRPC URI such as dns:///validator:50051)"},
    {"DQ_VALIDATOR_TIMEOUT_MS", "10000", true, 10, 600000, kGateway, false,
     "deadline of every validator call; a POST /v1/validate call counts it from admission, "
     "queue wait included, at most 55000 (past it: 503)"},
    {"DQ_VALIDATOR_STREAM_DEADLINE_MS", "1800000", true, 1000, 86400000, kGateway, false,
     "deadline of one job's stream through the validator (a job that takes longer fails this "
     "attempt)"},
    {"DQ_VALIDATE_THREADS", "16", true, 1, 256, kGateway, false,
     "threads that wait for the validator on POST /v1/validate (HTTP threads never wait)"},
    {"DQ_VALIDATE_PER_ACCOUNT", "4", true, 1, 10000, kGateway, false,
     "POST /v1/validate calls one account may have in progress; one more gets 429 "
     "too_many_requests"},
    {"DQ_VALIDATE_QUEUE", "64", true, 0, 100000, kGateway, false,
     "POST /v1/validate calls that may wait for a thread; one more gets 503"},
    {"DQ_MAX_BODY_BYTES", "10485760", true, 1024, 1024 * kMiB, kGateway, false,
     "largest POST /v1/validate body; larger gets 413 payload_too_large"},
    {"DQ_MAX_RECORDS", "500", true, 1, 100000, kGateway, false,
     "most records per POST /v1/validate; more gets 400 too_many_records"},
    {"DQ_UPLOAD_MAX_BYTES", "52428800", true, 1024, 4096 * kMiB, kGateway, false,
     "largest upload; larger gets 413 file_too_large"},
    {"DQ_RATE_LIMIT_GENERAL", "60", true, 1, 1000000000, kGateway, false,
     "requests per UTC minute per account, general class"},
    {"DQ_RATE_LIMIT_UPLOAD", "10", true, 1, 1000000000, kGateway, false,
     "requests per UTC minute per account, upload class"},
    {"DQ_RATE_LIMIT_ANONYMOUS", "60", true, 1, 1000000000, kGateway, false,
     "requests per UTC minute per client address without a valid key"},
    {"DQ_RATE_LIMIT_WINDOW_SECONDS", "60", true, 1, 3600, kGateway, false,
     "length of the fixed rate-limit window; the API promises 60 (tests shorten it)"},
    {"DQ_RATE_LIMIT_REDIS_HOST", "", false, 0, 0, kGateway, false,
     "Redis for rate-limit counters only (empty: the main Redis); counters need no durability"},
    {"DQ_RATE_LIMIT_REDIS_PORT", "0", true, 0, 65535, kGateway, false,
     "its port (0: DQ_REDIS_PORT)"},
    {"DQ_RATE_LIMIT_ENABLED", "1", true, 0, 1, kGateway, false,
     "0 turns rate limiting and its headers off (benchmarks only)"},
    {"DQ_SHUTDOWN_GRACE_MS", "5000", true, 0, 600000, kGateway, false,
     "on SIGTERM, how long /readyz reports 503 and in-flight requests finish before the server "
     "stops"},
    {"DQ_QUOTA_PRO", "100000", true, 0, INT64_MAX, kGateway | kDqctl, false,
     "monthly records, pro plan"},
    {"DQ_QUOTA_BUSINESS", "1000000", true, 0, INT64_MAX, kGateway | kDqctl, false,
     "monthly records, business plan"},
    {"DQ_QUOTA_AGENCY", "10000000", true, 0, INT64_MAX, kGateway | kDqctl, false,
     "monthly records, agency plan"},
    {"DQ_QUOTA_FREE", "1000", true, 0, INT64_MAX, kGateway | kDqctl, false,
     "monthly records, free plan (console only: the free plan has no API access)"},
    // Console: accounts, sessions, sign-in (docs/api.md "Console API")
    {"DQ_ARGON2_TIME_COST", "2", true, 1, 100, kGateway, false,
     "argon2id passes over memory when hashing a password"},
    {"DQ_ARGON2_MEMORY_KIB", "19456", true, 8, 4194304, kGateway, false,
     "argon2id memory per password hash, in KiB (19 MiB: OWASP's minimum for argon2id)"},
    {"DQ_ARGON2_PARALLELISM", "1", true, 1, 16, kGateway, false, "argon2id lanes"},
    {"DQ_SESSION_IDLE_SECONDS", "43200", true, 1, 31536000, kGateway, false,
     "a console session unused this long ends (12 hours)"},
    {"DQ_SESSION_MAX_SECONDS", "604800", true, 1, 31536000, kGateway, false,
     "a console session ends this long after sign-in, used or not (7 days)"},
    {"DQ_LOGIN_MAX_FAILURES", "10", true, 1, 1000000, kGateway, false,
     "failed sign-ins per e-mail address, and per client address, before 429 too_many_requests"},
    {"DQ_LOGIN_FAILURE_WINDOW_SECONDS", "900", true, 1, 86400, kGateway, false,
     "the window those failures are counted in (15 minutes)"},
    {"DQ_CONSOLE_ALLOW_HTTP", "0", true, 0, 1, kGateway, false,
     "1: the session cookie is sent without Secure, so the console works over plain http "
     "(development only)"},
    {"DQ_HSTS", "0", true, 0, 1, kGateway, false,
     "1: every answer carries Strict-Transport-Security (the gateway is reached over https); it "
     "is also sent when a trusted proxy says X-Forwarded-Proto: https"},
    {"DQ_CONSOLE_BASE_URL", "", false, 0, 0, kGateway, false,
     "the console's public origin (https://dq.example.com), for links in mail; empty: the links "
     "are paths only"},
    {"DQ_MAIL_TRANSPORT", "log", false, 0, 0, kGateway, false,
     "how the console's mail leaves: log (written to the log) or file (one .eml per message in "
     "DQ_MAIL_DIR, for a relay)"},
    {"DQ_MAIL_DIR", "", false, 0, 0, kGateway, false, "where DQ_MAIL_TRANSPORT=file writes"},
    {"DQ_MAIL_FROM", "dq <no-reply@localhost>", false, 0, 0, kGateway, false,
     "the From of the console's mail"},
    {"DQ_SIGNUPS_PER_ADDRESS", "10", true, 1, 1000000, kGateway, false,
     "console sign-ups one client address may make per DQ_SIGNUP_WINDOW_SECONDS; more get 429"},
    {"DQ_SIGNUP_WINDOW_SECONDS", "3600", true, 1, 604800, kGateway, false,
     "the window of DQ_SIGNUPS_PER_ADDRESS, started by its first sign-up"},
    {"DQ_JOB_TTL_DAYS", "30", true, 1, 3650, kGateway, false, "days a job is kept"},
    {"DQ_KEPT_UPLOAD_MINUTES", "15", true, 1, 1440, kGateway, false,
     "minutes a preview keeps its upload for its Start (upload_id), so the file is sent once"},
    {"DQ_KEPT_UPLOADS_PER_ACCOUNT", "2", true, 1, 100, kGateway, false,
     "previewed uploads an account keeps at once; keeping one more drops the oldest"},
    {"DQ_WORKERS", "2", true, 0, 256, kGateway, false,
     "job worker threads in each gateway process of role worker or all (0: it takes no jobs)"},
    {"DQ_ROLE", "all", false, 0, 0, kGateway, false,
     "api (HTTP API only, no job workers), worker (job workers and the ops port only) or all"},
    {"DQ_QUEUE_METRICS_INTERVAL_MS", "5000", true, 0, 3600000, kGateway, false,
     "how often the job queue's depth and oldest job's age are read for /metrics (0: never)"},
    {"DQ_JOB_CLAIM_IDLE_MS", "30000", true, 500, 3600000, kGateway, false,
     "a job whose worker has been silent this long is taken over by another worker"},
    {"DQ_JOB_MAX_STORED_ISSUES", "100000", true, 1, 100000000, kGateway, false,
     "issues stored per job; past it counters and the summary stay exact and the job detail "
     "says issues_truncated"},
    {"DQ_ACCOUNT_MAX_STORED_BYTES", "0", true, 0, INT64_MAX, kGateway, false,
     "a ceiling on every plan's storage ceiling (DQ_STORAGE_*_BYTES), for a small install "
     "(0: the plans' ceilings alone)"},
    {"DQ_STORAGE_FREE_BYTES", "52428800", true, 0, INT64_MAX, kGateway, false,
     "bytes of job data (uploads, issues, fixes, cleaned files) an account on the free plan may "
     "store (50 MiB): with the artifact store the upload counts as its compressed objects (an "
     "upload is reserved at its size first), issues and fixes at their size; past it uploads "
     "answer 429 storage_limit_exceeded (0: no ceiling)"},
    {"DQ_STORAGE_PRO_BYTES", "2147483648", true, 0, INT64_MAX, kGateway, false,
     "bytes of job data a pro account may store (2 GiB; 0: no ceiling)"},
    {"DQ_STORAGE_BUSINESS_BYTES", "10737418240", true, 0, INT64_MAX, kGateway, false,
     "bytes of job data a business account may store (10 GiB; 0: no ceiling)"},
    {"DQ_STORAGE_AGENCY_BYTES", "53687091200", true, 0, INT64_MAX, kGateway, false,
     "bytes of job data an agency account may store (50 GiB; 0: no ceiling)"},
    // Job files: the artifact store (docs/deploy.md, "Job files"; S3 credentials come from the
    // environment as AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN)
    {"DQ_ARTIFACT_SWEEP_INTERVAL_SECONDS", "3600", true, 1, 604800, kGateway, false,
     "how often one worker (a lease in Redis picks it) deletes orphaned job objects from the "
     "artifact store"},
    {"DQ_ARTIFACT_SWEEP_GRACE_SECONDS", "3600", true, 0, 604800, kGateway, false,
     "the sweep leaves objects younger than this alone (an upload being stored, an attempt "
     "between a write and its commit); keep it above the longest job"},
    {"DQ_ARTIFACT_STORE", "fs", false, 0, 0, kGateway, false,
     "where job files (uploads, issues, fixes, cleaned workbooks) are kept: fs (a directory), s3 "
     "(an S3-compatible service), or redis (in Redis, as before the store; for a deployment "
     "whose processes share no directory and that has no S3 service yet)"},
    {"DQ_ARTIFACT_DIR", "/var/lib/dq/artifacts", false, 0, 0, kGateway, false,
     "the fs store's directory, an absolute path shared by the gateway and its workers (one "
     "host only; several hosts use s3)"},
    {"DQ_S3_ENDPOINT", "", false, 0, 0, kGateway, false,
     "the s3 store's endpoint, http(s)://host[:port]; requests are path-style "
     "(<endpoint>/<bucket>/<key>)"},
    {"DQ_S3_BUCKET", "", false, 0, 0, kGateway, false,
     "the s3 store's bucket (it must exist; give it a lifecycle rule, docs/deploy.md)"},
    {"DQ_S3_REGION", "us-east-1", false, 0, 0, kGateway, false,
     "the region requests are signed for (AWS: the bucket's region; most other services accept "
     "us-east-1)"},
    {"DQ_S3_PART_BYTES", "8388608", true, 5 * kMiB, 1024 * kMiB, kGateway, false,
     "objects larger than this go up as a multipart upload in parts of this size; each writer "
     "holds one part in memory"},
    {"DQ_S3_MAX_ATTEMPTS", "5", true, 1, 20, kGateway, false,
     "tries of one S3 request (network errors, 5xx, 429, SlowDown), with exponential backoff "
     "and jitter"},
    {"DQ_CONSOLE_DIR", "/usr/share/dq/console", false, 0, 0, kGateway, false,
     "the web console's folder (pages/ and static/); missing: /console/ is not served"},
    {"DQ_CONSOLE_VENDOR_DIR", "/usr/share/javascript", false, 0, 0, kGateway, false,
     "where Debian's libjs-bootstrap5 and libjs-chart.js put their files"},
    // Validator
    {"DQ_VALIDATOR_BIND", "0.0.0.0", false, 0, 0, kValidator, false, "address the gRPC server binds"},
    {"DQ_VALIDATOR_PORT", "50051", true, 0, 65535, kValidator, false, "gRPC port"},
    {"DQ_VALIDATOR_THREADS", "0", true, 0, 256, kValidator, false,
     "most threads serving calls (0: gRPC's default)"},
    {"DQ_VALIDATOR_EVAL_THREADS", "0", true, 0, 256, kValidator, false,
     "threads that evaluate the rows of streamed chunks, shared by all streams (0: every CPU the "
     "process may use, capped by its cgroup CPU limit)"},
    {"DQ_VALIDATOR_OPS_PORT", "9090", true, 0, 65535, kValidator, false,
     "HTTP port for /healthz, /readyz and /metrics"},
    // Notifier
    {"DQ_NOTIFIER_PORT", "9091", true, 0, 65535, kNotifier, false,
     "HTTP port for /healthz, /readyz and /metrics"},
    {"DQ_NOTIFIER_GRPC_PORT", "9092", true, 0, 65535, kNotifier, false,
     "gRPC port with the standard health service (for native gRPC probes)"},
    {"DQ_NOTIFIER_BIND", "0.0.0.0", false, 0, 0, kNotifier, false, "address the HTTP port binds"},
    {"DQ_NOTIFIER_WORKERS", "8", true, 1, 256, kNotifier, false,
     "delivery threads (one connection cache each)"},
    {"DQ_NOTIFIER_BATCH", "16", true, 1, 1000, kNotifier, false,
     "stream entries read per XREADGROUP"},
    {"DQ_WEBHOOK_TIMEOUT_MS", "10000", true, 50, 120000, kNotifier | kGateway, false,
     "whole-request timeout of one webhook POST"},
    {"DQ_WEBHOOK_CONNECT_TIMEOUT_MS", "2000", true, 50, 60000, kNotifier, false,
     "time allowed to connect to a webhook receiver (at most DQ_WEBHOOK_TIMEOUT_MS)"},
    {"DQ_NOTIFIER_PER_ACCOUNT", "2", true, 1, 1000, kNotifier, false,
     "webhook attempts one account may have in flight per notifier; more wait on the schedule"},
    {"DQ_NOTIFIER_PER_HOST", "4", true, 1, 1000, kNotifier, false,
     "webhook attempts one destination (host:port) may have in flight per notifier"},
    {"DQ_WEBHOOK_BREAKER_FAILURES", "3", true, 1, 1000, kNotifier, false,
     "attempts in a row without an answer (timeout, no connection) after which a destination's "
     "attempts fail at once for a cooldown"},
    {"DQ_WEBHOOK_BREAKER_COOLDOWN_MS", "30000", true, 100, 3600000, kNotifier, false,
     "the first cooldown of an open breaker; doubled after each failed probe, at most 10 minutes"},
    {"DQ_NOTIFIER_CLAIM_IDLE_MS", "120000", true, 100, 86400000, kNotifier, false,
     "pending events idle this long are reclaimed from their (dead) consumer"},
    {"DQ_NOTIFIER_POLL_MS", "250", true, 10, 60000, kNotifier, false,
     "how often due retries and stale events are polled"},
    {"DQ_WEBHOOK_RETRY_BASE_MS", "30000", true, 1, 86400000, kNotifier | kGateway, false,
     "first retry delay (doubles each time)"},
    {"DQ_WEBHOOK_RETRY_MAX_DELAY_MS", "21600000", true, 1, 7LL * 86400000, kNotifier | kGateway, false,
     "longest delay between two attempts"},
    {"DQ_WEBHOOK_RETRY_TOTAL_MS", "259200000", true, 1, 30LL * 86400000, kNotifier | kGateway, false,
     "retry schedule length; then dead letter"},
    {"DQ_WEBHOOK_SECRET_OVERLAP_S", "86400", true, 0, 30LL * 86400, kGateway, false,
     "after a secret is rolled, how long the old secret keeps signing beside the new one "
     "(seconds; 0: it stops at once)"},
    {"DQ_WEBHOOK_ALLOW_HTTP", "0", true, 0, 1, kNotifier | kGateway | kDqctl, false,
     "1: allow http:// webhook URLs (development)"},
    {"DQ_WEBHOOK_ALLOW_PRIVATE", "0", true, 0, 1, kNotifier | kGateway | kDqctl, false,
     "1: allow webhook targets on private, loopback or link-local addresses (development)"},
};

const SettingSpec* Find(std::string_view name) {
  for (const auto& s : kSettings) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

bool ParseInt(const std::string& text, int64_t* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

}  // namespace

std::span<const SettingSpec> AllSettings() { return kSettings; }

Result<Settings> Settings::Load(Component component,
                                const std::map<std::string, std::string>& env) {
  Settings s;
  for (const auto& [name, value] : env) {
    if (name.rfind("DQ_", 0) != 0) continue;
    if (Find(name) == nullptr) {
      return Status(ErrorCode::kInvalidRequest,
                    "unknown setting " + name + " (see docs/configuration.md)");
    }
  }
  for (const auto& spec : kSettings) {
    if ((spec.components & component) == 0) continue;
    std::string value(spec.default_value);
    if (auto it = env.find(std::string(spec.name)); it != env.end()) value = it->second;
    if (spec.is_integer) {
      int64_t v = 0;
      if (!ParseInt(value, &v) || v < spec.min || v > spec.max) {
        return Status(ErrorCode::kInvalidRequest,
                      std::string(spec.name) + "=" + value + " is not an integer in [" +
                          std::to_string(spec.min) + ", " + std::to_string(spec.max) + "]");
      }
    }
    s.values_.emplace(spec.name, value);
    s.secret_.emplace(spec.name, spec.secret);
  }
  return s;
}

Result<Settings> Settings::FromEnvironment(Component component) {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq == nullptr) continue;
    env.emplace(std::string(*e, static_cast<size_t>(eq - *e)), std::string(eq + 1));
  }
  return Load(component, env);
}

int64_t Settings::Int(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) std::abort();  // the component did not declare it: a bug
  int64_t v = 0;
  ParseInt(it->second, &v);
  return v;
}

const std::string& Settings::String(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) std::abort();
  return it->second;
}

std::string Settings::Describe() const {
  std::ostringstream out;
  bool first = true;
  for (const auto& [name, value] : values_) {
    if (!first) out << ' ';
    first = false;
    out << name << '=' << (secret_.at(name) && !value.empty() ? "***" : value);
  }
  return out.str();
}

}  // namespace dq
