// One plan of injected failures shared by every fake of a test (the job fakes, the artifact
// store's fake): each operation counts as one step, and with fail_at = N step N fails with
// kUnavailable, either before it takes effect or after it (the reply was lost). A test runs a
// flow once per N to cover every step.
#pragma once

#include <string>
#include <vector>

namespace dq::testing {

struct FaultPlan {
  int fail_at = 0;             // 0: never
  bool after = false;          // the failing step took effect; only its answer was lost
  int steps = 0;               // steps seen so far
  std::vector<std::string> log;  // step names, in order
  // Counts one step; true when it is the one to fail.
  bool Step(const std::string& name) {
    log.push_back(name);
    return ++steps == fail_at;
  }
};

}  // namespace dq::testing
