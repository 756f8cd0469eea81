// The long form of the S3 store's tests against a real RGW, run by scripts/s3-check.sh (not by
// CTest): a 100 MiB object in 8 MiB parts, 2,500 keys listed and deleted, and the gateway
// killed during a multipart upload. DQ_RGW_DIR names the running RGW, DQ_RGW_SCRIPT the script
// that started it.
#include <gtest/gtest.h>

#include "rgw_env.h"

namespace dq::artifact {
namespace {

std::string Pattern(size_t n, uint32_t seed) {
  std::string out(n, '\0');
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    out[i] = static_cast<char>(x >> 24);
  }
  return out;
}

TEST(S3RgwTest, FullFormLargeObjectsAndManyKeys) {
  auto store = FreshStore(8 * 1024 * 1024);
  ASSERT_NE(store, nullptr);
  const std::string big = Pattern(100 * 1024 * 1024 + 17, 9);
  auto writer = store->OpenWriter("jobs/a/j/c/cleaned.xlsx");
  ASSERT_TRUE(writer.ok());
  for (size_t at = 0; at < big.size(); at += 3'000'000) {
    ASSERT_TRUE((*writer)->Write(std::string_view(big).substr(at, 3'000'000)).ok());
  }
  ASSERT_TRUE((*writer)->Commit().ok());
  std::string back;
  ASSERT_TRUE(store
                  ->Get("jobs/a/j/c/cleaned.xlsx", ByteRange::All(),
                        [&](std::string_view b) {
                          back.append(b);
                          return Status::Ok();
                        })
                  .ok());
  EXPECT_TRUE(back == big);
  for (int i = 0; i < 2500; ++i) {
    ASSERT_TRUE(store->Put("jobs/a/j/c/issues/" + std::to_string(100000 + i) + ".zst", "p").ok());
  }
  auto all = store->ListAll("jobs/a/j/c/issues/");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 2500u);
  auto deleted = store->DeletePrefix("jobs/a/");
  ASSERT_TRUE(deleted.ok()) << deleted.status().message();
  EXPECT_EQ(*deleted, 2501);
  EXPECT_TRUE(store->ListAll("")->empty());
}

// The gateway dies during a multipart upload: the writer gives up with kUnavailable after its
// retries, nothing appears under the key, and once the gateway is back the same writer's work
// can be done again from the start.
TEST(S3RgwTest, FullFormTheGatewayKilledDuringAnUpload) {
  const char* script = std::getenv("DQ_RGW_SCRIPT");
  ASSERT_NE(script, nullptr) << "DQ_RGW_SCRIPT names scripts/start-rgw.sh";
  auto store = FreshStore();
  ASSERT_NE(store, nullptr);
  S3Options o = store->options();
  o.max_attempts = 3;
  S3ArtifactStore impatient(o);
  const std::string part = Pattern(5 * 1024 * 1024, 10);
  auto writer = impatient.OpenWriter("jobs/a/j/c/file");
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write(part).ok());  // part 1 is up
  const std::string dir = std::getenv("DQ_RGW_DIR");
  ASSERT_EQ(std::system((std::string(script) + " kill-rgw " + dir).c_str()), 0);
  Status s = (*writer)->Write(part);
  if (s.ok()) s = (*writer)->Commit();
  EXPECT_EQ(s.code(), ErrorCode::kUnavailable) << s.message();
  ASSERT_EQ(std::system((std::string(script) + " start-rgw " + dir).c_str()), 0);
  EXPECT_EQ(store->Stat("jobs/a/j/c/file").status().code(), ErrorCode::kNotFound);
  ASSERT_TRUE(store->Put("jobs/a/j/c/file", part + part).ok());
  EXPECT_EQ(store->Stat("jobs/a/j/c/file")->size, 2 * 5 * 1024 * 1024);
}

}  // namespace
}  // namespace dq::artifact
