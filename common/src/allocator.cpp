#include "dq/common/allocator.h"

#include <malloc.h>

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

}  // namespace dq
