// State that lives for one batch (one Validate call or one stream): what batch-level checks
// need to remember about earlier rows. Memory grows with the number of distinct keys and price
// samples (a few bytes a row), never with the text of the rows.
//
// Only the Session touches it, on one thread, applying the rows' KeyUses and PriceUses in row
// order (cross_row.h); rules never see it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "cross_row.h"
#include "dq/common/allocator.h"
#include "iso_date.h"
#include "price_outliers.h"

namespace dq::validator {

// Remembers the first row that used each key. Keys are stored as 64-bit hashes, so memory is
// 16 bytes a slot whatever the key length; two different keys sharing a hash (about 1 in 10^7
// for a million keys) would be reported as duplicates.
class FirstSeen {
 public:
  // The row that first used key, or nullopt (and key is recorded as first used by row).
  std::optional<uint64_t> Insert(std::string_view key, uint64_t row) {
    return InsertHash(KeyHash(key), row);
  }
  // The same for a key already hashed with KeyHash().
  std::optional<uint64_t> InsertHash(uint64_t hash, uint64_t row);
  // Starts loading the slot InsertHash(hash) will look at first. A table of a million keys is
  // far bigger than the caches; a merge that prefetches a few keys ahead waits for memory
  // once per several keys instead of once per key.
  void Prefetch(uint64_t hash) const {
    if (const size_t n = capacity(); n != 0) __builtin_prefetch(&slots()[hash & (n - 1)], 1);
  }
  size_t size() const { return size_; }

 private:
  void Grow();
  struct Slot {
    uint64_t hash;
    uint64_t row;  // 0: empty
  };
  // The slots live in a zero-filled block (all empty), on huge pages once the table is large:
  // it is probed at random places, a million keys are 32 MiB, and it grows by doubling into
  // fresh memory (common/allocator.h). Slots and capacity are read from the block itself, so a
  // moved-from table is simply empty.
  Slot* slots() const { return static_cast<Slot*>(block_.data()); }
  size_t capacity() const { return block_.size() / sizeof(Slot); }  // a power of two, or 0
  ZeroedBlock block_;
  size_t size_ = 0;
};

struct BatchState {
  // Indexed by KeySet: SKUs, e-mail addresses (lower-cased), phone numbers (E.164).
  FirstSeen keys[kKeySetCount];
  PriceOutliers prices;
  // Day/month order of the expiry_date column, learnt by Session::Observe (and AddRow).
  iso_date::DateOrder date_order = iso_date::DateOrder::kUnknown;
};

}  // namespace dq::validator
