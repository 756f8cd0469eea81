#include "batch_state.h"

namespace dq::validator {

uint64_t KeyHash(std::string_view key) { return std::hash<std::string_view>{}(key); }

std::optional<uint64_t> FirstSeen::InsertHash(uint64_t hash, uint64_t row) {
  if ((size_ + 1) * 2 > capacity_) Grow();
  const size_t mask = capacity_ - 1;
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
  const size_t old_capacity = capacity_;
  ZeroedBlock old = std::move(block_);
  const Slot* old_slots = slots_;
  capacity_ = old_capacity == 0 ? 1024 : old_capacity * 2;
  block_ = ZeroedBlock(capacity_ * sizeof(Slot));
  slots_ = static_cast<Slot*>(block_.data());
  const size_t mask = capacity_ - 1;
  for (size_t k = 0; k < old_capacity; ++k) {
    const Slot& s = old_slots[k];
    if (s.row == 0) continue;
    size_t i = s.hash & mask;
    while (slots_[i].row != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace dq::validator
