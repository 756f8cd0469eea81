// Time as a dependency: domain code asks a Clock, so tests can drive it with FakeClock
// (tests/testing/fake_clock.h).
#pragma once

#include <chrono>

namespace dq {

class Clock {
 public:
  virtual ~Clock() = default;
  // Wall-clock time. Thread-safe.
  virtual std::chrono::system_clock::time_point Now() const = 0;
};

class SystemClock final : public Clock {
 public:
  std::chrono::system_clock::time_point Now() const override {
    return std::chrono::system_clock::now();
  }
  static const SystemClock& Instance() {
    static const SystemClock clock;
    return clock;
  }
};

// Milliseconds since the Unix epoch.
inline int64_t UnixMillis(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

// Microseconds since the Unix epoch (exact in a double until the year 2255).
inline int64_t UnixMicros(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

}  // namespace dq
