// Benchmark-size agreement run: the engine's phone fast path against libphonenumber on N random
// numbers across every region and non-geographic calling code libphonenumber supports
// (validator/tools/phone_samples.h). Prints the counts; exits 1 on any disagreement.
//
//   ninja -C build phone_agreement && build/bench/phone_agreement 1000000 [seed]
//
// libphonenumber costs ~30 µs a number, so 1,000,000 numbers take a few minutes of one core.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "phone_samples.h"

int main(int argc, char** argv) {
  const uint64_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20261123;
  dq::validator::tools::PhoneSampler probe(seed);
  const auto start = std::chrono::steady_clock::now();
  const auto r = dq::validator::tools::CompareWithLibphonenumber(count, seed);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("samples          %llu (seed %llu)\n", static_cast<unsigned long long>(r.samples),
              static_cast<unsigned long long>(seed));
  std::printf("targets          %zu regions + %zu non-geographic calling codes, each drawn\n",
              probe.region_count(), probe.non_geo_count());
  std::printf("valid (libphonenumber) %llu (%.1f%%)\n",
              static_cast<unsigned long long>(r.ref_valid), 100.0 * r.ref_valid / r.samples);
  std::printf("fast path        %llu (%.1f%%), of which valid %llu\n",
              static_cast<unsigned long long>(r.fast), 100.0 * r.fast / r.samples,
              static_cast<unsigned long long>(r.fast_valid));
  std::printf("disagreements    %llu\n", static_cast<unsigned long long>(r.disagreements));
  for (const std::string& e : r.examples) std::printf("  %s\n", e.c_str());
  std::printf("time             %.1f s\n", secs);
  return r.disagreements == 0 ? 0 : 1;
}
