// The fake's fault plan: every step of a small flow fails once, before it acts (nothing
// happened) and after it (it happened; only the answer was lost), as the job fakes' do.
#include "dq/testing/in_memory_artifact_store.h"

#include <gtest/gtest.h>

namespace dq::testing {
namespace {

// put, write, commit, get, stat, list, delete: seven steps.
struct Outcome {
  std::vector<Status> statuses;
  std::map<std::string, std::string> objects_before_delete;
  std::map<std::string, std::string> objects_at_end;
};

Outcome RunFlow(InMemoryArtifactStore& store) {
  Outcome out;
  out.statuses.push_back(store.Put("jobs/a/j/c/summary.json", "{}"));
  auto writer = store.OpenWriter("jobs/a/j/c/issues/000001.zst");
  EXPECT_TRUE(writer.ok());
  Status w = (*writer)->Write("page");
  out.statuses.push_back(w);
  out.statuses.push_back(w.ok() ? (*writer)->Commit() : Status(ErrorCode::kAborted, "skipped"));
  std::string got;
  out.statuses.push_back(store.Get("jobs/a/j/c/summary.json", artifact::ByteRange::All(),
                                   [&](std::string_view b) {
                                     got.append(b);
                                     return Status::Ok();
                                   }));
  out.statuses.push_back(store.Stat("jobs/a/j/c/summary.json").status());
  out.statuses.push_back(store.List("jobs/", "", 10).status());
  out.objects_before_delete = store.objects();
  out.statuses.push_back(store.DeletePrefix("jobs/a/").status());
  out.objects_at_end = store.objects();
  return out;
}

TEST(InMemoryArtifactStoreTest, EveryStepFailsOnceBeforeOrAfterItActs) {
  const std::vector<std::string> kSteps = {"artifact.put",  "artifact.write", "artifact.commit",
                                           "artifact.get",  "artifact.stat",  "artifact.list",
                                           "artifact.delete"};
  FaultPlan clean;
  InMemoryArtifactStore reference(&clean);
  const Outcome ok = RunFlow(reference);
  ASSERT_EQ(clean.log, kSteps);
  for (const Status& s : ok.statuses) EXPECT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(ok.objects_before_delete.size(), 2u);

  for (bool after : {false, true}) {
    for (int step = 1; step <= static_cast<int>(kSteps.size()); ++step) {
      SCOPED_TRACE(kSteps[step - 1] + (after ? " after" : " before"));
      FaultPlan plan{step, after};
      InMemoryArtifactStore store(&plan);
      const Outcome got = RunFlow(store);
      EXPECT_EQ(got.statuses[step - 1].code(), ErrorCode::kUnavailable);
      EXPECT_EQ(got.statuses[step - 1].message(), "injected: artifact store unreachable");
      // What the failing step would have done happened only when it failed after acting.
      if (kSteps[step - 1] == "artifact.put") {
        EXPECT_EQ(got.objects_before_delete.count("jobs/a/j/c/summary.json"), after ? 1u : 0u);
      }
      if (kSteps[step - 1] == "artifact.commit") {
        EXPECT_EQ(got.objects_before_delete.count("jobs/a/j/c/issues/000001.zst"),
                  after ? 1u : 0u);
      }
      if (kSteps[step - 1] == "artifact.write") {
        // A writer that failed is spent: nothing of it is ever visible.
        EXPECT_EQ(got.objects_before_delete.count("jobs/a/j/c/issues/000001.zst"), 0u);
      }
      if (kSteps[step - 1] == "artifact.delete") {
        EXPECT_EQ(got.objects_at_end.empty(), after);
      }
      EXPECT_EQ(store.open_writers(), 0);
    }
  }
}

TEST(InMemoryArtifactStoreTest, DownRefusesEverything) {
  InMemoryArtifactStore store;
  ASSERT_TRUE(store.Put("jobs/a/j/c/x", "1234").ok());
  EXPECT_EQ(store.bytes_stored(), 4);
  store.set_down(true);
  EXPECT_EQ(store.Put("jobs/a/j/c/y", "y").code(), ErrorCode::kUnavailable);
  EXPECT_EQ(store.Stat("jobs/a/j/c/x").status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(store.OpenWriter("jobs/a/j/c/z").status().code(), ErrorCode::kUnavailable);
  store.set_down(false);
  EXPECT_EQ(store.Stat("jobs/a/j/c/x")->size, 4);
}

}  // namespace
}  // namespace dq::testing
