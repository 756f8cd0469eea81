// Where the test RGW is: scripts/start-rgw.sh started it in DQ_RGW_DIR and wrote DIR/s3.env.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "dq/artifact/s3_artifact_store.h"

namespace dq::artifact {

inline std::map<std::string, std::string> RgwEnv() {
  std::map<std::string, std::string> env;
  const char* dir = std::getenv("DQ_RGW_DIR");
  if (dir == nullptr) return env;
  std::ifstream in(std::string(dir) + "/s3.env");
  std::string line;
  while (std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) env[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return env;
}

inline S3Options Options(const std::string& bucket, int64_t part_bytes = 5 * 1024 * 1024) {
  auto env = RgwEnv();
  S3Options o;
  o.endpoint = env["S3_ENDPOINT"];
  o.bucket = bucket;
  o.region = env["S3_REGION"];
  o.credentials = {env["S3_ACCESS_KEY"], env["S3_SECRET_KEY"], ""};
  o.part_bytes = part_bytes;
  o.backoff_base = std::chrono::milliseconds(20);
  return o;
}

inline std::string NewBucket() {
  static int n = 0;
  return "dq-test-" + std::to_string(::getpid()) + "-" + std::to_string(++n);
}

inline std::unique_ptr<S3ArtifactStore> FreshStore(int64_t part_bytes = 5 * 1024 * 1024) {
  auto env = RgwEnv();
  EXPECT_FALSE(env["S3_ENDPOINT"].empty())
      << "no RGW: DQ_RGW_DIR must name a directory scripts/start-rgw.sh started";
  if (env["S3_ENDPOINT"].empty()) return nullptr;
  auto store = std::make_unique<S3ArtifactStore>(Options(NewBucket(), part_bytes));
  Status s = store->EnsureBucket();
  EXPECT_TRUE(s.ok()) << s.message();
  return s.ok() ? std::move(store) : nullptr;
}

}  // namespace dq::artifact
