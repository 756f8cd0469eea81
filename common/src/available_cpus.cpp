#include "dq/common/available_cpus.h"

#include <sched.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace dq {
namespace {

std::string ReadFile(const char* path) {
  std::ifstream in(path);
  if (!in) return {};
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool ParseCount(std::string_view s, long long* out) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  const auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

size_t Quota(long long quota, long long period) {
  if (quota <= 0 || period <= 0) return 0;
  return static_cast<size_t>((quota + period - 1) / period);
}

}  // namespace

size_t CpusFromCpuMax(std::string_view cpu_max) {
  const size_t space = cpu_max.find(' ');
  if (space == std::string_view::npos) return 0;
  long long quota = 0, period = 0;
  if (!ParseCount(cpu_max.substr(0, space), &quota)) return 0;  // "max": no limit
  if (!ParseCount(cpu_max.substr(space + 1), &period)) return 0;
  return Quota(quota, period);
}

size_t AvailableCpus() {
  size_t cpus = 0;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) cpus = static_cast<size_t>(CPU_COUNT(&set));
  if (cpus == 0) cpus = std::thread::hardware_concurrency();
  size_t quota = CpusFromCpuMax(ReadFile("/sys/fs/cgroup/cpu.max"));
  if (quota == 0) {
    long long q = 0, p = 0;
    if (ParseCount(ReadFile("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), &q) &&
        ParseCount(ReadFile("/sys/fs/cgroup/cpu/cpu.cfs_period_us"), &p)) {
      quota = Quota(q, p);
    }
  }
  if (quota != 0 && (cpus == 0 || quota < cpus)) cpus = quota;
  return cpus == 0 ? 1 : cpus;
}

}  // namespace dq
