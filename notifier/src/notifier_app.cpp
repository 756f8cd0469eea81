#include "notifier_app.h"

#include <unistd.h>

#include <random>

#include "dq/webhook/curl_http_sender.h"
#include "dq/common/log.h"
#include "dq/common/metrics.h"

namespace dq::notifier {
namespace {

constexpr int kBlockMs = 1000;
constexpr int kRetryBatch = 4;
constexpr int kClaimBatch = 100;

CounterMetric& Reclaimed() {
  static auto& c = Metrics::Global().Counter("dq_notifier_reclaimed_total",
                                             "Events reclaimed from consumers that died");
  return c;
}

CounterMetric& Malformed() {
  static auto& c = Metrics::Global().Counter("dq_notifier_malformed_events_total",
                                             "Stream entries that were not valid events");
  return c;
}

}  // namespace

std::string ConsumerName() {
  char host[256] = {0};
  if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "unknown");
  return std::string(host) + "-" + std::to_string(getpid());
}

NotifierApp::NotifierApp(NotifierSettings settings) : settings_(std::move(settings)) {}

NotifierApp::~NotifierApp() { Shutdown(); }

std::unique_ptr<webhook::HttpSender> NotifierApp::NewSender() const {
  webhook::CurlSenderOptions o;
  o.timeout = std::chrono::milliseconds(settings_.timeout_ms);
  o.connect_timeout = std::chrono::milliseconds(std::min<int64_t>(settings_.timeout_ms, 5000));
  o.allow_http = settings_.allow_http;
  o.allow_private = settings_.allow_private;
  return std::make_unique<webhook::CurlHttpSender>(o);
}

Status NotifierApp::Start() {
  LogRedisMode(settings_.redis);
  redis_ = std::make_unique<RedisClient>(settings_.redis);
  RedisOptions blocking = settings_.redis;
  blocking.timeout = std::chrono::milliseconds(kBlockMs) + settings_.redis.timeout +
                     std::chrono::milliseconds(2000);
  blocking.pool_size = static_cast<size_t>(settings_.workers);
  blocking_redis_ = std::make_unique<RedisClient>(blocking);
  accounts_ = std::make_unique<RedisAccountStore>(*redis_, SystemClock::Instance());
  store_ = std::make_unique<webhook::RedisDeliveryLog>(*redis_);
  random_ = std::make_unique<webhook::MtRandomSource>(std::random_device{}());
  policy_ = std::make_unique<webhook::RetryPolicy>(settings_.schedule, *random_);
  dispatcher_ = std::make_unique<webhook::Dispatcher>(
      [this](std::string_view account) { return accounts_->GetWebhook(account); }, *store_,
      *policy_, SystemClock::Instance(),
      webhook::UrlPolicy{settings_.allow_http, settings_.allow_private});
  stream_ = std::make_unique<RedisEventStream>(*redis_, *blocking_redis_, ConsumerName());

  health_ = std::make_unique<OpsHttpServer>(settings_.bind, settings_.port,
                                           [this] { return redis_->Ping(); });
  if (Status s = health_->Start(); !s.ok()) return s;
  grpc_health_ = std::make_unique<GrpcHealthServer>(settings_.bind, settings_.grpc_port,
                                                    [this] { return redis_->Ping(); });
  if (Status s = grpc_health_->Start(); !s.ok()) return s;

  if (stream_->EnsureGroup().ok()) group_ready_ = true;
  for (int i = 0; i < settings_.workers; ++i) threads_.emplace_back([this] { WorkerLoop(); });
  const int retry_threads = std::max(1, settings_.workers / 4);
  for (int i = 0; i < retry_threads; ++i) threads_.emplace_back([this] { RetryLoop(); });
  threads_.emplace_back([this] { ReclaimLoop(); });
  log::Info("notifier started", {{"port", std::to_string(health_->port())},
                                 {"consumer", stream_->consumer()},
                                 {"workers", std::to_string(settings_.workers)}});
  return Status::Ok();
}

void NotifierApp::Shutdown() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
  if (grpc_health_) grpc_health_->Shutdown();
  if (health_) health_->Shutdown();
}

bool NotifierApp::Pause(int64_t ms) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stop_.load(); });
  return !stop_;
}

void NotifierApp::HandleEntry(const StreamEntry& entry, webhook::HttpSender& sender) {
  auto event = webhook::EventFromStreamFields(entry.fields);
  if (!event.ok()) {
    // Nothing can ever deliver it; keeping it pending would only make it come back forever.
    Malformed().Inc();
    log::Error("malformed event dropped", {{"id", entry.id}, {"error", event.status().message()}});
    stream_->Ack(entry.id);
    return;
  }
  auto outcome = dispatcher_->Handle(*event, "", sender);
  if (!outcome.ok()) {
    log::Warn("delivery outcome not stored; the event stays pending",
              {{"id", entry.id}, {"error", outcome.status().message()}});
    return;
  }
  if (Status s = stream_->Ack(entry.id); !s.ok()) {
    log::Warn("XACK failed; the event may be delivered again",
              {{"id", entry.id}, {"error", s.message()}});
  }
}

void NotifierApp::WorkerLoop() {
  auto sender = NewSender();
  while (!stop_) {
    if (!group_ready_) {
      if (!stream_->EnsureGroup().ok()) {
        Pause(500);
        continue;
      }
      group_ready_ = true;
    }
    auto entries = stream_->ReadNew(settings_.batch, kBlockMs);
    if (!entries.ok()) {
      // NOGROUP after a Redis that lost its data, or Redis down: recreate, back off.
      log::Warn("reading the event stream failed", {{"error", entries.status().message()}});
      group_ready_ = false;
      Pause(500);
      continue;
    }
    for (const auto& entry : *entries) HandleEntry(entry, *sender);
  }
}

void NotifierApp::RetryLoop() {
  auto sender = NewSender();
  const int64_t lease_ms = settings_.timeout_ms * kRetryBatch + 30'000;
  while (!stop_) {
    const int64_t now = UnixMillis(SystemClock::Instance().Now());
    auto claimed = store_->ClaimDueRetries(now, lease_ms, kRetryBatch);
    if (!claimed.ok()) {
      log::Warn("reading the retry schedule failed", {{"error", claimed.status().message()}});
      Pause(settings_.poll_ms);
      continue;
    }
    for (const auto& c : *claimed) {
      auto outcome = dispatcher_->Handle(c.event, c.member, *sender);
      if (!outcome.ok()) {
        log::Warn("retry outcome not stored; it comes back when its lease ends",
                  {{"delivery_id", c.event.delivery_id}, {"error", outcome.status().message()}});
      }
    }
    if (static_cast<int>(claimed->size()) < kRetryBatch) Pause(settings_.poll_ms);
  }
}

void NotifierApp::ReclaimLoop() {
  auto sender = NewSender();
  std::string cursor = "0-0";
  const int64_t interval = std::max<int64_t>(settings_.poll_ms, settings_.claim_idle_ms / 4);
  while (Pause(cursor == "0-0" ? interval : 0)) {
    if (!group_ready_) continue;
    auto page = stream_->Claim(cursor, settings_.claim_idle_ms, kClaimBatch);
    if (!page.ok()) {
      cursor = "0-0";
      continue;
    }
    cursor = page->next_cursor.empty() ? "0-0" : page->next_cursor;
    for (const auto& id : page->deleted_ids) {
      log::Error("pending event was trimmed from the stream before delivery", {{"id", id}});
    }
    for (const auto& entry : page->entries) {
      Reclaimed().Inc();
      HandleEntry(entry, *sender);
      if (stop_) break;
    }
  }
}

}  // namespace dq::notifier
