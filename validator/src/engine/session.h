// A validation session: one batch of rows, evaluated row by row with bounded memory.
//
//   Session s(ReferenceData::Default(), spec);
//   for (each row) s.AddRow(values, issues);   // issues of that row, appended in order
//   s.Finish(issues);                          // batch-level issues (price outliers)
//
// Rules run in a fixed order for each row: whitespace, product, customer, shipping, inventory,
// price, platform. Price outlier issues carry the cleaned price as their original value (the
// session keeps numbers, not text).
//   Stats st = s.stats();
//
// Row kinds (types.h RowKind, row_context.h): each row is evaluated as its kind says; image rows
// are counted and get no issue; cross-row checks (duplicate SKUs and GTINs, price samples) see
// products and variants only.
//
// Rows are numbered from 1 in the order they are added, across any number of chunks. Row-level
// issues, including duplicates of earlier rows, come out as each row is added; only the checks
// that need the whole batch (outliers) wait for Finish(). Memory per row is one byte of flags
// plus what BatchState keeps (hashes and price samples), never the row's text.
//
// Chunks on several threads. With a WorkerPool, AddRows (or BeginRows + EndRows) splits a chunk
// into slices that the pool's threads and the caller evaluate at once, each thread with a lane
// (RowContext and phone cache) of its own while it evaluates. Rules do not touch the batch
// state; they record key uses and price samples (cross_row.h), which are applied slice by slice
// in row order (by whichever thread finishes the next slice in order, one at a time, across
// chunks), and EndRows hands the issues over on the caller's thread. So the issues, their order,
// their messages ("already used by row N") and the stats are exactly those of adding the rows
// one by one on one thread, whatever the number of threads or the order in which slices finish.
//
//   s.BeginRows(n, read_row);   // observes the chunk, offers it to the pool; returns at once
//   ... read the next chunk from the network while the pool works ...
//   s.EndRows(sink);            // helps, then hands over the chunk's issues in row order
//
// Two chunks may be open at once: begin the next one before ending the current one, and the
// pool's threads move on to it as soon as the current one has no slice left to claim, instead
// of waiting while the caller hands the current one's issues over. EndRows ends the oldest.
//
//   s.BeginRows(n1, read1);
//   s.BeginRows(n2, read2);     // chunk 2 is evaluated with what rows 1..n1+n2 show (dates)
//   s.EndRows(sink);            // chunk 1's issues (the caller helps with chunk 2 meanwhile)
//   s.BeginRows(n3, read3);
//   s.EndRows(sink);            // chunk 2's
//
// Not thread-safe: one thread drives a session (the pool's threads only run the slices it
// offers). Sessions are independent, so use one per stream; they may share a pool.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

#include "batch_state.h"
#include "phone.h"
#include "reference_data.h"
#include "row_context.h"
#include "types.h"
#include "worker_pool.h"

namespace dq::validator {

class Session {
 public:
  // Fills `values` with the values of row i (from 0) of the chunk, as AddRow takes them. Called
  // from several threads at once (for different i): it may only read shared data, and the views
  // must stay valid until EndRows returns.
  using RowReader = std::function<void(size_t i, std::vector<std::string_view>& values)>;
  // The value of column k (of spec.columns) in row i of the chunk, as a RowReader would give it;
  // "" past the row's values. Same threading rules as RowReader.
  using ValueReader = std::function<std::string_view(size_t i, size_t k)>;
  // Receives the issues of a chunk, in order, on the thread that calls EndRows.
  using IssueSink = std::function<void(Issue&&)>;

  // pool: threads that help evaluate chunks; nullptr: the caller's thread alone. The pool must
  // outlive the session.
  Session(const ReferenceData& ref, BatchSpec spec, WorkerPool* pool = nullptr);
  ~Session();  // abandons an open chunk (no EndRows), waiting for the pool to leave it
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // values[i] is the value of spec.columns[i]; missing trailing values count as empty. An image
  // row (RowKind::kImage) is counted and gets no issue.
  void AddRow(std::span<const std::string_view> values, std::vector<Issue>& out,
              RowKind kind = RowKind::kProduct);

