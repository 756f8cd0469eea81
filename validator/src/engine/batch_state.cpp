#include "batch_state.h"

namespace dq::validator {

uint64_t KeyHash(std::string_view key) { return std::hash<std::string_view>{}(key); }

std::optional<uint64_t> FirstSeen::InsertHash(uint64_t hash, uint64_t row) {
  if ((size_ + 1) * 2 > slots_.size()) Grow();
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.row == 0) {
      s.hash = hash;
      s.row = row;
      ++size_;
      return std::nullopt;
    }
    if (s.hash == hash) return s.row;
  }
}

void FirstSeen::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
  const size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.row == 0) continue;
    size_t i = s.hash & mask;
    while (slots_[i].row != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace dq::validator
