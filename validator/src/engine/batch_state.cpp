#include "batch_state.h"

namespace dq::validator {

uint64_t KeyHash(std::string_view key) { return std::hash<std::string_view>{}(key); }

std::optional<uint64_t> FirstSeen::InsertHash(uint64_t hash, uint64_t row) {
  if ((size_ + 1) * 2 > capacity()) Grow();
  Slot* const slots = this->slots();
  const size_t mask = capacity() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& s = slots[i];
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
  const size_t old_capacity = capacity();
  const ZeroedBlock old = std::move(block_);
  const auto* old_slots = static_cast<const Slot*>(old.data());
  block_ = ZeroedBlock((old_capacity == 0 ? 1024 : old_capacity * 2) * sizeof(Slot));
  Slot* const slots = this->slots();
  const size_t mask = capacity() - 1;
  for (size_t k = 0; k < old_capacity; ++k) {
    const Slot& s = old_slots[k];
    if (s.row == 0) continue;
    size_t i = s.hash & mask;
    while (slots[i].row != 0) i = (i + 1) & mask;
    slots[i] = s;
  }
}

std::optional<uint64_t> FirstOwner::Insert(uint64_t key, uint64_t row, uint32_t owner) {
  if (row > UINT32_MAX) return std::nullopt;
  if ((size_ + 1) * 2 > capacity()) Grow();
  Entry* const slots = this->slots();
  const size_t mask = capacity() - 1;
  for (size_t i = Slot(key, capacity());; i = (i + 1) & mask) {
    Entry& e = slots[i];
    if (e.row == 0) {
      e = Entry{key, static_cast<uint32_t>(row), owner};
      ++size_;
      return std::nullopt;
    }
    if (e.key == key) {
      if (e.owner == owner) return std::nullopt;
      return e.row;
    }
  }
}

void FirstOwner::Grow() {
  const size_t old_capacity = capacity();
  const ZeroedBlock old = std::move(block_);
  const auto* old_slots = static_cast<const Entry*>(old.data());
  block_ = ZeroedBlock((old_capacity == 0 ? 1024 : old_capacity * 2) * sizeof(Entry));
  Entry* const slots = this->slots();
  const size_t mask = capacity() - 1;
  for (size_t k = 0; k < old_capacity; ++k) {
    const Entry& e = old_slots[k];
    if (e.row == 0) continue;
    size_t i = Slot(e.key, capacity());
    while (slots[i].row != 0) i = (i + 1) & mask;
    slots[i] = e;
  }
}

}  // namespace dq::validator
