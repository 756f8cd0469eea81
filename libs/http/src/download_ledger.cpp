#include "dq/http/download_ledger.h"

#include <algorithm>

namespace dq::http {

void DownloadLedger::SetHeldLocked(Entry& e, size_t bytes) {
  held_ = held_ - e.held + bytes;
  if (gauge_) gauge_->Add(static_cast<int64_t>(bytes) - static_cast<int64_t>(e.held));
  e.held = bytes;
}

std::optional<uint64_t> DownloadLedger::Open(int64_t now_ms, size_t held_bytes, Cut cut) {
  std::lock_guard lock(mu_);
  if (held_ >= limits_.memory_bytes) return std::nullopt;
  const uint64_t id = next_id_++;
  Entry& e = entries_.emplace(id, Entry{0, now_ms, std::move(cut)}).first->second;
  SetHeldLocked(e, held_bytes);
  return id;
}

void DownloadLedger::Update(uint64_t id, size_t held_bytes, std::optional<int64_t> progressed_ms) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  SetHeldLocked(it->second, held_bytes);
  if (progressed_ms) it->second.since_ms = std::max(it->second.since_ms, *progressed_ms);
}

void DownloadLedger::Close(uint64_t id) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  SetHeldLocked(it->second, 0);
  entries_.erase(it);
}

std::vector<DownloadLedger::Cut> DownloadLedger::Sweep(int64_t now_ms) {
  std::lock_guard lock(mu_);
  std::vector<Cut> cuts;
  size_t kept = 0;  // what the downloads not cut hold
  std::vector<std::pair<int64_t, Entry*>> stalled;  // (since, entry), candidates under pressure
  for (auto& [id, e] : entries_) {
    if (!e.cut) continue;  // already cut: its memory goes when it is closed
    const int64_t idle = now_ms - e.since_ms;
    if (idle > limits_.stall_timeout.count()) {
      cuts.push_back(std::move(e.cut));
      e.cut = nullptr;
      continue;
    }
    kept += e.held;
    if (idle >= limits_.pressure_grace.count()) stalled.emplace_back(e.since_ms, &e);
  }
  if (kept > limits_.memory_bytes) {
    std::sort(stalled.begin(), stalled.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [since, e] : stalled) {
      if (kept <= limits_.memory_bytes) break;
      kept -= e->held;
      cuts.push_back(std::move(e->cut));
      e->cut = nullptr;
    }
  }
  return cuts;
}

bool DownloadLedger::Full() const {
  std::lock_guard lock(mu_);
  return held_ >= limits_.memory_bytes;
}

size_t DownloadLedger::held() const {
  std::lock_guard lock(mu_);
  return held_;
}

size_t DownloadLedger::open() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

}  // namespace dq::http
