#include "progress.h"

#include <string>

namespace dq::offline {

void ProgressMeter::Update(uint64_t done, uint64_t total) {
  if (!terminal_ || total < kMinRows) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && done < total && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  const uint64_t percent = total == 0 ? 100 : done * 100 / total;
  err_ << "\r\033[Kchecking " << done << " of " << total << " rows (" << percent << "%)"
       << std::flush;
}

void ProgressMeter::Finish() {
  if (!shown_) return;
  err_ << "\r\033[K" << std::flush;
  shown_ = false;
}

}  // namespace dq::offline
