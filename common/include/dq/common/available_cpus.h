// How many CPUs this process may use: what the default of DQ_VALIDATOR_EVAL_THREADS means by
// "all cores of the pod", and what the gateway sizes an upload's compression helpers by. A
// container limited to 2 CPUs on a 64-core node must not start 64 threads, so the cgroup quota
// counts, not just the machine.
#pragma once

#include <cstddef>
#include <string_view>

namespace dq {

// The CPUs in this process's affinity mask, capped by the cgroup's CPU quota (cgroup v2
// /sys/fs/cgroup/cpu.max, else v1 cpu.cfs_quota_us / cpu.cfs_period_us) rounded up; at least 1.
size_t AvailableCpus();

// The quota part, from the text of a cgroup v2 cpu.max file ("max 100000" or "150000 100000"):
// ceil(quota / period); 0 for no limit or text that cannot be read.
size_t CpusFromCpuMax(std::string_view cpu_max);

}  // namespace dq
