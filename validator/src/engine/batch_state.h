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

// Remembers, for each key, the first row that used it and that row's owner, so that a later
// row can tell "the same key on another owner" (one GTIN on two SKUs) from a repeat of the
// same item. Keys are exact 64-bit values (a GTIN as a number: leading zeros do not count) and
// owners 32-bit hashes; a slot is 16 bytes, so memory is bounded like FirstSeen's. Rows past
// 2^32 - 1 are not recorded (a stream that long is far beyond any upload limit).
class FirstOwner {
 public:
  // The first row that used key with an owner other than `owner`, or nullopt: the key is new
  // (recorded as first used by row, with owner) or its first row had the same owner.
  std::optional<uint64_t> Insert(uint64_t key, uint64_t row, uint32_t owner);
  void Prefetch(uint64_t key) const {
    if (const size_t n = capacity(); n != 0) __builtin_prefetch(&slots()[Slot(key, n)], 1);
  }
  size_t size() const { return size_; }
  size_t bytes() const { return block_.size(); }  // memory held, whatever the keys' text

 private:
  struct Entry {
    uint64_t key;
    uint32_t row;  // 0: empty
    uint32_t owner;
  };
  static size_t Slot(uint64_t key, size_t capacity) {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 20) & (capacity - 1);
  }
  void Grow();
  Entry* slots() const { return static_cast<Entry*>(block_.data()); }
  size_t capacity() const { return block_.size() / sizeof(Entry); }
  ZeroedBlock block_;
  size_t size_ = 0;
};

struct BatchState {
  // Indexed by KeySet: SKUs, e-mail addresses (lower-cased), phone numbers (E.164).
  FirstSeen keys[kKeySetCount];
  // KeySet::kGtin: GTINs (as numbers) and the SKU of the row that first carried each.
  FirstOwner gtins;
  PriceOutliers prices;
  // Day/month order of the expiry_date column, learnt by Session::Observe (and AddRow).
  iso_date::DateOrder date_order = iso_date::DateOrder::kUnknown;
};

}  // namespace dq::validator
