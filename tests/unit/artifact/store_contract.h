// The ArtifactStore contract (dq/artifact/artifact_store.h) as one typed test suite, run against
// every implementation: the fs store and the fake (tests/unit/artifact), and the S3 store against
// a real RADOS Gateway (tests/integration/artifact). A Factory type gives
//   std::unique_ptr<ArtifactStore> Make();   // an empty store
//   static constexpr int64_t kPartBytes;     // the size past which a writer uses parts
//
//   INSTANTIATE_TYPED_TEST_SUITE_P(Fs, ArtifactStoreContract, FsFactory);
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <ctime>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dq/artifact/artifact_store.h"

namespace dq::artifact::contract {

// Bytes that are not text: every value, zeros included, in an order that repeats rarely.
inline std::string Pattern(size_t n, uint32_t seed) {
  std::string out(n, '\0');
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    out[i] = static_cast<char>(x >> 24);
  }
  return out;
}

template <typename Factory>
class ArtifactStoreContract : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = factory_.Make();
    ASSERT_NE(store_, nullptr);
  }

  std::string Read(std::string_view key, ByteRange range = ByteRange::All()) {
    std::string out;
    Status s = store_->Get(key, range, [&](std::string_view bytes) {
      out.append(bytes);
      return Status::Ok();
    });
    EXPECT_TRUE(s.ok()) << s.message();
    return out;
  }

  std::vector<std::string> Keys(std::string_view prefix) {
    auto all = store_->ListAll(prefix);
    EXPECT_TRUE(all.ok()) << all.status().message();
    std::vector<std::string> keys;
    if (all.ok()) {
      for (const auto& o : *all) keys.push_back(o.key);
    }
    return keys;
  }

  Factory factory_;
  std::unique_ptr<ArtifactStore> store_;
};

TYPED_TEST_SUITE_P(ArtifactStoreContract);

TYPED_TEST_P(ArtifactStoreContract, PutThenGetGivesBackTheBytes) {
  const std::string bytes = Pattern(300'001, 1);
  ASSERT_TRUE(this->store_->Put("jobs/a/j/c/file/000000.zst", bytes).ok());
  EXPECT_EQ(this->Read("jobs/a/j/c/file/000000.zst"), bytes);
  auto info = this->store_->Stat("jobs/a/j/c/file/000000.zst");
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->size, 300'001);
  EXPECT_NEAR(static_cast<double>(info->modified), static_cast<double>(std::time(nullptr)), 600);
  auto listed = this->store_->List("jobs/", "", 10);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->objects.size(), 1u);
  EXPECT_NEAR(static_cast<double>(listed->objects[0].modified),
              static_cast<double>(std::time(nullptr)), 600);
}

TYPED_TEST_P(ArtifactStoreContract, APutReplacesTheWholeObject) {
  ASSERT_TRUE(this->store_->Put("jobs/a/j/c/summary.json", Pattern(5000, 2)).ok());
  ASSERT_TRUE(this->store_->Put("jobs/a/j/c/summary.json", "short").ok());
  EXPECT_EQ(this->Read("jobs/a/j/c/summary.json"), "short");
}

TYPED_TEST_P(ArtifactStoreContract, AnEmptyObjectIsAnObject) {
  ASSERT_TRUE(this->store_->Put("jobs/a/j/c/empty", "").ok());
  auto info = this->store_->Stat("jobs/a/j/c/empty");
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->size, 0);
  EXPECT_EQ(this->Read("jobs/a/j/c/empty"), "");
  EXPECT_EQ(this->Read("jobs/a/j/c/empty", {0, 10}), "");
}

