// The ArtifactStore contract (store_contract.h) on the fs store and on the fake. The S3 store
// runs the same suite against a real RADOS Gateway (tests/integration/artifact).
#include <cstdlib>
#include <filesystem>

#include "dq/artifact/fs_artifact_store.h"
#include "dq/testing/in_memory_artifact_store.h"
#include "store_contract.h"

namespace dq::artifact::contract {
namespace {

class FsFactory {
 public:
  static constexpr int64_t kPartBytes = 1 << 20;  // no parts on a disk; any size does
  ~FsFactory() {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::unique_ptr<ArtifactStore> Make() {
    char tmpl[] = "/tmp/dq-fs-store-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    auto store = FsArtifactStore::Open(dir_ + "/store");
    EXPECT_TRUE(store.ok()) << store.status().message();
    return store.ok() ? std::move(*store) : nullptr;
  }

 private:
  std::string dir_;
};

class FakeFactory {
 public:
  static constexpr int64_t kPartBytes = 1 << 20;
  std::unique_ptr<ArtifactStore> Make() {
    return std::make_unique<dq::testing::InMemoryArtifactStore>();
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Fs, ArtifactStoreContract, FsFactory);
INSTANTIATE_TYPED_TEST_SUITE_P(Fake, ArtifactStoreContract, FakeFactory);

}  // namespace
}  // namespace dq::artifact::contract
