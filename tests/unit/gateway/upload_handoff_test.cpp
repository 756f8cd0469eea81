// The raw pieces an upload leaves for the process's own workers (jobs/upload_handoff.h): each
// piece is handed out once and only for its job, the bytes kept stay within the bound (oldest
// out first), entries go after their age, and a runner given the handoff reads the pieces there
// instead of the store, with the same outcome.
#include "jobs/upload_handoff.h"

#include <gtest/gtest.h>

#include "dq/testing/fake_clock.h"

namespace dq::gateway {
namespace {

using testing::FakeClock;

TEST(UploadHandoffTest, EachPieceIsHandedOutOnceAndOnlyForItsJob) {
  FakeClock clock;
  UploadHandoff h(1000, std::chrono::seconds(30), clock);
  ASSERT_TRUE(h.Keep("a", "j1", {"abc", "de"}));
  EXPECT_EQ(h.bytes(), 5u);
  EXPECT_FALSE(h.Take("b", "j1", 0));  // another account's job of that id
  EXPECT_FALSE(h.Take("a", "j2", 0));
  EXPECT_FALSE(h.Take("a", "j1", 2));  // no such piece
  EXPECT_FALSE(h.Take("a", "j1", -1));
  EXPECT_EQ(*h.Take("a", "j1", 1), "de");
  EXPECT_FALSE(h.Take("a", "j1", 1));  // handed out already: the store has it
  EXPECT_EQ(h.bytes(), 3u);
  EXPECT_EQ(*h.Take("a", "j1", 0), "abc");
  EXPECT_EQ(h.bytes(), 0u);
}

TEST(UploadHandoffTest, TheOldestGoFirstToStayWithinTheBoundAndTooLargeIsNotKept) {
  FakeClock clock;
  UploadHandoff h(10, std::chrono::seconds(30), clock);
  ASSERT_TRUE(h.Keep("a", "j1", {"1234"}));
  ASSERT_TRUE(h.Keep("a", "j2", {"5678"}));
  ASSERT_TRUE(h.Keep("a", "j3", {"90ab"}));  // 12 bytes: j1 goes
  EXPECT_EQ(h.bytes(), 8u);
  EXPECT_FALSE(h.Take("a", "j1", 0));
  EXPECT_EQ(*h.Take("a", "j2", 0), "5678");
  EXPECT_FALSE(h.Keep("a", "j4", {"0123456789", "x"}));  // more than the bound alone
  EXPECT_FALSE(h.Keep("a", "j5", {}));
  EXPECT_EQ(*h.Take("a", "j3", 0), "90ab");
}

TEST(UploadHandoffTest, EntriesGoAfterTheirAge) {
  FakeClock clock;
  UploadHandoff h(1000, std::chrono::seconds(30), clock);
  ASSERT_TRUE(h.Keep("a", "j1", {"abc"}));
  clock.Advance(std::chrono::seconds(20));
  ASSERT_TRUE(h.Keep("a", "j2", {"def"}));
  clock.Advance(std::chrono::seconds(11));  // j1 is 31 s old, j2 11 s
  EXPECT_FALSE(h.Take("a", "j1", 0));
  EXPECT_EQ(h.bytes(), 3u);
  EXPECT_EQ(*h.Take("a", "j2", 0), "def");
}

}  // namespace
}  // namespace dq::gateway
