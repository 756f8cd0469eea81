#include "dq/artifact/store_factory.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "dq/artifact/fs_artifact_store.h"

namespace dq::artifact {
namespace {

Settings Load(std::map<std::string, std::string> env) {
  auto s = Settings::Load(kGateway, env);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

const std::map<std::string, std::string> kKeys = {{"AWS_ACCESS_KEY_ID", "AK"},
                                                  {"AWS_SECRET_ACCESS_KEY", "SK"}};

TEST(StoreFactoryTest, TheDefaultIsADirectory) {
  const std::string dir = std::filesystem::temp_directory_path() / "dq-factory-test";
  std::filesystem::remove_all(dir);
  auto store = MakeArtifactStore(Load({{"DQ_ARTIFACT_DIR", dir}}), {});
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_NE(dynamic_cast<FsArtifactStore*>(store->get()), nullptr);
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/.tmp"));
  std::filesystem::remove_all(dir);
}

TEST(StoreFactoryTest, RedisMeansNoStore) {
  auto store = MakeArtifactStore(Load({{"DQ_ARTIFACT_STORE", "redis"}}), {});
  ASSERT_TRUE(store.ok());
  EXPECT_EQ(store->get(), nullptr);
}

TEST(StoreFactoryTest, S3TakesItsOptionsAndTheEnvironmentsCredentials) {
  auto o = S3OptionsFromSettings(Load({{"DQ_ARTIFACT_STORE", "s3"},
                                       {"DQ_S3_ENDPOINT", "http://127.0.0.1:7480"},
                                       {"DQ_S3_BUCKET", "dq-jobs"},
                                       {"DQ_S3_PART_BYTES", "6291456"}}),
                                 {{"AWS_ACCESS_KEY_ID", "AK"},
                                  {"AWS_SECRET_ACCESS_KEY", "SK"},
                                  {"AWS_SESSION_TOKEN", "TOKEN"}});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->endpoint, "http://127.0.0.1:7480");
  EXPECT_EQ(o->bucket, "dq-jobs");
  EXPECT_EQ(o->region, "us-east-1");
  EXPECT_EQ(o->part_bytes, 6291456);
  EXPECT_EQ(o->max_attempts, 5);
  EXPECT_EQ(o->credentials.access_key_id, "AK");
  EXPECT_EQ(o->credentials.session_token, "TOKEN");
}

TEST(StoreFactoryTest, BadSettingsAreRefusedByName) {
  struct Case {
    std::map<std::string, std::string> settings;
    std::map<std::string, std::string> env;
    const char* message;
  };
  const Case cases[] = {
      {{{"DQ_ARTIFACT_STORE", "nfs"}}, {}, "DQ_ARTIFACT_STORE=nfs is not fs, s3 or redis"},
      {{{"DQ_ARTIFACT_STORE", "s3"}, {"DQ_S3_ENDPOINT", "127.0.0.1:7480"}, {"DQ_S3_BUCKET", "b1b"}},
       kKeys, "DQ_S3_ENDPOINT=127.0.0.1:7480 is not http(s)://host[:port] (the bucket goes in DQ_S3_BUCKET)"},
      {{{"DQ_ARTIFACT_STORE", "s3"}, {"DQ_S3_ENDPOINT", "https://s3.example.com/dq-jobs"},
        {"DQ_S3_BUCKET", "b1b"}},
       kKeys,
       "DQ_S3_ENDPOINT=https://s3.example.com/dq-jobs is not http(s)://host[:port] (the bucket "
       "goes in DQ_S3_BUCKET)"},
      {{{"DQ_ARTIFACT_STORE", "s3"}, {"DQ_S3_ENDPOINT", "https://s3.example.com"},
        {"DQ_S3_BUCKET", "Jobs_Bucket"}},
       kKeys,
       "DQ_S3_BUCKET=Jobs_Bucket is not a bucket name (3-63 of a-z 0-9 . -, starting and ending "
       "with a letter or digit)"},
      {{{"DQ_ARTIFACT_STORE", "s3"}, {"DQ_S3_ENDPOINT", "https://s3.example.com"},
        {"DQ_S3_BUCKET", "dq-jobs"}},
       {{"AWS_ACCESS_KEY_ID", "AK"}},
       "DQ_ARTIFACT_STORE=s3 needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment"},
      {{{"DQ_ARTIFACT_DIR", "relative/dir"}}, {},
       "the artifact directory must be an absolute path, not \"relative/dir\""},
  };
  for (const auto& c : cases) {
    auto store = MakeArtifactStore(Load(c.settings), c.env);
    ASSERT_FALSE(store.ok()) << c.message;
    EXPECT_EQ(store.status().message(), c.message);
  }
  // The part size has S3's floor, as a setting's range.
  auto small = Settings::Load(kGateway, {{"DQ_S3_PART_BYTES", "1048576"}});
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.status().message(),
            "DQ_S3_PART_BYTES=1048576 is not an integer in [5242880, 1073741824]");
}

}  // namespace
}  // namespace dq::artifact
