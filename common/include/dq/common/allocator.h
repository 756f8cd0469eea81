// How the services use glibc's malloc: memory they have used once, they keep.
//
// By default glibc serves a large allocation (from 128 KiB, a threshold that rises as such blocks
// are freed, up to 32 MiB) with its own mmap, returns it to the kernel on free, and trims the
// heap's free top back to the kernel past twice that threshold. A job allocates and frees
// buffers of a megabyte and more for every piece, chunk and answer, so each job paid again for
// fresh pages: the kernel's page faults and zeroing, in the gateway and the validator alike.
// TuneAllocator() raises both thresholds, so such buffers come from the heap and stay there for
// the next job. The cost is RSS: a service keeps free memory instead of giving it back, up to
// kTrimThreshold at the top of each glibc arena (one per busy thread, at most 8 per core), so its
// RSS stays near its peak (docs/PERFORMANCE.md, "Sixth round"; docs/deploy.md, memory).
//
//   int main() { dq::TuneAllocator(std::getenv("GLIBC_TUNABLES")); ... }
#pragma once

#include <cstddef>

namespace dq {

inline constexpr size_t kMmapThreshold = 32u << 20;   // allocations from 32 MiB get their own mmap
inline constexpr size_t kTrimThreshold = 128u << 20;  // free heap kept before it is given back

// Sets both thresholds, unless the operator set any glibc.malloc tunable in GLIBC_TUNABLES
// (`glibc_tunables`, may be null): theirs win. True when it set them. Call first in main, before
// any thread starts.
bool TuneAllocator(const char* glibc_tunables);

}  // namespace dq
