#include "dq/testing/in_memory_artifact_store.h"

#include <algorithm>
#include <ctime>

#include "dq/artifact/object_key.h"

namespace dq::testing {
namespace {

Status Down() { return Status(ErrorCode::kUnavailable, "injected: artifact store unreachable"); }
constexpr size_t kPiece = 64 * 1024;  // a sink gets at most this much at a time, as from a disk

}  // namespace

class InMemoryObjectWriter final : public artifact::ObjectWriter {
 public:
  InMemoryObjectWriter(InMemoryArtifactStore* store, std::string key)
      : store_(store), key_(std::move(key)) {}
  ~InMemoryObjectWriter() override { Abort(); }

  Status Write(std::string_view bytes) override {
    if (closed_) return Status(ErrorCode::kInternal, "write to a closed writer of " + key_);
    bool after = false;
    bool fail = false;
    {
      std::lock_guard lock(store_->mu_);
      fail = store_->FailBefore("artifact.write", &after);
    }
    if (fail) {
      Abort();
      return Down();
    }
    buffer_.append(bytes);
    if (after) {
      Abort();
      return Down();
    }
    return Status::Ok();
  }

  Status Commit() override {
    if (closed_) return Status(ErrorCode::kInternal, "commit of a closed writer of " + key_);
    bool after = false;
    {
      std::lock_guard lock(store_->mu_);
      if (!store_->FailBefore("artifact.commit", &after)) {
        store_->objects_[key_] = {std::make_shared<const std::string>(std::move(buffer_)),
                                  store_->Now()};
        --store_->open_writers_;
        closed_ = true;
      }
    }
    if (!closed_) {
      Abort();
      return Down();
    }
    // A lost answer: the object is there whole (as the S3 writer's check would find), but the
    // caller hears kUnavailable.
    return after ? Down() : Status::Ok();
  }

  void Abort() override {
    if (closed_) return;
    closed_ = true;
    buffer_.clear();
    std::lock_guard lock(store_->mu_);
    --store_->open_writers_;
  }

  int64_t bytes_written() const override { return static_cast<int64_t>(buffer_.size()); }

