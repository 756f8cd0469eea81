// An upload cut into the pieces it is stored as, each compressed (piece_codec.h) ahead of the
// thread that stores them.
//
// Compressing a 25 MB upload takes one core ~60-80 ms, as long as the scan that precedes it,
// and the request's thread used to do both in turn while the other cores waited. UploadPieces
// is made before the scan: its helper threads compress while the request's thread reads the
// file, and while it waits for each Redis round's fsync (docs/PERFORMANCE.md, "Eighth round").
//
// Pieces are claimed in order, each by exactly one thread. TakeCompressed(i) compresses on the
// calling thread whatever no helper has claimed up to i, and while a helper still has piece i in
// hand, the next unclaimed pieces; it waits only when nothing is left to claim. So it never waits
// for work nobody does, and a store with no helpers at all (tests, one-piece files) works the
// same way. Helpers stay at most `kLead` pieces ahead of the last
// piece taken, so what waits to be stored is bounded whatever the file compresses to.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "dq/common/status.h"

namespace dq::gateway {

// Helper threads for an upload's compression: one fewer than the CPUs this process may use
// (AvailableCpus: its affinity, capped by its cgroup's quota), at most two (an upload's pieces
// are few and the other requests need cores too).
size_t DefaultCompressHelpers();

class UploadPieces {
 public:
  // How many pieces helpers may compress beyond the last one taken.
  static constexpr size_t kLead = 16;
  // Threads a store uses to write the pieces (StoreEach): the writes mostly wait (on fsync, or
  // on the network), so more threads than cores pay. On this project's 2-core machine, 24 fs
  // puts took 160-220 ms one after another and 11-40 ms four at a time (docs/PERFORMANCE.md).
  static constexpr size_t kWriters = 4;

  // `file` cut into pieces of `piece_bytes` (the last may be shorter; none for an empty file).
  // `helpers` threads start compressing at once; none are started for fewer than two pieces, and
  // fewer when the system gives no more threads (TakeCompressed then does their share).
  // `file` must outlive this object.
  UploadPieces(std::string_view file, size_t piece_bytes, size_t helpers);
  // Pieces cut by the caller (tests cut records across pieces on purpose).
  UploadPieces(std::vector<std::string_view> pieces, size_t helpers);
  // Helpers stop after the piece in hand (at most one piece's compression) and are joined.
  ~UploadPieces();
  UploadPieces(const UploadPieces&) = delete;
  UploadPieces& operator=(const UploadPieces&) = delete;

  size_t size() const { return raw_.size(); }
  std::string_view raw(size_t i) const { return raw_[i]; }
  const std::vector<std::string_view>& raw_pieces() const { return raw_; }
  size_t helpers() const { return helpers_.size(); }

  // Piece i as CompressPiece writes it, moved out: each piece is taken once, in any order.
  std::string TakeCompressed(size_t i);

  // put(i, piece i as TakeCompressed gives it) for every piece, on up to `writers` threads at once
  // (the caller's among them; fewer when the system gives no more threads). A store whose writes
  // wait on a disk (the fs store fsyncs every object and its directory) or a network overlaps
  // them: 24 pieces stored one after another wait for 48 fsyncs in turn. Pieces are claimed in
  // order; after the first error no more are claimed, the puts in hand finish, and that error is
  // returned. `put` must be safe to call from several threads at once. Called at most once, and
  // never together with TakeCompressed.
  Status StoreEach(size_t writers, const std::function<Status(size_t, std::string)>& put);

  // From now on, each piece taken (TakeCompressed, StoreEach) is also copied raw, on the thread
  // that takes it, for TakeRawCopies. Call before the first piece is taken.
  void KeepRawCopies() { raw_copies_.assign(raw_.size(), std::string()); }
  // The raw copies, moved out: one string per piece, or none at all when KeepRawCopies was not
  // called or some piece was never taken.
  std::vector<std::string> TakeRawCopies();

  // How many pieces each thread compressed: [0] the callers of TakeCompressed, then one entry
  // per helper. For tests and the upload's log line.
  std::vector<size_t> CompressedBy() const;

 private:
  void Help(size_t helper);
  // Claims the next piece and compresses it, counting it for `who`; false when all are claimed,
  // or, `within_lead`, when the next one is kLead pieces past the last taken.
  bool CompressNext(size_t who, bool within_lead);

  std::vector<std::string_view> raw_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  // Under mu_:
  size_t next_ = 0;      // the next piece to claim
  size_t taken_ = 0;     // pieces taken so far (the lead is counted from it)
  bool stop_ = false;
  std::vector<std::string> compressed_;
  std::vector<char> ready_;  // compressed_[i] holds piece i
  std::vector<size_t> compressed_by_;
  std::vector<std::thread> helpers_;
  // KeepRawCopies: element i written only by the thread that takes piece i.
  std::vector<std::string> raw_copies_;
  std::atomic<size_t> raw_copied_{0};
};

}  // namespace dq::gateway
