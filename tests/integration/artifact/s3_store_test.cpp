// The S3 store against a real S3 server: Ceph's RADOS Gateway, started once for this test
// program by CTest (fixture `rgw`: scripts/start-rgw.sh, state in DQ_RGW_DIR). The same contract
// suite as the fs store and the fake (tests/unit/artifact/store_contract.h), each test in a
// bucket of its own, plus what only a real server can show: its signature checks, its multipart
// answers (RGW's empty ETag in CompleteMultipartUpload) and what an interrupted gateway does.
//
// This short form (CTest) keeps to small objects and one multipart upload of three parts;
// s3_store_full_test.cpp (scripts/s3-check.sh) adds large objects, many keys and a gateway
// killed during an upload.
#include <gtest/gtest.h>

#include "dq/artifact/s3_artifact_store.h"
#include "rgw_env.h"
#include "store_contract.h"

namespace dq::artifact {

namespace contract {
namespace {

class S3Factory {
 public:
  static constexpr int64_t kPartBytes = 5 * 1024 * 1024;  // S3's smallest part
  std::unique_ptr<ArtifactStore> Make() { return FreshStore(kPartBytes); }
};

INSTANTIATE_TYPED_TEST_SUITE_P(S3, ArtifactStoreContract, S3Factory);

}  // namespace
}  // namespace contract

namespace {

TEST(S3RgwTest, AWrongSecretIsRefusedAndNotRetried) {
  auto store = FreshStore();
  ASSERT_NE(store, nullptr);
  S3Options o = store->options();
  o.credentials.secret_access_key = "not-the-secret";
  S3ArtifactStore wrong(o);
  Status s = wrong.Put("jobs/a/j/c/x", "bytes");
  EXPECT_EQ(s.code(), ErrorCode::kInternal);
  EXPECT_EQ(s.message(), "S3 PUT jobs/a/j/c/x refused: HTTP 403 SignatureDoesNotMatch");
}

TEST(S3RgwTest, EnsureBucketIsIdempotent) {
  auto store = FreshStore();
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->EnsureBucket().ok());
  EXPECT_TRUE(store->Put("jobs/a/j/c/x", "y").ok());
  EXPECT_TRUE(store->EnsureBucket().ok());
  EXPECT_EQ(store->Stat("jobs/a/j/c/x")->size, 1);
}

TEST(S3RgwTest, AMissingBucketIsNotFound) {
  auto env = RgwEnv();
  ASSERT_FALSE(env["S3_ENDPOINT"].empty());
  S3ArtifactStore store(Options("dq-never-made"));
  Status s = store.Put("jobs/a/j/c/x", "y");
  EXPECT_EQ(s.code(), ErrorCode::kNotFound);
  EXPECT_EQ(s.message(), "S3 PUT jobs/a/j/c/x: HTTP 404 NoSuchBucket");
}

}  // namespace
}  // namespace dq::artifact
