// A fixed set of threads that help callers with work the callers also do themselves.
//
//   WorkerPool pool(4);        // 4 threads in all: the caller and 3 helpers
//   pool.Offer(&job);          // helpers may now enter job.Work(), concurrently
//   ... the caller works on job too, or does something else first ...
//   pool.Withdraw(&job);       // returns once no helper is inside job.Work()
//
// The caller always takes part (Session::EndRows does), so a job finishes even when every helper
// is busy with other callers' jobs, and a pool of 1 thread starts no thread at all. Jobs from
// several callers (streams) are served in the order offered; a helper leaves a job when its
// Work() returns, which it must do once no unclaimed work is left.
//
// Thread-safe. The destructor joins the helpers; no job may be offered then.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace dq::validator {

class WorkerPool {
 public:
  // Work that the caller and up to threads() - 1 helpers share.
  class Job {
   public:
    virtual ~Job() = default;
    // Called by a helper thread, possibly by several at once. Claims and does units of work until
    // none is left unclaimed, then returns. Must not throw.
    virtual void Work() = 0;

   private:
    friend class WorkerPool;
    int inside_ = 0;  // helpers inside Work(); guarded by the pool's mutex
  };

  // threads: in all, the callers' own included (at least 1; 1 starts no helper).
  explicit WorkerPool(size_t threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  size_t threads() const { return helpers_.size() + 1; }

  // Lets the helpers enter job->Work(). The job must stay alive until Withdraw(job) returns.
  void Offer(Job* job);
  // Stops offering job and waits until no helper is inside job->Work(). Call exactly once per
  // Offer, from the thread that offered it.
  void Withdraw(Job* job);

 private:
  // How long an idle helper looks for the next job before it sleeps.
  static constexpr std::chrono::microseconds kSpin{200};
  void Run();

  std::mutex mu_;
  std::condition_variable work_;  // a job was offered, or stopping
  std::condition_variable left_;  // a helper left a job
  std::deque<Job*> queue_;
  std::atomic<size_t> queued_{0};  // queue_.size(), read without the lock while spinning
  bool stop_ = false;
  std::vector<std::thread> helpers_;
};

// Runs task(0) ... task(n - 1), each once, on the caller's thread and whichever of the pool's
// helpers are free, and returns when all have run. pool may be nullptr (the caller alone). For
// a few large independent pieces of work, e.g. the fences of a batch and of its categories.
void RunTasks(WorkerPool* pool, size_t n, const std::function<void(size_t)>& task);

}  // namespace dq::validator
