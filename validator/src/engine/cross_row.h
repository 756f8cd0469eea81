// What a row asks of the batch-level state, written down while the row is evaluated and applied
// later, in row order, by the Session. This is what lets the rows of one chunk be evaluated on
// several threads while the duplicate checks and the price samples still see the rows exactly in
// the order of the file: a rule never reads or writes BatchState itself; it records a KeyUse (a
// duplicate-key lookup, maybe with a placeholder issue) or a PriceUse, and Session::Merge
// resolves them one row after another on one thread.
//
// Everything here is plain data, owned by one evaluation slice (RowsOutput) at a time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace dq::validator {

// The duplicate-key sets of a batch: BatchState::keys, indexed by the first kKeySetCount, and
// kGtin, BatchState::gtins, whose keys carry an owner (the row's SKU) as well.
enum class KeySet : uint8_t { kSku, kEmail, kPhone, kGtin };
inline constexpr size_t kKeySetCount = 3;

// Hash of a duplicate key; FirstSeen stores only this (see batch_state.h).
uint64_t KeyHash(std::string_view key);

// One row's use of a key. When `issue` is not kNoIssue, issues[issue] of the same RowsOutput is a
// placeholder: if an earlier row used the key it becomes a real issue whose message is `prefix`
// followed by that row's number; otherwise it is dropped. In set kGtin, `hash` is the GTIN's
// value as a number and only an earlier row with another `owner` (SKU hash) counts.
struct KeyUse {
  static constexpr uint32_t kNoIssue = UINT32_MAX;
  uint64_t hash = 0;
  uint64_t row = 0;
  uint32_t issue = kNoIssue;
  uint32_t owner = 0;  // kGtin: the low 32 bits of the row's SKU hash
  KeySet set = KeySet::kSku;
  const char* prefix = "";  // a string literal
};

// One priced row's sample for the outlier check (PriceOutliers::Add). The category is
// RowsOutput::text.substr(category_begin, category_size).
struct PriceUse {
  uint64_t row = 0;
  double price = 0;
  uint64_t category_hash = 0;  // PriceOutliers::CategoryHash(category)
  uint32_t category_begin = 0;
  uint32_t category_size = 0;
  uint8_t decimals = 0;
};

// The result of evaluating consecutive rows: their issues in order (placeholders included) and
// what they ask of the batch state, in the order the rules asked. Clear() keeps the capacity.
// Aligned to a cache line: the outputs of neighbouring slices are filled by different threads,
// and vector headers sharing a line would bounce it between cores on every push_back.
struct alignas(64) RowsOutput {
  std::vector<Issue> issues;
  std::vector<KeyUse> keys;
  std::vector<PriceUse> prices;
  std::string text;  // categories of `prices`

  void Clear() {
    issues.clear();
    keys.clear();
    prices.clear();
    text.clear();
  }
};

}  // namespace dq::validator
