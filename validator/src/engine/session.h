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
// Rows are numbered from 1 in the order they are added, across any number of chunks. Row-level
// issues, including duplicates of earlier rows, come out as each row is added; only the checks
// that need the whole batch (outliers) wait for Finish(). Memory per row is one byte of flags
// plus what BatchState keeps (hashes and price samples), never the row's text.
//
// Chunks on several threads. With a WorkerPool, AddRows (or BeginRows + EndRows) splits a chunk
// into slices that the pool's threads and the caller evaluate at once, each thread with its own
// lane (RowContext and phone cache). Rules do not touch the batch state; they record key uses
// and price samples (cross_row.h), which are applied slice by slice in row order (by whichever
// thread finishes the next slice in order, one at a time), and EndRows hands the issues over on
// the caller's thread. So the issues, their order, their messages ("already used by row N")
// and the stats are exactly those of adding the rows one by one on one thread, whatever the
// number of threads or the order in which slices finish.
//
//   s.BeginRows(n, read_row);   // observes the chunk, offers it to the pool; returns at once
//   ... read the next chunk from the network while the pool works ...
//   s.EndRows(sink);            // helps, then hands over the chunk's issues in row order
//
// Not thread-safe: one thread drives a session (the pool's threads only run the slices it
// offers). Sessions are independent, so use one per stream; they may share a pool.
#pragma once

#include <functional>
#include <memory>
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

  // values[i] is the value of spec.columns[i]; missing trailing values count as empty.
  void AddRow(std::span<const std::string_view> values, std::vector<Issue>& out);

  // Adds rows [0, n) of a chunk: the same issues, in the same order, as Observe() on every row
  // followed by AddRow() on every row. BeginRows observes the rows and offers the evaluation to
  // the pool, then returns; EndRows takes part in it and passes the chunk's issues to sink, in
  // row order, as slices finish. One chunk at a time: BeginRows, then EndRows, before any other
  // call. `read` (and what it reads) must stay valid until EndRows returns.
  void BeginRows(size_t n, RowReader read);
  // The same, with what the chunk's rows show already worked out by ObserveRows (on another
  // thread, e.g. the one that read the chunk): BeginRows then has nothing to read before it
  // offers the evaluation.
  void BeginRows(size_t n, RowReader read, dates::DateOrder observed);
  // What rows [0, n) show of the column-wide conventions, combined, as BeginRows would observe
  // them. Reads only the spec: any thread, while the session evaluates another chunk.
  dates::DateOrder ObserveRows(size_t n, const RowReader& read) const;
  // The same, reading only the columns it looks at (one value a row instead of all of them).
  dates::DateOrder ObserveRows(size_t n, const ValueReader& value) const;
  void EndRows(const IssueSink& sink);
  void AddRows(size_t n, RowReader read, std::vector<Issue>& out);
  // Learns from a row what column-wide conventions it shows (the day/month order of
  // expiry_date), without checking it. Callers that hold several rows at once observe them all
  // before adding them, so an early row benefits from a later one (docs/issue-codes.md,
  // DATE_REFORMATTED). Optional; AddRow observes too.
  void Observe(std::span<const std::string_view> values);
  // Appends the batch-level issues. Call once, after the last row.
  void Finish(std::vector<Issue>& out);

  // Counters so far (complete after Finish).
  Stats stats() const;
  uint64_t rows() const { return rows_; }
  const BatchSpec& spec() const { return spec_; }
  // How the customer check's phone numbers were judged (fast path or libphonenumber), by the
  // first lane: all of them without a pool; with one, each evaluating thread has its own.
  const PhoneChecker& phone_checker() const { return lanes_[0]->phones; }

 private:
  // What one evaluating thread owns: its RowContext, phone cache and value buffer (on lines of
  // its own).
  struct alignas(64) Lane {
    Lane(const BatchSpec& spec, const ReferenceData& ref) : ctx(spec, ref, phones) {}
    PhoneChecker phones;
    RowContext ctx;
    std::vector<std::string_view> values;
  };
  class Chunk;

  bool ObservesDates() const;
  // Runs the rules on one row into out (RowContext::Finish).
  void Evaluate(Lane& lane, uint64_t row, std::span<const std::string_view> values,
                RowsOutput& out);
  // Evaluates slice k of the open chunk with lane (any thread).
  void EvaluateSlice(Lane& lane, size_t k);
  // Applies out's key uses and price samples to the batch state and resolves its placeholders:
  // the one place where the batch state changes (one thread at a time, slices in row order).
  void MergeState(RowsOutput& out);
  // Counts out's issues and passes them to sink, dropping unresolved placeholders (the caller's
  // thread).
  void Emit(RowsOutput& out, const IssueSink& sink);
  void Count(const Issue& issue);

  BatchSpec spec_;
  WorkerPool* pool_;
  BatchState batch_;
  std::vector<std::unique_ptr<Lane>> lanes_;  // one per pool thread (1 without a pool)
  std::unique_ptr<Chunk> chunk_;              // the open chunk's shared state
  std::vector<RowsOutput> slices_;            // per slice of the open chunk (capacity reused)
  RowsOutput row_out_;                        // AddRow's
  bool chunk_open_ = false;                   // between BeginRows and EndRows
  bool offered_ = false;                      // the open chunk was offered to the pool
  uint64_t rows_ = 0;
  uint64_t errors_ = 0;
  uint64_t warnings_ = 0;
  uint64_t fixes_ = 0;
  std::vector<uint8_t> row_flags_;  // per row: kRowError | kRowWarning | kRowFixed
};

}  // namespace dq::validator
