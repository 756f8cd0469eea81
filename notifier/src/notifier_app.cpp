#include "notifier_app.h"

#include <unistd.h>

#include <random>

#include "dq/webhook/curl_http_sender.h"
#include "dq/common/log.h"

namespace dq::notifier {
namespace {

constexpr int kBlockMs = 1000;
constexpr int kClaimBatch = 100;
// The retry claim looks this far down the due retries for accounts that may start an attempt.
constexpr int kRetryScan = 512;
// How long an item may expect to wait in its account's line (fair_queue.h). The retry lease
// adds it to an attempt's time; DQ_NOTIFIER_CLAIM_IDLE_MS must exceed it.
constexpr int64_t kWaitBudgetMs = 10'000;

}  // namespace

std::string ConsumerName() {
  char host[256] = {0};
  if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "unknown");
  return std::string(host) + "-" + std::to_string(getpid());
}

NotifierApp::NotifierApp(NotifierSettings settings, NotifierMetrics& metrics)
    : settings_(std::move(settings)), metrics_(metrics) {}

NotifierApp::~NotifierApp() { Shutdown(); }

std::unique_ptr<webhook::HttpSender> NotifierApp::NewSender() const {
  webhook::CurlSenderOptions o;
  o.timeout = std::chrono::milliseconds(settings_.timeout_ms);
  o.connect_timeout = std::chrono::milliseconds(
      std::min<int64_t>(settings_.timeout_ms, settings_.connect_timeout_ms));
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
  gate_ = std::make_unique<webhook::FairGate>(settings_.fairness);
  if (settings_.fairness.per_host >= settings_.workers) {
    log::Warn("one destination may hold every delivery thread: keep DQ_NOTIFIER_PER_HOST below "
              "DQ_NOTIFIER_WORKERS",
              {{"per_host", std::to_string(settings_.fairness.per_host)},
               {"workers", std::to_string(settings_.workers)}});
  }
  // A deferred attempt comes back after about one poll, or sooner than an attempt's end.
  const int64_t defer_ms = std::max<int64_t>(settings_.poll_ms * 2, 200);
  // A delivery's send lease outlives any one POST (the timeout) by a margin; it matters only when
  // a process dies mid-POST.
  const int64_t send_lease_ms = settings_.timeout_ms + 5'000;
  dispatcher_ = std::make_unique<webhook::Dispatcher>(
      [this](std::string_view account) { return accounts_->GetWebhook(account); }, *store_,
      *policy_, SystemClock::Instance(),
      webhook::UrlPolicy{settings_.allow_http, settings_.allow_private}, gate_.get(), defer_ms,
      send_lease_ms);
  stream_ = std::make_unique<RedisEventStream>(*redis_, *blocking_redis_, ConsumerName());
  FairQueueOptions qo;
  qo.capacity = static_cast<size_t>(settings_.workers) * 64;
  qo.per_account = settings_.fairness.per_account;
  qo.wait_budget_ms = kWaitBudgetMs;
  work_ = std::make_unique<FairQueue>(qo);

  health_ = std::make_unique<OpsHttpServer>(settings_.bind, settings_.port,
                                           [this] { return redis_->Ping(); });
  if (Status s = health_->Start(); !s.ok()) return s;
  grpc_health_ = std::make_unique<GrpcHealthServer>(settings_.bind, settings_.grpc_port,
                                                    [this] { return redis_->Ping(); });
  if (Status s = grpc_health_->Start(); !s.ok()) return s;

  if (stream_->EnsureGroup().ok()) group_ready_ = true;
  for (int i = 0; i < settings_.workers; ++i) threads_.emplace_back([this] { DeliveryLoop(); });
  threads_.emplace_back([this] { ReaderLoop(); });
  threads_.emplace_back([this] { RetryLoop(); });
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
  if (work_) work_->Stop();
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

void NotifierApp::Enqueue(const StreamEntry& entry) {
  auto event = webhook::EventFromStreamFields(entry.fields);
  if (!event.ok()) {
    // Nothing can ever deliver it; keeping it pending would only make it come back forever.
    metrics_.malformed_events.Inc();
    log::Error("malformed event dropped", {{"id", entry.id}, {"error", event.status().message()}});
    IgnoreError(stream_->Ack(entry.id),
                "unacknowledged, it is reclaimed, found malformed and dropped again");
    return;
  }
  WorkItem item;
  item.kind = WorkItem::Kind::kStreamEntry;
  item.entry_id = entry.id;
  item.event = std::move(*event);
  if (work_->Add(item) == FairQueue::Push::kQueued) return;
  // The account has a backlog in hand already (or there is no room at all): the event goes on
  // the retry schedule, due now, unchanged, and leaves the stream, so the stream keeps moving
  // for everybody else. The claim takes it when the account has room.
  const int64_t now = UnixMillis(SystemClock::Instance().Now());
  if (Status s = store_->ScheduleRetry(item.event, now, ""); !s.ok()) {
    log::Warn("could not put an event aside; it stays pending",
              {{"id", entry.id}, {"error", s.message()}});
    return;
  }
  metrics_.set_aside.Inc();
  if (Status s = stream_->Ack(entry.id); !s.ok()) {
    log::Warn("XACK failed; the event may be delivered again",
              {{"id", entry.id}, {"error", s.message()}});
  }
}

void NotifierApp::Deliver(const WorkItem& item, webhook::HttpSender& sender) {
  const bool from_stream = item.kind == WorkItem::Kind::kStreamEntry;
  auto outcome = dispatcher_->Handle(item.event, from_stream ? "" : item.member, sender);
  if (!outcome.ok()) {
    log::Warn(from_stream ? "delivery outcome not stored; the event stays pending"
                          : "retry outcome not stored; it comes back when its lease ends",
              {{"delivery_id", item.event.delivery_id}, {"error", outcome.status().message()}});
    return;
  }
  if (!from_stream) return;
  if (Status s = stream_->Ack(item.entry_id); !s.ok()) {
    log::Warn("XACK failed; the event may be delivered again",
              {{"id", item.entry_id}, {"error", s.message()}});
  }
}

void NotifierApp::DeliveryLoop() {
  auto sender = NewSender();
  while (auto item = work_->Take()) {
    const auto start = std::chrono::steady_clock::now();
    Deliver(*item, *sender);
    work_->Done(item->event.account_id,
                std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count());
  }
}

void NotifierApp::ReaderLoop() {
  while (!stop_) {
    if (!group_ready_) {
      if (!stream_->EnsureGroup().ok()) {
        Pause(500);
        continue;
      }
      group_ready_ = true;
    }
    // Take only what can be queued; the rest stays in the stream (for this or another replica).
    if (!work_->WaitForSpace()) break;
    const int room = static_cast<int>(std::min<size_t>(work_->Space(), settings_.batch));
    auto entries = stream_->ReadNew(std::max(room, 1), kBlockMs);
    if (!entries.ok()) {
      // NOGROUP after a Redis that lost its data, or Redis down: recreate, back off.
      log::Warn("reading the event stream failed", {{"error", entries.status().message()}});
      group_ready_ = false;
      Pause(500);
      continue;
    }
    for (const auto& entry : *entries) Enqueue(entry);
  }
}

void NotifierApp::RetryLoop() {
  // A claimed retry is ours until its lease ends: long enough for its wait in its line (about
  // kWaitBudgetMs, or 4 attempts of a slow receiver) and its own attempt, plus a margin.
  const int64_t lease_ms =
      std::max(kWaitBudgetMs, settings_.timeout_ms * 4) + settings_.timeout_ms + 5'000;
  while (!stop_) {
    const int room = static_cast<int>(work_->Space());
    if (room == 0) {
      Pause(settings_.poll_ms);
      continue;
    }
    // Accounts that cannot start an attempt now are left on the schedule; the others get what
    // their lines have room for.
    auto rooms = work_->ClaimRooms();
    for (auto& a : gate_->BusyAccounts()) rooms.emplace_back(std::move(a), 0);
    const int64_t now = UnixMillis(SystemClock::Instance().Now());
    auto claimed = store_->ClaimDueRetriesFairly(now, lease_ms, room, work_->DefaultRoom(), rooms,
                                                 kRetryScan);
    if (!claimed.ok()) {
      log::Warn("reading the retry schedule failed", {{"error", claimed.status().message()}});
      Pause(settings_.poll_ms);
      continue;
    }
    size_t queued = 0;
    for (auto& c : *claimed) {
      WorkItem item;
      item.kind = WorkItem::Kind::kRetry;
      item.member = std::move(c.member);
      item.event = std::move(c.event);
      if (work_->Add(item) == FairQueue::Push::kQueued) {
        ++queued;
        continue;
      }
      // Its account filled up meanwhile: back on the schedule, due at the next poll (if that
      // fails, it comes back when its lease ends).
      IgnoreError(store_->ScheduleRetry(item.event, now + settings_.poll_ms, item.member),
                  "said above: it comes back when its lease ends");
    }
    // Nothing to do now: until the next poll, or until a full backlog makes room.
    if (queued == 0 && !work_->WaitForRoom(settings_.poll_ms)) break;
  }
}

void NotifierApp::ReclaimLoop() {
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
      metrics_.reclaimed.Inc();
      Enqueue(entry);
      if (stop_) break;
    }
  }
}

}  // namespace dq::notifier
