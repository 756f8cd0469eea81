// The partitions of the job queue, the event stream and the retry set (issue 35, point 4).
#include "dq/common/partitions.h"

#include <gtest/gtest.h>

#include <set>

#include "dq/common/redis_slots.h"

namespace dq {
namespace {

TEST(PartitionsTest, AnAccountAlwaysHasTheSamePartitionAndAccountsSpreadOverAll) {
  EXPECT_EQ(PartitionOf("acct_1", 16), PartitionOf("acct_1", 16));
  EXPECT_EQ(PartitionOf("123456789", 16), 0x31C3 % 16);  // CRC16 of the whole id
  EXPECT_EQ(PartitionOf("acct_1", 1), 0);
  std::set<int> seen;
  for (int i = 0; i < 1000; ++i) {
    const int p = PartitionOf("acct_" + std::to_string(i), 16);
    ASSERT_GE(p, 0);
    ASSERT_LT(p, 16);
    seen.insert(p);
  }
  EXPECT_EQ(seen.size(), 16u);
}

TEST(PartitionsTest, EachPartitionKeyHasItsOwnHashTag) {
  EXPECT_EQ(PartitionKey("dq:jobs:queue", 3), "{dq:jobs:queue:3}");
  EXPECT_EQ(PartitionKey("dq:jobs:queue", kLegacyPartition), "dq:jobs:queue");
  std::set<int> slots;
  for (int p = 0; p < 16; ++p) slots.insert(KeySlot(PartitionKey("dq:events", p)));
  EXPECT_EQ(slots.size(), 16u);
}

TEST(PartitionsTest, PartitionedIdsRoundTrip) {
  EXPECT_EQ(PartitionedId(7, "1700000000000-0"), "7/1700000000000-0");
  auto id = ParsePartitionedId("7/1700000000000-0");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->first, 7);
  EXPECT_EQ(id->second, "1700000000000-0");
  id = ParsePartitionedId(PartitionedId(kLegacyPartition, "1-0"));
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->first, kLegacyPartition);
  EXPECT_FALSE(ParsePartitionedId("1700000000000-0").has_value());
  EXPECT_FALSE(ParsePartitionedId("x/1-0").has_value());
  EXPECT_FALSE(ParsePartitionedId("3/").has_value());
  EXPECT_FALSE(ParsePartitionedId("-2/1-0").has_value());
}

TEST(PartitionsTest, WorkersShareEveryPartition) {
  // Fewer workers than partitions: each takes every workers-th partition, none twice.
  EXPECT_EQ(PartitionShare(0, 2, 16), (std::vector<int>{0, 2, 4, 6, 8, 10, 12, 14}));
  EXPECT_EQ(PartitionShare(1, 2, 16), (std::vector<int>{1, 3, 5, 7, 9, 11, 13, 15}));
  for (int workers : {1, 3, 5, 16, 40}) {
    std::multiset<int> all;
    for (int i = 0; i < workers; ++i) {
      for (int p : PartitionShare(i, workers, 16)) all.insert(p);
    }
    for (int p = 0; p < 16; ++p) EXPECT_GE(all.count(p), 1u) << workers << " workers";
    if (workers <= 16) { EXPECT_EQ(all.size(), 16u) << workers << " workers"; }
  }
  // More workers than partitions: one each.
  EXPECT_EQ(PartitionShare(17, 40, 16), (std::vector<int>{1}));
}

}  // namespace
}  // namespace dq
