// TuneAllocator: a large buffer, once freed, stays in the heap for the next one instead of going
// back to the kernel; a buffer past kMmapThreshold still gets its own mapping; an operator's own
// glibc.malloc tunables win.
#include "dq/common/allocator.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace dq {
namespace {

// Under AddressSanitizer (or another malloc of its own) mallopt does nothing, and these tests
// have nothing to check.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kOwnMalloc = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
constexpr bool kOwnMalloc = true;
#else
constexpr bool kOwnMalloc = false;
#endif
#else
constexpr bool kOwnMalloc = false;
#endif

// Allocates and touches n bytes, so the compiler cannot drop the allocation.
void* Touched(size_t n) {
  void* p = std::malloc(n);
  std::memset(p, 1, n);
  asm volatile("" : : "r"(p) : "memory");
  return p;
}

TEST(AllocatorTest, ABufferOfMegabytesComesFromTheHeapAndStaysThereWhenFreed) {
  if (kOwnMalloc) GTEST_SKIP() << "a sanitizer's malloc: mallopt does nothing";
  ASSERT_TRUE(TuneAllocator(nullptr));
  constexpr size_t kBuffer = 8u << 20;
  const size_t mapped_before = mallinfo2().hblks;
  void* p = Touched(kBuffer);
  EXPECT_EQ(mallinfo2().hblks, mapped_before) << "8 MiB got a mapping of its own";
  const size_t free_before = mallinfo2().fordblks;
  std::free(p);
  // Freed, it is kept (not trimmed back to the kernel): the heap's free bytes grew by it.
  EXPECT_GE(mallinfo2().fordblks, free_before + kBuffer);
  // The next buffer of that size reuses it: the heap does not grow.
  const size_t arena = mallinfo2().arena;
  void* again = Touched(kBuffer);
  EXPECT_EQ(mallinfo2().arena, arena);
  std::free(again);
}

TEST(AllocatorTest, ABufferPastTheMmapThresholdStillGetsItsOwnMapping) {
  if (kOwnMalloc) GTEST_SKIP() << "a sanitizer's malloc: mallopt does nothing";
  ASSERT_TRUE(TuneAllocator(nullptr));
  const size_t mapped_before = mallinfo2().hblks;
  void* p = Touched(kMmapThreshold + (1u << 20));
  EXPECT_EQ(mallinfo2().hblks, mapped_before + 1);
  std::free(p);
  EXPECT_EQ(mallinfo2().hblks, mapped_before);
}

TEST(AllocatorTest, TheOperatorsMallocTunablesWin) {
  if (kOwnMalloc) GTEST_SKIP() << "a sanitizer's malloc: mallopt does nothing";
  EXPECT_FALSE(TuneAllocator("glibc.malloc.arena_max=2"));
  EXPECT_FALSE(TuneAllocator("glibc.rtld.nns=4:glibc.malloc.trim_threshold=0"));
  EXPECT_TRUE(TuneAllocator("glibc.rtld.nns=4"));
  EXPECT_TRUE(TuneAllocator(""));
}

bool AllZero(const ZeroedBlock& b) {
  const auto* bytes = static_cast<const unsigned char*>(b.data());
  for (size_t i = 0; i < b.size(); ++i) {
    if (bytes[i] != 0) return false;
  }
  return true;
}

TEST(ZeroedBlockTest, ASmallBlockIsZeroAndComesFromTheHeap) {
  ZeroedBlock b(4096);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), 4096u);
  EXPECT_FALSE(b.mapped());
  EXPECT_TRUE(AllZero(b));
  static_cast<unsigned char*>(b.data())[4095] = 1;  // writable to its end
}

TEST(ZeroedBlockTest, ALargeBlockIsItsOwnMappingOnAHugePageBoundary) {
  const size_t bytes = 3 * ZeroedBlock::kHugePageBytes + 12345;  // not a whole number of them
  ZeroedBlock b(bytes);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), bytes);
  EXPECT_TRUE(b.mapped());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % ZeroedBlock::kHugePageBytes, 0u);
  EXPECT_TRUE(AllZero(b));
  auto* bytes_of = static_cast<unsigned char*>(b.data());
  bytes_of[0] = 1;
  bytes_of[bytes - 1] = 1;
}

TEST(ZeroedBlockTest, AMovedBlockIsOwnedOnce) {
  ZeroedBlock a(ZeroedBlock::kHugePageBytes);
  void* data = a.data();
  ZeroedBlock b = std::move(a);
  EXPECT_EQ(b.data(), data);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state
  EXPECT_EQ(a.size(), 0u);
  a = std::move(b);  // back; the block is released once, by a
  EXPECT_EQ(a.data(), data);
  ZeroedBlock none(0);
  EXPECT_EQ(none.data(), nullptr);
}

}  // namespace
}  // namespace dq