 private:
  InMemoryArtifactStore* store_;
  std::string key_;
  std::string buffer_;
  bool closed_ = false;
};

bool InMemoryArtifactStore::FailBefore(const std::string& step, bool* after) {
  *after = false;
  if (down_) return true;
  if (faults_ != nullptr && faults_->Step(step)) {
    if (!faults_->after) return true;
    *after = true;
  }
  return false;
}

Status InMemoryArtifactStore::Put(std::string_view key, std::string_view bytes) {
  if (Status s = artifact::ValidateKey(key); !s.ok()) return s;
  auto object = std::make_shared<const std::string>(bytes);
  std::lock_guard lock(mu_);
  bool after = false;
  if (FailBefore("artifact.put", &after)) return Down();
  objects_[std::string(key)] = {std::move(object), Now()};
  return after ? Down() : Status::Ok();
}

Result<std::unique_ptr<artifact::ObjectWriter>> InMemoryArtifactStore::OpenWriter(
    std::string_view key) {
  if (Status s = artifact::ValidateKey(key); !s.ok()) return s;
  std::lock_guard lock(mu_);
  if (down_) return Down();
  ++open_writers_;
  return std::unique_ptr<artifact::ObjectWriter>(
      std::make_unique<InMemoryObjectWriter>(this, std::string(key)));
}

Status InMemoryArtifactStore::Get(std::string_view key, artifact::ByteRange range,
                                  const artifact::Sink& sink) {
  if (Status s = artifact::ValidateKey(key); !s.ok()) return s;
  std::shared_ptr<const std::string> object;
  bool after = false;
  {
    std::lock_guard lock(mu_);
    if (FailBefore("artifact.get", &after)) return Down();
    auto it = objects_.find(std::string(key));
    if (it == objects_.end()) {
      return Status(ErrorCode::kNotFound, "no object " + std::string(key));
    }
    object = it->second.bytes;
  }
  const int64_t size = static_cast<int64_t>(object->size());
  int64_t offset = std::max<int64_t>(0, range.offset);
  const int64_t end = range.length < 0 ? size : std::min(size, offset + range.length);
  while (offset < end) {
    const int64_t n = std::min<int64_t>(end - offset, kPiece);
    Status s = sink(std::string_view(*object).substr(static_cast<size_t>(offset),
                                                     static_cast<size_t>(n)));
    if (!s.ok()) return s;
    offset += n;
  }
  return after ? Down() : Status::Ok();
}

Result<artifact::ObjectInfo> InMemoryArtifactStore::Stat(std::string_view key) {
  if (Status s = artifact::ValidateKey(key); !s.ok()) return s;
  std::lock_guard lock(mu_);
  bool after = false;
  if (FailBefore("artifact.stat", &after)) return Down();
  auto it = objects_.find(std::string(key));
  if (it == objects_.end()) return Status(ErrorCode::kNotFound, "no object " + std::string(key));
  if (after) return Down();
  return artifact::ObjectInfo{it->first, static_cast<int64_t>(it->second.bytes->size()),
                              it->second.modified};
}

Result<int64_t> InMemoryArtifactStore::DeletePrefix(std::string_view prefix) {
  if (prefix.empty() || prefix.back() != '/') {
    return Status(ErrorCode::kInvalidRequest,
                  "a prefix to delete must end with '/', not \"" + std::string(prefix) + "\"");
  }
  if (Status s = artifact::ValidatePrefix(prefix); !s.ok()) return s;
  std::lock_guard lock(mu_);
  bool after = false;
  if (FailBefore("artifact.delete", &after)) return Down();
  int64_t deleted = 0;
  for (auto it = objects_.lower_bound(std::string(prefix));
       it != objects_.end() && it->first.compare(0, prefix.size(), prefix) == 0;) {
    it = objects_.erase(it);
    ++deleted;
  }
  if (after) return Down();
  return deleted;
}

Result<artifact::ListPage> InMemoryArtifactStore::List(std::string_view prefix,
                                                       std::string_view after_key, int limit) {
  if (limit < 1 || limit > 1000) {
    return Status(ErrorCode::kInvalidRequest,
                  "a listing takes 1 to 1000 objects, not " + std::to_string(limit));
  }
  if (Status s = artifact::ValidatePrefix(prefix); !s.ok()) return s;
  std::lock_guard lock(mu_);
  bool after = false;
  if (FailBefore("artifact.list", &after)) return Down();
  artifact::ListPage page;
  // The first key that both starts the prefix's range and sorts after after_key.
  auto it = objects_.lower_bound(std::string(prefix));
  if (auto past = objects_.upper_bound(std::string(after_key));
      it != objects_.end() && (past == objects_.end() || past->first > it->first)) {
    it = past;
  }
  for (; it != objects_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    if (static_cast<int>(page.objects.size()) == limit) {
      page.truncated = true;
      break;
    }
    page.objects.push_back(
        {it->first, static_cast<int64_t>(it->second.bytes->size()), it->second.modified});
  }
  if (after) return Down();
  return page;
}

void InMemoryArtifactStore::set_down(bool down) {
  std::lock_guard lock(mu_);
  down_ = down;
}

std::map<std::string, std::string> InMemoryArtifactStore::objects() {
  std::lock_guard lock(mu_);
  std::map<std::string, std::string> out;
  for (const auto& [key, object] : objects_) out.emplace(key, *object.bytes);
  return out;
}

int64_t InMemoryArtifactStore::bytes_stored() {
  std::lock_guard lock(mu_);
  int64_t total = 0;
  for (const auto& [key, object] : objects_) total += static_cast<int64_t>(object.bytes->size());
  return total;
}

int InMemoryArtifactStore::open_writers() {
  std::lock_guard lock(mu_);
  return open_writers_;
}

void InMemoryArtifactStore::set_now(int64_t unix_seconds) {
  std::lock_guard lock(mu_);
  now_ = unix_seconds;
}

int64_t InMemoryArtifactStore::Now() const {
  return now_ != 0 ? now_ : static_cast<int64_t>(std::time(nullptr));
}

}  // namespace dq::testing
