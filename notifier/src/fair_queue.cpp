#include "fair_queue.h"

#include <algorithm>

namespace dq::notifier {

namespace {
// Lines kept for accounts with nothing in hand, for their attempts' average; past this many the
// idle ones are forgotten.
constexpr size_t kMaxIdleLines = 10'000;
}  // namespace

size_t FairQueue::Backlog(const Line& line) const {
  if (line.attempt_ms <= 0) return MinBacklog();
  const double per_attempt = std::max(line.attempt_ms, 1.0);
  const double fits = static_cast<double>(o_.wait_budget_ms) / per_attempt *
                      static_cast<double>(std::max(1, o_.per_account));
  return std::clamp(static_cast<size_t>(fits), MinBacklog(), std::max(MinBacklog(), o_.max_backlog));
}

void FairQueue::MaybeReady(const std::string& account, Line& line) {
  if (!line.ready && !line.items.empty() && line.in_flight < o_.per_account) {
    line.ready = true;
    ready_.push_back(account);
    work_.notify_one();
  }
}

FairQueue::Push FairQueue::Add(WorkItem& item) {
  std::lock_guard lock(mu_);
  if (size_ >= o_.capacity) return Push::kFull;
  const std::string account = item.event.account_id;
  Line& line = lines_[account];
  if (line.items.size() >= Backlog(line)) return Push::kAccountFull;
  line.items.push_back(std::move(item));
  ++size_;
  MaybeReady(account, line);
  return Push::kQueued;
}

std::optional<WorkItem> FairQueue::Take() {
  std::unique_lock lock(mu_);
  work_.wait(lock, [this] { return stopped_ || !ready_.empty(); });
  if (stopped_) return std::nullopt;
  const std::string account = std::move(ready_.front());
  ready_.pop_front();
  Line& line = lines_[account];
  line.ready = false;
  if (line.items.size() == Backlog(line) / 2 + 1) {  // has room for a claim once this one goes
    ++room_epoch_;
    room_.notify_all();
  }
  WorkItem item = std::move(line.items.front());
  line.items.pop_front();
  --size_;
  ++line.in_flight;
  MaybeReady(account, line);  // its next item waits its turn behind the other accounts
  space_.notify_one();
  return item;
}

void FairQueue::Done(const std::string& account, int64_t attempt_ms) {
  std::lock_guard lock(mu_);
  auto it = lines_.find(account);
  if (it == lines_.end()) return;
  Line& line = it->second;
  if (line.in_flight > 0) --line.in_flight;
  const double ms = static_cast<double>(std::max<int64_t>(attempt_ms, 0));
  line.attempt_ms = line.attempt_ms <= 0 ? std::max(ms, 0.001) : 0.8 * line.attempt_ms + 0.2 * ms;
  if (line.items.empty() && line.in_flight == 0 && lines_.size() > kMaxIdleLines) {
    lines_.erase(it);
    return;
  }
  MaybeReady(account, line);
}

size_t FairQueue::Space() const {
  std::lock_guard lock(mu_);
  return stopped_ || size_ >= o_.capacity ? 0 : o_.capacity - size_;
}

bool FairQueue::WaitForSpace() {
  std::unique_lock lock(mu_);
  space_.wait(lock, [this] { return stopped_ || size_ < o_.capacity; });
  return !stopped_;
}

std::vector<std::pair<std::string, int>> FairQueue::ClaimRooms() const {
  std::lock_guard lock(mu_);
  std::vector<std::pair<std::string, int>> out;
  for (const auto& [account, line] : lines_) {
    const size_t backlog = Backlog(line);
    // A line more than half full takes nothing until it is half empty, so claims come in
    // batches rather than one item at a time.
    const int room = line.items.size() > backlog / 2
                         ? 0
                         : static_cast<int>(backlog - line.items.size());
    if (room != static_cast<int>(MinBacklog())) out.emplace_back(account, room);
  }
  return out;
}

bool FairQueue::WaitForRoom(int64_t ms) {
  std::unique_lock lock(mu_);
  const uint64_t seen = room_epoch_;
  room_.wait_for(lock, std::chrono::milliseconds(ms),
                 [&] { return stopped_ || room_epoch_ != seen; });
  return !stopped_;
}

void FairQueue::Stop() {
  {
    std::lock_guard lock(mu_);
    stopped_ = true;
  }
  work_.notify_all();
  space_.notify_all();
  room_.notify_all();
}

size_t FairQueue::size() const {
  std::lock_guard lock(mu_);
  return size_;
}

int FairQueue::InFlight(const std::string& account) const {
  std::lock_guard lock(mu_);
  auto it = lines_.find(account);
  return it == lines_.end() ? 0 : it->second.in_flight;
}

size_t FairQueue::BacklogOf(const std::string& account) const {
  std::lock_guard lock(mu_);
  auto it = lines_.find(account);
  return it == lines_.end() ? MinBacklog() : Backlog(it->second);
}

}  // namespace dq::notifier
