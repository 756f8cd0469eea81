// Gate: holds threads at a point until the test opens it, and lets the test wait until they
// got there. For tests of code that works on a second thread: synchronisation without sleeps.
//
//   Gate gate;
//   store.on_write = [&](const JobWrite&) { gate.Arrive(); };   // the writer waits here
//   ... gate.WaitForArrivals(1); /* the write is under way */ ... gate.Open();
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace dq::testing {

class Gate {
 public:
  // Waits until the gate opens. A gate never opened lets the thread through after `guard`, so
  // a broken test fails instead of hanging (code that was meant to run on another thread but
  // runs on the test's own thread would otherwise wait for itself).
  void Arrive(std::chrono::milliseconds guard = std::chrono::seconds(20)) {
    std::unique_lock lock(mu_);
    ++arrived_;
    changed_.notify_all();
    changed_.wait_for(lock, guard, [&] { return open_; });
  }
  // Waits until n threads arrived (or `guard` passed); true when they did.
  bool WaitForArrivals(int n, std::chrono::milliseconds guard = std::chrono::seconds(20)) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, guard, [&] { return arrived_ >= n; });
  }
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  int arrived_ = 0;
  bool open_ = false;
};

}  // namespace dq::testing
