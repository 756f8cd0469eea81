// What the fs store promises beyond the shared contract (store_contract_test.cpp): where its
// files are, that its temporary files never show, and what a reader holds on to.
#include "dq/artifact/fs_artifact_store.h"

#include <gtest/gtest.h>
#include <utime.h>

#include <filesystem>
#include <fstream>

namespace dq::artifact {
namespace {

namespace fs = std::filesystem;

class FsStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/dq-fs-test-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    auto store = FsArtifactStore::Open(dir_ + "/root/");
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(*store);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
  std::unique_ptr<FsArtifactStore> store_;
};

TEST_F(FsStoreTest, AnObjectIsAFileAtItsKey) {
  ASSERT_TRUE(store_->Put("jobs/a/j/c/issues/000001.zst", "page").ok());
  EXPECT_EQ(store_->root(), dir_ + "/root");
  std::ifstream in(dir_ + "/root/jobs/a/j/c/issues/000001.zst");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "page");
  EXPECT_TRUE(fs::is_empty(dir_ + "/root/.tmp"));  // the temporary file was renamed away
}

TEST_F(FsStoreTest, AnOpenWritersTemporaryFileIsNeverListed) {
  auto writer = store_->OpenWriter("jobs/a/j/c/big");
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write("half").ok());
  EXPECT_FALSE(fs::is_empty(dir_ + "/root/.tmp"));
  auto all = store_->ListAll("");
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->empty());
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ(store_->ListAll("")->size(), 1u);
  EXPECT_TRUE(fs::is_empty(dir_ + "/root/.tmp"));
}

TEST_F(FsStoreTest, StaleTemporaryFilesAreRemovedYoungOnesKept) {
  std::ofstream(dir_ + "/root/.tmp/old") << "left by a crash";
  std::ofstream(dir_ + "/root/.tmp/new") << "a writer at work";
  struct utimbuf old_time {1'000'000'000, 1'000'000'000};
  ASSERT_EQ(::utime((dir_ + "/root/.tmp/old").c_str(), &old_time), 0);
  auto removed = store_->RemoveTemporaries(std::chrono::hours(1));
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 1);
  EXPECT_FALSE(fs::exists(dir_ + "/root/.tmp/old"));
  EXPECT_TRUE(fs::exists(dir_ + "/root/.tmp/new"));
}

TEST_F(FsStoreTest, AReadThatBeganKeepsItsBytesWhenTheObjectIsDeleted) {
  const std::string bytes(1'000'000, 'q');
  ASSERT_TRUE(store_->Put("jobs/a/j/c/cleaned.csv", bytes).ok());
  std::string got;
  bool deleted = false;
  Status s = store_->Get("jobs/a/j/c/cleaned.csv", ByteRange::All(), [&](std::string_view b) {
    got.append(b);
    if (!deleted) {
      deleted = true;
      EXPECT_EQ(*store_->DeletePrefix("jobs/a/j/"), 1);
    }
    return Status::Ok();
  });
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(got, bytes);
  EXPECT_EQ(store_->Stat("jobs/a/j/c/cleaned.csv").status().code(), ErrorCode::kNotFound);
  EXPECT_FALSE(fs::exists(dir_ + "/root/jobs/a/j"));  // the job's directory went too
}

TEST_F(FsStoreTest, AKeyUnderAnObjectIsRefusedWithTheReason) {
  ASSERT_TRUE(store_->Put("jobs/a/x", "file").ok());
  Status s = store_->Put("jobs/a/x/y", "below a file");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(s.message(), "cannot store " + dir_ +
                             "/root/jobs/a/x/y: Not a directory (a key cannot be both an object "
                             "and a prefix of another)");
  EXPECT_TRUE(fs::is_empty(dir_ + "/root/.tmp"));
}

}  // namespace
}  // namespace dq::artifact
