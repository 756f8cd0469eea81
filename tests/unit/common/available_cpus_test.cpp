// The CPUs a process may use (the default of DQ_VALIDATOR_EVAL_THREADS, and what sizes the
// gateway's compression helpers): the cgroup v2 CPU quota, read from cpu.max text.
#include "dq/common/available_cpus.h"

#include <gtest/gtest.h>

namespace dq {
namespace {

TEST(AvailableCpus, CpuMaxQuotaIsRoundedUp) {
  struct Case {
    const char* text;
    size_t cpus;
  } cases[] = {
      {"max 100000\n", 0},              // no limit
      {"200000 100000\n", 2},           // limits: cpu: "2"
      {"150000 100000\n", 2},           // 1.5 CPUs: two threads, each busy 75% of the time
      {"50000 100000", 1},              // half a CPU
      {"100000 100000", 1},   {"", 0},  // no file
      {"garbage", 0},         {"-1 100000", 0}, {"100000 0", 0}, {"100000 abc", 0},
  };
  for (const Case& c : cases) EXPECT_EQ(CpusFromCpuMax(c.text), c.cpus) << c.text;
}

TEST(AvailableCpus, AtLeastOne) { EXPECT_GE(AvailableCpus(), 1u); }

}  // namespace
}  // namespace dq
