// Wall time per stage, for the "upload stages" and "job stages" log lines (docs/PERFORMANCE.md,
// "Where the time goes in a job").
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace dq::report {

// Adds the time it lives (less any pauses) to a stage's total.
class StageTimer {
 public:
  explicit StageTimer(double& total_ms) : total_ms_(total_ms) {}
  ~StageTimer() { Pause(); }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;
  void Pause() {
    if (running_) total_ms_ += Ms(std::chrono::steady_clock::now() - start_);
    running_ = false;
  }
  void Resume() {
    start_ = std::chrono::steady_clock::now();
    running_ = true;
  }

 private:
  static double Ms(std::chrono::steady_clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
  }
  double& total_ms_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  bool running_ = true;
};

// A stage's milliseconds as the log lines show them: one decimal.
inline std::string Fixed1(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", ms);
  return buf;
}

}  // namespace dq::report
