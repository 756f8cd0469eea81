// What the streamed answers in progress (downloads: a cleaned file, the issues CSV, a job's issues
// past a page) hold in the gateway's memory, and which of them to cut. A streamed answer makes its
// next part only once the client has taken the previous one, so a client that stops reading keeps
// what its answer's producer holds (for a cleaned file, the upload piece it is reading: up to
// 1 MiB decompressed, two for CSV) plus the part waiting in the write queue, for as long as the
// connection stays open. The ledger bounds that in time and in total:
//   - a download that has not moved for `stall_timeout` is cut (its connection closed), which
//     releases all it holds;
//   - while the downloads hold more than `memory_bytes` together, the ones that have not moved
//     for at least `pressure_grace` are cut first, the longest-stalled first, and a new download
//     is refused (503, Retry-After) until they hold less.
// A download that keeps moving is never cut by the ledger, so the bound is soft by what the
// moving downloads hold (each a part and a piece or two).
//
//   DownloadLedger ledger(limits, &gauge);
//   auto id = ledger.Open(now_ms, first_bytes, [weak] { /* close the connection */ });
//   if (!id) { /* refused: 503 */ }
//   ledger.Update(*id, held_bytes, now_ms);    // each part made or written
//   ledger.Close(*id);                          // the producer released
//   for (auto& cut : ledger.Sweep(now_ms)) cut();   // the reaper, outside any lock
//
// Pure and thread-safe (one mutex); the clock is the caller's.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "dq/common/metrics.h"

namespace dq::http {

// The message of the 503 that refuses a download while the ledger is full.
inline constexpr const char* kDownloadsFullMessage =
    "Too many downloads are in progress; try again in a moment.";

struct DownloadLimits {
  std::chrono::milliseconds stall_timeout{30000};  // no progress this long: cut
  size_t memory_bytes = 128 * 1024 * 1024;         // all downloads together; past it, see above
  std::chrono::milliseconds pressure_grace{1000};  // over the budget, cut only those this still
};

class DownloadLedger {
 public:
  using Cut = std::function<void()>;

  // `held` (optional) is kept equal to held(): the gauge dq_gateway_download_held_bytes.
  explicit DownloadLedger(DownloadLimits limits, GaugeMetric* held = nullptr)
      : limits_(limits), gauge_(held) {}

  // A new download, moving as of now_ms, holding held_bytes already (its first part and what
  // its producer holds), counted in the same step as the check, so that downloads admitted at
  // once do not each see the others' memory as free; `cut` closes its connection (it is called
  // at most once, by Sweep's caller). nullopt when the downloads already hold memory_bytes or
  // more: the caller refuses it.
  std::optional<uint64_t> Open(int64_t now_ms, size_t held_bytes, Cut cut);
  // What download `id` holds now; progressed_ms: when it last moved (a part taken by the
  // client), or nullopt if it has not moved since the last update.
  void Update(uint64_t id, size_t held_bytes, std::optional<int64_t> progressed_ms);
  // The download ended (or its connection went): forgets it and what it held. Idempotent.
  void Close(uint64_t id);
  // The downloads to cut now (their `cut`s, each handed out once): stalled past stall_timeout,
  // then, while the rest hold more than memory_bytes, the longest-stalled of those stalled at
  // least pressure_grace. What they hold stays counted until they are closed.
  std::vector<Cut> Sweep(int64_t now_ms);

  // True when a new download would be refused now (the downloads hold memory_bytes or more).
  // For a handler that can refuse before it builds an answer's first part (JobsApi); Open stays
  // the check that counts.
  bool Full() const;
  size_t held() const;
  size_t open() const;
  const DownloadLimits& limits() const { return limits_; }

 private:
  struct Entry {
    size_t held = 0;
    int64_t since_ms = 0;  // last progress
    Cut cut;               // empty once handed out
  };
  void SetHeldLocked(Entry& e, size_t bytes);

  const DownloadLimits limits_;
  GaugeMetric* gauge_;
  mutable std::mutex mu_;
  std::map<uint64_t, Entry> entries_;
  uint64_t next_id_ = 1;
  size_t held_ = 0;
};

}  // namespace dq::http
