#include "dq/common/allocator.h"

#include <malloc.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string_view>

namespace dq {

bool TuneAllocator(const char* glibc_tunables) {
  if (glibc_tunables != nullptr &&
      std::string_view(glibc_tunables).find("glibc.malloc.") != std::string_view::npos) {
    return false;
  }
  // Setting either threshold also turns off glibc's moving of the mmap threshold, so both are set.
  return mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThreshold)) == 1 &&
         mallopt(M_TRIM_THRESHOLD, static_cast<int>(kTrimThreshold)) == 1;
}

ZeroedBlock::ZeroedBlock(size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  if (bytes < kHugePageBytes) {
    data_ = std::calloc(1, bytes);
    if (data_ == nullptr) throw std::bad_alloc();
    return;
  }
  // Mapped with a huge page's worth to spare, then trimmed, so the block starts on a huge-page
  // boundary (the kernel can only back aligned 2 MiB ranges with huge pages).
  const size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  const size_t span = rounded + kHugePageBytes;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePageBytes - 1) & ~(uintptr_t{kHugePageBytes} - 1);
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = start + span;
  if (end > aligned + rounded) {
    munmap(reinterpret_cast<void*>(aligned + rounded), end - aligned - rounded);
  }
  data_ = reinterpret_cast<void*>(aligned);
  mapped_bytes_ = rounded;
  (void)madvise(data_, rounded, MADV_HUGEPAGE);  // advice: without THP, normal pages serve
}

ZeroedBlock::~ZeroedBlock() { Release(); }

ZeroedBlock& ZeroedBlock::operator=(ZeroedBlock&& other) noexcept {
  if (this != &other) {
    Release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_bytes_ = std::exchange(other.mapped_bytes_, 0);
  }
  return *this;
}

void ZeroedBlock::Release() {
  if (data_ == nullptr) return;
  if (mapped_bytes_ != 0) {
    munmap(data_, mapped_bytes_);
  } else {
    std::free(data_);
  }
  data_ = nullptr;
  size_ = 0;
  mapped_bytes_ = 0;
}

}  // namespace dq
