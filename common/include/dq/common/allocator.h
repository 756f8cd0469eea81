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
#include <utility>

namespace dq {

inline constexpr size_t kMmapThreshold = 32u << 20;   // allocations from 32 MiB get their own mmap
inline constexpr size_t kTrimThreshold = 128u << 20;  // free heap kept before it is given back

// Sets both thresholds, unless the operator set any glibc.malloc tunable in GLIBC_TUNABLES
// (`glibc_tunables`, may be null): theirs win. True when it set them. Call first in main, before
// any thread starts.
bool TuneAllocator(const char* glibc_tunables);

// A zero-filled block for a large table read at random places (the validator's key tables, 32 MiB
// for a million keys). A block of kHugePageBytes or more is mapped on its own, rounded up to a
// whole number of huge pages, and the kernel is asked to back it with transparent huge pages
// (madvise, what Linux's default THP mode "madvise" waits for). A 32 MiB table then takes 16
// page faults instead of 8,192, and a probe at a random place no longer misses the TLB. Fresh
// anonymous memory is already zero, so it is not written again. Where the kernel gives no huge
// pages, the block still works, with normal pages. A smaller block comes from calloc. Throws
// std::bad_alloc when memory cannot be had, as a std::vector would.
class ZeroedBlock {
 public:
  static constexpr size_t kHugePageBytes = size_t{2} << 20;

  ZeroedBlock() = default;
  explicit ZeroedBlock(size_t bytes);
  ~ZeroedBlock();
  ZeroedBlock(ZeroedBlock&& other) noexcept { *this = std::move(other); }
  ZeroedBlock& operator=(ZeroedBlock&& other) noexcept;
  ZeroedBlock(const ZeroedBlock&) = delete;
  ZeroedBlock& operator=(const ZeroedBlock&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }
  bool mapped() const { return mapped_bytes_ != 0; }  // its own mapping (huge pages asked for)

 private:
  void Release();
  void* data_ = nullptr;
  size_t size_ = 0;
  size_t mapped_bytes_ = 0;
};

}  // namespace dq
