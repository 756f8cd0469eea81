// The notifier's per-account work queue: turns across accounts, attempts in flight per account,
// and a backlog bounded by the time its attempts take.
#include "fair_queue.h"

#include <gtest/gtest.h>

namespace dq::notifier {
namespace {

WorkItem Item(const std::string& account, const std::string& id) {
  WorkItem w;
  w.kind = WorkItem::Kind::kRetry;
  w.member = id;
  w.event.account_id = account;
  w.event.delivery_id = id;
  return w;
}

FairQueueOptions Options() {
  FairQueueOptions o;
  o.capacity = 100;
  o.per_account = 2;
  o.wait_budget_ms = 1000;
  o.max_backlog = 40;
  return o;
}

TEST(FairQueueTest, AccountsTakeTurnsAndNoneHasMoreThanItsAttemptsInFlight) {
  FairQueue q(Options());
  for (int i = 0; i < 6; ++i) {
    WorkItem w = Item("big", "big-" + std::to_string(i));
    ASSERT_EQ(q.Add(w), FairQueue::Push::kQueued);
  }
  WorkItem small = Item("small", "small-0");
  ASSERT_EQ(q.Add(small), FairQueue::Push::kQueued);
  // big, small, big: the small account's item is not behind the big one's backlog.
  EXPECT_EQ(q.Take()->member, "big-0");
  EXPECT_EQ(q.Take()->member, "small-0");
  EXPECT_EQ(q.Take()->member, "big-1");
  EXPECT_EQ(q.InFlight("big"), 2);
  // big is at its two attempts: nothing more of it until one ends.
  WorkItem other = Item("other", "other-0");
  ASSERT_EQ(q.Add(other), FairQueue::Push::kQueued);
  EXPECT_EQ(q.Take()->member, "other-0");
  q.Done("big", 5);
  EXPECT_EQ(q.Take()->member, "big-2");
}

TEST(FairQueueTest, ASlowAccountHoldsAShortLineAFastOneALongOne) {
  FairQueue q(Options());
  EXPECT_EQ(q.BacklogOf("x"), 8u);  // unknown: 4 attempts per attempt in flight
  WorkItem w = Item("slow", "s");
  q.Add(w);
  q.Take();
  q.Done("slow", 2000);  // an attempt takes 2 s: the line stays at its minimum
  EXPECT_EQ(q.BacklogOf("slow"), 8u);
  for (int i = 0; i < 8; ++i) {
    WorkItem s = Item("slow", "s" + std::to_string(i));
    ASSERT_EQ(q.Add(s), FairQueue::Push::kQueued);
  }
  WorkItem more = Item("slow", "s-more");
  EXPECT_EQ(q.Add(more), FairQueue::Push::kAccountFull);
  EXPECT_EQ(more.member, "s-more");  // not moved from
  // 2 in flight x 1000 ms budget / 10 ms an attempt = 200, capped at 40.
  WorkItem f = Item("fast", "f");
  q.Add(f);
  q.Take();
  q.Done("fast", 10);
  EXPECT_EQ(q.BacklogOf("fast"), 40u);
}

TEST(FairQueueTest, ClaimRoomsLeaveCrowdedLinesAlone) {
  FairQueue q(Options());
  for (int i = 0; i < 5; ++i) {
    WorkItem w = Item("crowded", std::to_string(i));
    q.Add(w);
  }
  WorkItem one = Item("light", "l");
  q.Add(one);
  auto rooms = q.ClaimRooms();
  std::map<std::string, int> by(rooms.begin(), rooms.end());
  EXPECT_EQ(by["crowded"], 0);  // 5 of 8: more than half full
  EXPECT_EQ(by["light"], 7);
  EXPECT_EQ(q.DefaultRoom(), 8);
}

TEST(FairQueueTest, TheTotalIsBounded) {
  FairQueueOptions o = Options();
  o.capacity = 3;
  FairQueue q(o);
  for (const char* a : {"a", "b", "c"}) {
    WorkItem w = Item(a, a);
    ASSERT_EQ(q.Add(w), FairQueue::Push::kQueued);
  }
  WorkItem d = Item("d", "d");
  EXPECT_EQ(q.Add(d), FairQueue::Push::kFull);
  EXPECT_EQ(q.Space(), 0u);
  q.Take();
  EXPECT_EQ(q.Space(), 1u);
}

TEST(FairQueueTest, StopReleasesWaitingThreads) {
  FairQueue q(Options());
  std::thread taker([&] { EXPECT_FALSE(q.Take().has_value()); });
  q.Stop();
  taker.join();
  EXPECT_FALSE(q.WaitForRoom(10'000));
}

}  // namespace
}  // namespace dq::notifier
