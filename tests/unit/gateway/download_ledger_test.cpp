// The downloads in progress: what they hold, which are cut (stalled too long, or stalled while
// all of them together hold more than the budget) and when a new one is refused.
#include "dq/http/download_ledger.h"

#include <gtest/gtest.h>

#include <string>

namespace dq::http {
namespace {

using std::chrono::milliseconds;

DownloadLimits Limits(int64_t stall_ms, size_t memory, int64_t grace_ms = 1000) {
  DownloadLimits l;
  l.stall_timeout = milliseconds(stall_ms);
  l.memory_bytes = memory;
  l.pressure_grace = milliseconds(grace_ms);
  return l;
}

struct Cuts {
  std::string log;
  DownloadLedger::Cut Named(std::string name) {
    return [this, name] { log += name + ";"; };
  }
};

TEST(DownloadLedgerTest, HeldBytesAndTheGaugeFollowUpdatesAndClose) {
  GaugeMetric gauge;
  DownloadLedger ledger(Limits(30000, 1 << 20), &gauge);
  auto a = ledger.Open(0, 0, [] {});
  auto b = ledger.Open(0, 0, [] {});
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
  ledger.Update(*a, 1000, 0);
  ledger.Update(*b, 300, std::nullopt);
  EXPECT_EQ(ledger.held(), 1300u);
  EXPECT_EQ(gauge.value(), 1300);
  ledger.Update(*a, 200, 5);  // a smaller part now
  EXPECT_EQ(ledger.held(), 500u);
  EXPECT_EQ(gauge.value(), 500);
  ledger.Close(*a);
  ledger.Close(*a);  // idempotent
  EXPECT_EQ(ledger.held(), 300u);
  EXPECT_EQ(ledger.open(), 1u);
  ledger.Close(*b);
  EXPECT_EQ(ledger.held(), 0u);
  EXPECT_EQ(gauge.value(), 0);
  ledger.Update(*b, 99, 1);  // after Close: ignored
  EXPECT_EQ(ledger.held(), 0u);
}

TEST(DownloadLedgerTest, ADownloadThatHasNotMovedForTheStallTimeoutIsCutOnce) {
  Cuts cuts;
  DownloadLedger ledger(Limits(30000, 1 << 30));
  auto moving = ledger.Open(0, 0, cuts.Named("moving"));
  auto stalled = ledger.Open(0, 0, cuts.Named("stalled"));
  ledger.Update(*stalled, 1 << 20, 1000);
  for (int64_t t = 0; t <= 31000; t += 250) {
    ledger.Update(*moving, 4096, t);
    for (auto& cut : ledger.Sweep(t)) cut();
  }
  EXPECT_EQ(cuts.log, "");  // 30 s since 1000: not yet past the timeout
  ledger.Update(*moving, 4096, 31001);
  for (auto& cut : ledger.Sweep(31001)) cut();
  EXPECT_EQ(cuts.log, "stalled;");
  for (auto& cut : ledger.Sweep(90000)) cut();  // the moving one is stale now too
  EXPECT_EQ(cuts.log, "stalled;moving;");
  for (auto& cut : ledger.Sweep(200000)) cut();  // each cut is handed out once
  EXPECT_EQ(cuts.log, "stalled;moving;");
  // What a cut download holds counts until its producer is released (Close).
  EXPECT_EQ(ledger.held(), (1u << 20) + 4096u);
  ledger.Close(*stalled);
  EXPECT_EQ(ledger.held(), 4096u);
}

TEST(DownloadLedgerTest, OverTheBudgetTheLongestStalledAreCutUntilTheRestFit) {
  Cuts cuts;
  DownloadLedger ledger(Limits(30000, 1000, /*grace_ms=*/1000));
  auto a = ledger.Open(0, 0, cuts.Named("a"));
  auto b = ledger.Open(0, 0, cuts.Named("b"));
  auto c = ledger.Open(0, 0, cuts.Named("c"));
  auto d = ledger.Open(0, 0, cuts.Named("d"));
  ledger.Update(*a, 400, 100);   // stalled since 100
  ledger.Update(*b, 400, 50);    // stalled since 50: the longest
  ledger.Update(*c, 400, 900);   // stalled since 900
  ledger.Update(*d, 400, 1500);  // moved 500 ms ago: within the grace
  // 1600 bytes held, 1000 allowed: b, then a, go; c and d fit (800).
  for (auto& cut : ledger.Sweep(2000)) cut();
  EXPECT_EQ(cuts.log, "b;a;");
  // Their memory is still counted until they are closed, but they are not cut again.
  for (auto& cut : ledger.Sweep(2100)) cut();
  EXPECT_EQ(cuts.log, "b;a;");
}

TEST(DownloadLedgerTest, DownloadsThatKeepMovingAreNotCutOverTheBudget) {
  Cuts cuts;
  DownloadLedger ledger(Limits(30000, 1000));
  auto a = ledger.Open(0, 0, cuts.Named("a"));
  auto b = ledger.Open(0, 0, cuts.Named("b"));
  ledger.Update(*a, 800, 4800);
  ledger.Update(*b, 800, 4900);
  for (auto& cut : ledger.Sweep(5000)) cut();
  EXPECT_EQ(cuts.log, "");
  EXPECT_EQ(ledger.held(), 1600u);
}

TEST(DownloadLedgerTest, WhatADownloadHoldsWhenItIsAdmittedCountsAtOnce) {
  GaugeMetric gauge;
  DownloadLedger ledger(Limits(30000, 1000), &gauge);
  auto a = ledger.Open(0, 1200, [] {});  // under the budget when asked: admitted, whatever size
  ASSERT_TRUE(a);
  EXPECT_EQ(ledger.held(), 1200u);
  EXPECT_EQ(gauge.value(), 1200);
  EXPECT_FALSE(ledger.Open(0, 1, [] {}).has_value());  // the next sees it at once
  ledger.Close(*a);
  EXPECT_EQ(gauge.value(), 0);
}

TEST(DownloadLedgerTest, ANewDownloadIsRefusedWhileTheBudgetIsHeld) {
  DownloadLedger ledger(Limits(30000, 1000));
  auto a = ledger.Open(0, 0, [] {});
  ASSERT_TRUE(a);
  ledger.Update(*a, 999, 0);
  auto b = ledger.Open(0, 0, [] {});
  ASSERT_TRUE(b);  // under the budget: admitted
  ledger.Update(*b, 1, 0);
  EXPECT_FALSE(ledger.Open(0, 0, [] {}).has_value());  // 1000 held of 1000
  ledger.Close(*b);
  EXPECT_TRUE(ledger.Open(0, 0, [] {}).has_value());
}

// Full says what Open would answer now, without counting anything.
TEST(DownloadLedgerTest, FullIsWhatOpenWouldAnswer) {
  DownloadLedger ledger(DownloadLimits{std::chrono::milliseconds(1000), 100});
  EXPECT_FALSE(ledger.Full());
  auto a = ledger.Open(0, 99, [] {});
  ASSERT_TRUE(a.has_value());
  EXPECT_FALSE(ledger.Full());
  ledger.Update(*a, 100, std::nullopt);
  EXPECT_TRUE(ledger.Full());
  EXPECT_FALSE(ledger.Open(0, 1, [] {}).has_value());
  EXPECT_EQ(ledger.open(), 1u);
  ledger.Close(*a);
  EXPECT_FALSE(ledger.Full());
}

}  // namespace
}  // namespace dq::http
