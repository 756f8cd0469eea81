// The fairness gate: per-account and per-destination limits, and the breaker's states (closed,
// open, half open) with a doubling cooldown.
#include "dq/webhook/fair_gate.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace dq::webhook {
namespace {

FairnessLimits Limits() {
  FairnessLimits l;
  l.per_account = 2;
  l.per_host = 3;
  l.breaker_failures = 3;
  l.cooldown_ms = 1000;
  l.max_cooldown_ms = 3000;
  return l;
}

TEST(FairGateTest, AnAccountHasAtMostItsOwnAttemptsInFlight) {
  FairGate gate(Limits());
  EXPECT_EQ(gate.Admit("a", "h1:443", 0), Admission::kGo);
  EXPECT_EQ(gate.Admit("a", "h2:443", 0), Admission::kGo);
  EXPECT_EQ(gate.Admit("a", "h3:443", 0), Admission::kAccountBusy);
  EXPECT_EQ(gate.Admit("b", "h3:443", 0), Admission::kGo);  // others are not held back
  EXPECT_EQ(gate.BusyAccounts(), std::vector<std::string>{"a"});
  gate.Done("a", "h1:443", Reach::kAnswered, 1);
  EXPECT_EQ(gate.InFlight("a"), 1);
  EXPECT_EQ(gate.Admit("a", "h3:443", 1), Admission::kGo);
}

TEST(FairGateTest, ADestinationHasAtMostItsAttemptsInFlightWhateverTheAccounts) {
  FairGate gate(Limits());
  EXPECT_EQ(gate.Admit("a", "sink:443", 0), Admission::kGo);
  EXPECT_EQ(gate.Admit("b", "sink:443", 0), Admission::kGo);
  EXPECT_EQ(gate.Admit("c", "sink:443", 0), Admission::kGo);
  EXPECT_EQ(gate.Admit("d", "sink:443", 0), Admission::kHostBusy);
  EXPECT_EQ(gate.Admit("d", "other:443", 0), Admission::kGo);
  // Accounts last seen sending to the full destination are left on the schedule.
  auto busy = gate.BusyAccounts();
  std::sort(busy.begin(), busy.end());
  EXPECT_EQ(busy, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(FairGateTest, RepeatedSilenceOpensTheBreakerForACooldownThenOneProbe) {
  FairGate gate(Limits());
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(gate.Admit("a", "dead:443", 100), Admission::kGo);
    gate.Done("a", "dead:443", Reach::kNoAnswer, 100);
  }
  EXPECT_EQ(gate.OpenUntil("dead:443"), 1100);
  EXPECT_EQ(gate.Admit("a", "dead:443", 500), Admission::kHostOpen);
  EXPECT_EQ(gate.Admit("b", "dead:443", 1099), Admission::kHostOpen);
  EXPECT_EQ(gate.Admit("b", "alive:443", 500), Admission::kGo);  // other destinations unaffected
  // Half open: one probe at a time.
  EXPECT_EQ(gate.Admit("a", "dead:443", 1100), Admission::kGo);
  EXPECT_EQ(gate.Admit("c", "dead:443", 1100), Admission::kHostBusy);
  // The probe gets no answer: open again for twice the cooldown.
  gate.Done("a", "dead:443", Reach::kNoAnswer, 1200);
  EXPECT_EQ(gate.OpenUntil("dead:443"), 3200);
  EXPECT_EQ(gate.Admit("a", "dead:443", 3199), Admission::kHostOpen);
  ASSERT_EQ(gate.Admit("a", "dead:443", 3200), Admission::kGo);
  gate.Done("a", "dead:443", Reach::kNoAnswer, 3300);
  EXPECT_EQ(gate.OpenUntil("dead:443"), 6300);  // 4000 capped at 3000
  // An answer of any status closes it.
  ASSERT_EQ(gate.Admit("a", "dead:443", 6300), Admission::kGo);
  gate.Done("a", "dead:443", Reach::kAnswered, 6400);
  EXPECT_EQ(gate.OpenUntil("dead:443"), 0);
  EXPECT_EQ(gate.Admit("a", "dead:443", 6400), Admission::kGo);
}

TEST(FairGateTest, AnAnswerBetweenSilencesResetsTheCount) {
  FairGate gate(Limits());
  for (Reach r : {Reach::kNoAnswer, Reach::kNoAnswer, Reach::kAnswered, Reach::kNoAnswer,
                  Reach::kNoAnswer}) {
    ASSERT_EQ(gate.Admit("a", "flaky:443", 0), Admission::kGo);
    gate.Done("a", "flaky:443", r, 0);
  }
  EXPECT_EQ(gate.OpenUntil("flaky:443"), 0);
}

TEST(FairGateTest, DestinationsAreHostAndPort) {
  EXPECT_EQ(DestinationOf("https://Hooks.Example.com/x"), "hooks.example.com:443");
  EXPECT_EQ(DestinationOf("http://127.0.0.1:8080/hook"), "127.0.0.1:8080");
  EXPECT_EQ(DestinationOf("https://[::1]:9443/"), "::1:9443");
  EXPECT_EQ(DestinationOf("not a url"), "");
}

}  // namespace
}  // namespace dq::webhook
