#include "upload_handoff.h"

namespace dq::gateway {

void UploadHandoff::DropAgedLocked() {
  const auto now = clock_.Now();
  while (!entries_.empty() && now - entries_.front().kept_at > max_age_) {
    bytes_ -= entries_.front().bytes;
    entries_.pop_front();
  }
}

bool UploadHandoff::Keep(const std::string& account_id, const std::string& job_id,
                         std::vector<std::string> pieces) {
  size_t bytes = 0;
  for (const auto& p : pieces) bytes += p.size();
  if (bytes > max_bytes_ || pieces.empty()) return false;
  Entry e{account_id, job_id, clock_.Now(), {}, bytes};
  e.pieces.reserve(pieces.size());
  for (auto& p : pieces) e.pieces.emplace_back(std::move(p));
  std::lock_guard lock(mu_);
  DropAgedLocked();
  while (!entries_.empty() && bytes_ + bytes > max_bytes_) {
    bytes_ -= entries_.front().bytes;
    entries_.pop_front();
  }
  bytes_ += bytes;
  entries_.push_back(std::move(e));
  return true;
}

std::optional<std::string> UploadHandoff::Take(const std::string& account_id,
                                               const std::string& job_id, int64_t index) {
  std::lock_guard lock(mu_);
  DropAgedLocked();
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->account_id != account_id || it->job_id != job_id) continue;
    if (index < 0 || static_cast<size_t>(index) >= it->pieces.size()) return std::nullopt;
    std::optional<std::string>& piece = it->pieces[static_cast<size_t>(index)];
    if (!piece) return std::nullopt;
    std::optional<std::string> out = std::move(piece);
    piece.reset();
    it->bytes -= out->size();
    bytes_ -= out->size();
    if (it->bytes == 0) entries_.erase(it);
    return out;
  }
  return std::nullopt;
}

size_t UploadHandoff::bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

}  // namespace dq::gateway
