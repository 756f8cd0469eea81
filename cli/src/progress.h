// A one-line progress meter on standard error for large files: "checking 45,056 of 100,000 rows
// (45%)", rewritten in place at most ten times a second and erased at the end. Shown only when
// enabled (standard error is a terminal, and the file has at least kMinRows rows), so logs and
// pipes never get carriage returns. Thread-compatible: one thread updates it.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>

namespace dq::offline {

class ProgressMeter {
 public:
  static constexpr uint64_t kMinRows = 20000;

  ProgressMeter(std::ostream& err, bool terminal) : err_(err), terminal_(terminal) {}
  ~ProgressMeter() { Finish(); }

  void Update(uint64_t done, uint64_t total);
  // Erases the line, if one was shown.
  void Finish();

 private:
  std::ostream& err_;
  bool terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace dq::offline
