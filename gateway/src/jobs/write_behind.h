// WriteBehind: one attempt's output writes, stored in order on a second thread, so the attempt
// reads, sends and applies the next chunks while Redis takes the last write through its fsync
// (and the store compresses the cleaned piece). Issue 15 measured that store stage at ~40 % of a
// products job's wall time, all of it on the attempt's own thread.
//
//   WriteBehind writes(store, job, /*depth=*/2);
//   if (Status s = writes.Submit(output.TakeWrite(false)); !s.ok()) return s;  // an earlier
//   ...                                                                       // write failed
//   if (Status s = writes.Drain(); !s.ok()) return s;   // every write stored, in order
//   store.Finish(job, last, end);
//
// Contract:
// - Writes reach the store one at a time, in the order submitted, each with the fencing token of
//   `job` as it was at construction (the attempt's claim).
// - At most `depth` writes wait or run at once; Submit blocks while that many are pending, so
//   the memory held is bounded (a write is about one cleaned piece plus its issues).
// - The first failed write stops the rest: the writes queued behind it are dropped, and Submit
//   and Drain return its status from then on. So a fenced-out or deleted job stops the attempt
//   at its next Submit, as a synchronous write would have.
// - depth 0 writes inline on the caller's thread (no thread at all): the order of every store
//   step is then deterministic, which some unit tests rely on.
// - The destructor drops what is still queued and waits for the write under way; the attempt's
//   later steps (Postpone, Fail) therefore never overtake one of its writes.
// - The thread starts with the first write that is not inline: a job whose output fits in its
//   final write never starts one.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "dq/common/status.h"
#include "job.h"
#include "job_store.h"

namespace dq::gateway {

class WriteBehind {
 public:
  WriteBehind(JobStore& store, const Job& job, size_t depth);
  ~WriteBehind();
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // Queues the write (or, at depth 0, stores it). Returns the status of the first failed write
  // so far, this one included at depth 0; an error means this write was not queued.
  Status Submit(JobWrite write);
  // Waits until every queued write is stored; the first failure's status, if any.
  Status Drain();

 private:
  void Loop();

  JobStore& store_;
  const Job job_;  // a copy: the attempt updates its own Job while writes are in flight
  const size_t depth_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<JobWrite> queue_;  // front: the write under way, if busy_
  bool busy_ = false;
  bool stop_ = false;
  Status failed_ = Status::Ok();
  std::thread thread_;
};

}  // namespace dq::gateway
