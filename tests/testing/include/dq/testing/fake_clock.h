// A Clock the test moves by hand.
#pragma once

#include <atomic>
#include <chrono>

#include "dq/common/clock.h"

namespace dq::testing {

class FakeClock final : public Clock {
 public:
  explicit FakeClock(std::chrono::system_clock::time_point start = std::chrono::system_clock::
                         time_point(std::chrono::seconds(1'800'000'000)))
      : now_(start.time_since_epoch().count()) {}
  std::chrono::system_clock::time_point Now() const override {
    return std::chrono::system_clock::time_point(std::chrono::system_clock::duration(now_.load()));
  }
  void Advance(std::chrono::system_clock::duration d) { now_ += d.count(); }
  void Set(std::chrono::system_clock::time_point t) { now_ = t.time_since_epoch().count(); }

 private:
  std::atomic<std::chrono::system_clock::rep> now_;
};

}  // namespace dq::testing