TYPED_TEST_P(ArtifactStoreContract, AMissingObjectIsNotFound) {
  Status s = this->store_->Get("jobs/a/j/c/none", ByteRange::All(),
                               [](std::string_view) { return Status::Ok(); });
  EXPECT_EQ(s.code(), ErrorCode::kNotFound);
  EXPECT_EQ(this->store_->Stat("jobs/a/j/c/none").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(this->store_->Get("jobs/a/j/c/none", {0, 0}, [](std::string_view) {
              return Status::Ok();
            }).code(),
            ErrorCode::kNotFound);
}

TYPED_TEST_P(ArtifactStoreContract, RangesAreCutAtTheEnd) {
  const std::string bytes = Pattern(10'000, 3);
  ASSERT_TRUE(this->store_->Put("jobs/a/j/c/r", bytes).ok());
  EXPECT_EQ(this->Read("jobs/a/j/c/r", {1000, 1000}), bytes.substr(1000, 1000));
  EXPECT_EQ(this->Read("jobs/a/j/c/r", {9000, -1}), bytes.substr(9000));
  EXPECT_EQ(this->Read("jobs/a/j/c/r", {9990, 500}), bytes.substr(9990));  // cut at the end
  EXPECT_EQ(this->Read("jobs/a/j/c/r", {10'000, 10}), "");                 // starts at the end
  EXPECT_EQ(this->Read("jobs/a/j/c/r", {20'000, -1}), "");                 // and past it
  EXPECT_EQ(this->Read("jobs/a/j/c/r", {5, 0}), "");
}

TYPED_TEST_P(ArtifactStoreContract, ASinkThatRefusesStopsTheRead) {
  ASSERT_TRUE(this->store_->Put("jobs/a/j/c/big", Pattern(2'000'000, 4)).ok());
  int64_t seen = 0;
  int calls = 0;
  Status s = this->store_->Get("jobs/a/j/c/big", ByteRange::All(), [&](std::string_view bytes) {
    seen += static_cast<int64_t>(bytes.size());
    ++calls;
    return Status(ErrorCode::kUnavailable, "the client went away");
  });
  EXPECT_EQ(s.code(), ErrorCode::kUnavailable);
  EXPECT_EQ(s.message(), "the client went away");
  EXPECT_EQ(calls, 1);
  EXPECT_LT(seen, 2'000'000);  // delivered in pieces, never the whole object at once
}

TYPED_TEST_P(ArtifactStoreContract, AWritersObjectAppearsOnlyAtCommit) {
  // Larger than two parts, so the S3 store makes a multipart upload of three parts.
  const std::string bytes = Pattern(static_cast<size_t>(2 * TypeParam::kPartBytes + 12'345), 5);
  auto writer = this->store_->OpenWriter("jobs/a/j/c/cleaned.xlsx");
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  for (size_t at = 0; at < bytes.size(); at += 1'000'000) {
    ASSERT_TRUE((*writer)->Write(std::string_view(bytes).substr(at, 1'000'000)).ok());
    EXPECT_EQ(this->store_->Stat("jobs/a/j/c/cleaned.xlsx").status().code(), ErrorCode::kNotFound);
  }
  EXPECT_EQ((*writer)->bytes_written(), static_cast<int64_t>(bytes.size()));
  Status committed = (*writer)->Commit();
  ASSERT_TRUE(committed.ok()) << committed.message();
  EXPECT_EQ(this->store_->Stat("jobs/a/j/c/cleaned.xlsx")->size, static_cast<int64_t>(bytes.size()));
  EXPECT_TRUE(this->Read("jobs/a/j/c/cleaned.xlsx") == bytes);
  // A range across a part boundary.
  const int64_t at = TypeParam::kPartBytes - 100;
  EXPECT_TRUE(this->Read("jobs/a/j/c/cleaned.xlsx", {at, 300}) == bytes.substr(at, 300));
}

TYPED_TEST_P(ArtifactStoreContract, ASmallWriterIsOnePut) {
  auto writer = this->store_->OpenWriter("jobs/a/j/c/small");
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write("abc").ok());
  ASSERT_TRUE((*writer)->Write("def").ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ(this->Read("jobs/a/j/c/small"), "abcdef");
}

TYPED_TEST_P(ArtifactStoreContract, AnAbortedOrDroppedWriterLeavesNothing) {
  {
    auto writer = this->store_->OpenWriter("jobs/a/j/c/aborted");
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Write(Pattern(1000, 6)).ok());
    (*writer)->Abort();
    (*writer)->Abort();  // idempotent
  }
  {
    auto writer = this->store_->OpenWriter("jobs/a/j/c/dropped");
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Write(Pattern(1000, 7)).ok());
  }
  EXPECT_EQ(this->store_->Stat("jobs/a/j/c/aborted").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(this->store_->Stat("jobs/a/j/c/dropped").status().code(), ErrorCode::kNotFound);
  EXPECT_TRUE(this->Keys("").empty());
}

TYPED_TEST_P(ArtifactStoreContract, ListingsAreInByteOrderAndPage) {
  // '-' < '.' < '/' in bytes: a listing is not a directory walk.
  for (const char* key : {"jobs/a/x/2", "jobs/a/x.1", "jobs/a/x/1", "jobs/a/x-1", "jobs/b/1",
                          "jobs/a/y"}) {
    ASSERT_TRUE(this->store_->Put(key, key).ok()) << key;
  }
  EXPECT_EQ(this->Keys("jobs/a/"),
            (std::vector<std::string>{"jobs/a/x-1", "jobs/a/x.1", "jobs/a/x/1", "jobs/a/x/2",
                                      "jobs/a/y"}));
  EXPECT_EQ(this->Keys("jobs/a/x"),
            (std::vector<std::string>{"jobs/a/x-1", "jobs/a/x.1", "jobs/a/x/1", "jobs/a/x/2"}));
  EXPECT_EQ(this->Keys("jobs/a/x/"), (std::vector<std::string>{"jobs/a/x/1", "jobs/a/x/2"}));
  EXPECT_EQ(this->Keys("jobs/c/"), std::vector<std::string>{});
  EXPECT_EQ(this->Keys("").size(), 6u);

  auto first = this->store_->List("jobs/", "", 2);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->truncated);
  ASSERT_EQ(first->objects.size(), 2u);
  EXPECT_EQ(first->objects[1].key, "jobs/a/x.1");
  EXPECT_EQ(first->objects[1].size, 10);
  auto second = this->store_->List("jobs/", first->objects[1].key, 3);
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->objects.size(), 3u);
  EXPECT_EQ(second->objects[0].key, "jobs/a/x/1");
  EXPECT_EQ(second->objects[2].key, "jobs/a/y");
  EXPECT_TRUE(second->truncated);
  auto last = this->store_->List("jobs/", second->objects[2].key, 3);
  ASSERT_TRUE(last.ok());
  ASSERT_EQ(last->objects.size(), 1u);
  EXPECT_EQ(last->objects[0].key, "jobs/b/1");
  EXPECT_FALSE(last->truncated);
}

TYPED_TEST_P(ArtifactStoreContract, DeletePrefixDeletesThatPrefixOnly) {
  for (const char* key : {"jobs/a/j1/c/file/000000.zst", "jobs/a/j1/c/issues/000001.zst",
                          "jobs/a/j1/upload/file/000000.zst", "jobs/a/j10/c/summary.json"}) {
    ASSERT_TRUE(this->store_->Put(key, "x").ok());
  }
  auto deleted = this->store_->DeletePrefix("jobs/a/j1/");
  ASSERT_TRUE(deleted.ok()) << deleted.status().message();
  EXPECT_EQ(*deleted, 3);
  EXPECT_EQ(this->Keys("jobs/"), std::vector<std::string>{"jobs/a/j10/c/summary.json"});
  auto again = this->store_->DeletePrefix("jobs/a/j1/");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 0);
  // And a key can be written again where a prefix was deleted.
  ASSERT_TRUE(this->store_->Put("jobs/a/j1/c2/summary.json", "again").ok());
  EXPECT_EQ(this->Read("jobs/a/j1/c2/summary.json"), "again");
}

TYPED_TEST_P(ArtifactStoreContract, BadKeysAndPrefixesAreRefusedWithTheReason) {
  auto& store = *this->store_;
  Status s = store.Put("jobs/../etc/passwd", "x");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(s.message(), "object key \"jobs/../etc/passwd\" is not valid: a segment starts with '.'");
  EXPECT_EQ(store.Put("jobs//a", "x").message(),
            "object key \"jobs//a\" is not valid: it has an empty segment");
  EXPECT_EQ(store.Put("jobs/a b", "x").message(),
            "object key \"jobs/a b\" is not valid: only A-Z a-z 0-9 . _ - and / are allowed");
  EXPECT_EQ(store.Put("", "x").message(), "an object key cannot be empty");
  EXPECT_EQ(store.Put("jobs/a/", "x").message(),
            "object key \"jobs/a/\" is not valid: it ends with '/'");
  EXPECT_EQ(store.Stat("/jobs/a").status().code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(store.OpenWriter("jobs/.tmp/x").status().code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(store.DeletePrefix("jobs/a").status().message(),
            "a prefix to delete must end with '/', not \"jobs/a\"");
  EXPECT_EQ(store.DeletePrefix("").status().code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(store.List("jobs/", "", 0).status().message(),
            "a listing takes 1 to 1000 objects, not 0");
  EXPECT_EQ(store.List("jobs/", "", 1001).status().code(), ErrorCode::kInvalidRequest);
  EXPECT_TRUE(this->Keys("").empty());
}

// Readers racing writers of one key see one whole object or the other, never a mix or a part.
TYPED_TEST_P(ArtifactStoreContract, ReadersSeeWholeObjectsWhileTheyAreReplaced) {
  const std::string a(400'000, 'a');
  const std::string b(150'000, 'b');
  ASSERT_TRUE(this->store_->Put("jobs/a/j/c/race", a).ok());
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::atomic<int> reads{0};
  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    for (int i = 0; i < 20; ++i) {
      if (!this->store_->Put("jobs/a/j/c/race", i % 2 ? a : b).ok()) ++bad;
    }
    stop = true;
  });
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&] {
      while (!stop || reads < 4) {
        std::string got;
        Status s = this->store_->Get("jobs/a/j/c/race", ByteRange::All(), [&](std::string_view x) {
          got.append(x);
          return Status::Ok();
        });
        ++reads;
        const bool whole = got == a || got == b;
        if (!s.ok() || !whole) ++bad;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(bad, 0);
  EXPECT_GE(reads, 4);
}

REGISTER_TYPED_TEST_SUITE_P(ArtifactStoreContract, PutThenGetGivesBackTheBytes,
                            APutReplacesTheWholeObject, AnEmptyObjectIsAnObject,
                            AMissingObjectIsNotFound, RangesAreCutAtTheEnd,
                            ASinkThatRefusesStopsTheRead, AWritersObjectAppearsOnlyAtCommit,
                            ASmallWriterIsOnePut, AnAbortedOrDroppedWriterLeavesNothing,
                            ListingsAreInByteOrderAndPage, DeletePrefixDeletesThatPrefixOnly,
                            BadKeysAndPrefixesAreRefusedWithTheReason,
                            ReadersSeeWholeObjectsWhileTheyAreReplaced);

}  // namespace dq::artifact::contract