  // Adds rows [0, n) of a chunk: the same issues, in the same order, as Observe() on every row
  // followed by AddRow() on every row. BeginRows observes the rows and offers the evaluation to
  // the pool, then returns; EndRows takes part in it and passes the oldest open chunk's issues
  // to sink, in row order, as slices finish. At most kMaxOpenChunks chunks are open (begun and
  // not ended); no other call while one is. `read` (and what it reads) must stay valid until
  // the EndRows that ends its chunk returns. `kinds`: one per row, or empty when every row is a
  // product (the usual case, which costs nothing).
  static constexpr size_t kMaxOpenChunks = 2;
  void BeginRows(size_t n, RowReader read, std::vector<RowKind> kinds = {});
  // The same, with what the chunk's rows show already worked out by ObserveRows (on another
  // thread, e.g. the one that read the chunk): BeginRows then has nothing to read before it
  // offers the evaluation.
  void BeginRows(size_t n, RowReader read, dates::DateOrder observed,
                 std::vector<RowKind> kinds = {});
  // What rows [0, n) show of the column-wide conventions, combined, as BeginRows would observe
  // them. Reads only the spec: any thread, while the session evaluates another chunk.
  dates::DateOrder ObserveRows(size_t n, const RowReader& read) const;
  // The same, reading only the columns it looks at (one value a row instead of all of them).
  dates::DateOrder ObserveRows(size_t n, const ValueReader& value) const;
  void EndRows(const IssueSink& sink);
  void AddRows(size_t n, RowReader read, std::vector<Issue>& out, std::vector<RowKind> kinds = {});
  // Learns from a row what column-wide conventions it shows (the day/month order of
  // expiry_date), without checking it. Callers that hold several rows at once observe them all
  // before adding them, so an early row benefits from a later one (docs/issue-codes.md,
  // DATE_REFORMATTED). Optional; AddRow observes too.
  void Observe(std::span<const std::string_view> values);
  // Appends the batch-level issues. Call once, after the last row.
  void Finish(std::vector<Issue>& out);

  // Counters so far (complete after Finish).
  Stats stats() const;
  // Rows of the chunks ended (and rows added), and of those begun as well.
  uint64_t rows() const { return rows_; }
  uint64_t rows_begun() const { return rows_begun_; }
  const BatchSpec& spec() const { return spec_; }
  // How the customer check's phone numbers were judged (fast path or libphonenumber), by the
  // first lane: all of them without a pool; with one, each evaluating thread has its own.
  const PhoneChecker& phone_checker() const { return lanes_[0]->phones; }

 private:
  // What one evaluating thread owns while it evaluates: its RowContext, phone cache and value
  // buffer (on lines of their own). A thread takes a free lane when it enters a chunk and gives
  // it back when it leaves, so a pool thread may go from one open chunk to the next while the
  // caller still evaluates the first.
  struct alignas(64) Lane {
    Lane(const BatchSpec& spec, const ReferenceData& ref) : ctx(spec, ref, phones) {}
    PhoneChecker phones;
    RowContext ctx;
    std::vector<std::string_view> values;
  };
  class Chunk;

  bool ObservesDates() const;
  // Runs the rules on one row into out (RowContext::Finish); nothing for an image row.
  void Evaluate(Lane& lane, uint64_t row, std::span<const std::string_view> values, RowKind kind,
                RowsOutput& out);
  // Evaluates slice k of an open chunk with lane (any thread).
  void EvaluateSlice(Lane& lane, Chunk& chunk, size_t k);
  // Merges the evaluated slices that are next in row order, across chunks, unless another thread
  // is doing so; that thread looks again after it stops, so no slice is left behind.
  void TryMerge();
  // True when the slice next in row order is evaluated (or a merged chunk is to be passed).
  bool Mergeable();
  // Applies out's key uses and price samples to the batch state and resolves its placeholders:
  // the one place where the batch state changes (one thread at a time, slices in row order).
  void MergeState(RowsOutput& out);
  // Counts out's issues and passes them to sink, dropping unresolved placeholders (the caller's
  // thread).
  void Emit(RowsOutput& out, const IssueSink& sink);
  void Count(const Issue& issue);
  // A lane no thread holds, or nullptr (never for the caller: there are as many lanes as
  // threads that may enter a session at once).
  Lane* AcquireLane();
  void ReleaseLane(Lane* lane);

  BatchSpec spec_;
  WorkerPool* pool_;
  BatchState batch_;
  std::vector<std::unique_ptr<Lane>> lanes_;  // one per pool thread (1 without a pool)
  std::mutex lanes_mu_;
  std::vector<Lane*> free_lanes_;  // guarded by lanes_mu_
  // The open chunks' shared state, used in turn: chunk i of the session is chunks_[i % size].
  std::unique_ptr<Chunk> chunks_[kMaxOpenChunks];
  uint64_t begun_ = 0;  // chunks begun
  uint64_t ended_ = 0;  // chunks ended; begun_ - ended_ are open
  // The merge: one thread at a time, in row order across the open chunks. merging_ is the
  // oldest begun chunk not known to be wholly merged (nullptr: none), next_merge_ the one
  // after it, both written under merge_mu_ only; merging_ is read without it to look again.
  std::mutex merge_mu_;
  std::atomic<Chunk*> merging_{nullptr};
  Chunk* next_merge_ = nullptr;
  RowsOutput row_out_;  // AddRow's
  uint64_t rows_ = 0;
  uint64_t rows_begun_ = 0;
  uint64_t errors_ = 0;
  uint64_t warnings_ = 0;
  uint64_t fixes_ = 0;
  std::vector<uint8_t> row_flags_;  // per row: kRowError | kRowWarning | kRowFixed
};

}  // namespace dq::validator
