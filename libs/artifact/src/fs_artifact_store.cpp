#include "dq/artifact/fs_artifact_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

#include "dq/artifact/object_key.h"
#include "dq/common/crypto.h"

namespace dq::artifact {
namespace {

constexpr size_t kReadPiece = 256 * 1024;
constexpr const char* kTempDir = ".tmp";

// What an errno means to a caller: a missing object, a key that cannot be a file here, or a
// store that cannot do its work (full, read-only, refused).
Status Errno(int err, std::string_view what, std::string_view path) {
  std::string message = std::string(what) + " " + std::string(path) + ": " + std::strerror(err);
  switch (err) {
    case ENOENT:
      return Status(ErrorCode::kNotFound, std::move(message));
    case ENOTDIR:
    case EISDIR:
      return Status(ErrorCode::kInvalidRequest,
                    message + " (a key cannot be both an object and a prefix of another)");
    case EIO:
    case EINTR:
    case EAGAIN:
      return Status(ErrorCode::kUnavailable, std::move(message));
    default:
      return Status(ErrorCode::kInternal, std::move(message));
  }
}

Status WriteAll(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno(errno, "cannot write", path);
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

Status FsyncDir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Errno(errno, "cannot open directory", dir);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return Errno(err, "cannot fsync directory", dir);
  return Status::Ok();
}

// mkdir -p of dir (below root, which exists), fsyncing the parent of every directory it makes so
// the new path survives a crash.
Status MakeDirs(const std::string& root, std::string_view rel_dir) {
  std::string path = root;
  size_t start = 0;
  while (start < rel_dir.size()) {
    size_t end = rel_dir.find('/', start);
    if (end == std::string_view::npos) end = rel_dir.size();
    const std::string parent = path;
    path += "/";
    path += rel_dir.substr(start, end - start);
    if (::mkdir(path.c_str(), 0750) == 0) {
      if (Status s = FsyncDir(parent.empty() ? "/" : parent); !s.ok()) return s;
    } else if (errno != EEXIST) {
      return Errno(errno, "cannot create directory", path);
    }
    start = end + 1;
  }
  return Status::Ok();
}

std::string DirOf(std::string_view key) {
  const size_t slash = key.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(key.substr(0, slash));
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

// --- The writer --------------------------------------------------------------------------------

class FsObjectWriter final : public ObjectWriter {
 public:
  FsObjectWriter(FsArtifactStore* store, std::string key, int fd, std::string temp_path)
      : store_(store), key_(std::move(key)), fd_(fd), temp_path_(std::move(temp_path)) {}
  ~FsObjectWriter() override { Abort(); }

  Status Write(std::string_view bytes) override {
    if (fd_ < 0) return Status(ErrorCode::kInternal, "write to a closed writer of " + key_);
    Status s = WriteAll(fd_, bytes, temp_path_);
    if (!s.ok()) {
      Abort();
      return s;
    }
    written_ += static_cast<int64_t>(bytes.size());
    return Status::Ok();
  }

  Status Commit() override {
    if (fd_ < 0) return Status(ErrorCode::kInternal, "commit of a closed writer of " + key_);
    const int fd = std::exchange(fd_, -1);
    return store_->Publish(fd, temp_path_, key_);
  }

  void Abort() override {
    if (fd_ < 0) return;
    ::close(std::exchange(fd_, -1));
    ::unlink(temp_path_.c_str());
  }

  int64_t bytes_written() const override { return written_; }

 private:
  FsArtifactStore* store_;
  std::string key_;
  int fd_;
  std::string temp_path_;
  int64_t written_ = 0;
};

// --- The store ---------------------------------------------------------------------------------

Result<std::unique_ptr<FsArtifactStore>> FsArtifactStore::Open(const std::string& root) {
  if (root.empty() || root[0] != '/') {
    return Status(ErrorCode::kInternal,
                  "the artifact directory must be an absolute path, not \"" + root + "\"");
  }
  std::string clean = root;
  while (clean.size() > 1 && clean.back() == '/') clean.pop_back();
  if (Status s = MakeDirs("", std::string_view(clean).substr(1)); !s.ok()) return s;
  if (Status s = MakeDirs(clean, kTempDir); !s.ok()) return s;
  std::unique_ptr<FsArtifactStore> store(new FsArtifactStore(clean));
  // Prove the directory is writable now rather than at the first job.
  std::string probe;
  auto fd = store->CreateTemporary(&probe);
  if (!fd.ok()) return fd.status();
  ::close(*fd);
  ::unlink(probe.c_str());
  return store;
}

Result<int> FsArtifactStore::CreateTemporary(std::string* path) {
  for (int tries = 0; tries < 4; ++tries) {
    *path = root_ + "/" + kTempDir + "/" + Sha256Hex(RandomBytes(16)).substr(0, 24);
    int fd = ::open(path->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
    if (fd >= 0) return fd;
    if (errno == ENOENT) {
      // Someone removed .tmp (an operator cleaning up): make it again.
      if (Status s = MakeDirs(root_, kTempDir); !s.ok()) return s;
      continue;
    }
    if (errno != EEXIST) return Errno(errno, "cannot create a temporary file in", root_);
  }
  return Status(ErrorCode::kInternal, "cannot create a temporary file in " + root_);
}

Status FsArtifactStore::Publish(int fd, const std::string& temp_path, std::string_view key) {
  const std::string path = Path(key);
  const std::string dir = DirOf(key);
  auto fail = [&](Status s) {
    ::unlink(temp_path.c_str());
    return s;
  };
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return fail(Errno(err, "cannot fsync", temp_path));
  }
  ::close(fd);
  // A DeletePrefix running at the same time may remove a directory between MakeDirs and
  // rename; make it again and retry (a few times: it cannot keep happening without a bug).
  for (int tries = 0;; ++tries) {
    if (Status s = MakeDirs(root_, dir); !s.ok()) return fail(s);
    if (::rename(temp_path.c_str(), path.c_str()) == 0) break;
    if (errno != ENOENT || tries == 3) return fail(Errno(errno, "cannot store", path));
  }
  return FsyncDir(dir.empty() ? root_ : root_ + "/" + dir);
}

Status FsArtifactStore::Put(std::string_view key, std::string_view bytes) {
  if (Status s = ValidateKey(key); !s.ok()) return s;
  std::string temp;
  auto fd = CreateTemporary(&temp);
  if (!fd.ok()) return fd.status();
  if (Status s = WriteAll(*fd, bytes, temp); !s.ok()) {
    ::close(*fd);
    ::unlink(temp.c_str());
    return s;
  }
  return Publish(*fd, temp, key);
}

Result<std::unique_ptr<ObjectWriter>> FsArtifactStore::OpenWriter(std::string_view key) {
  if (Status s = ValidateKey(key); !s.ok()) return s;
  std::string temp;
  auto fd = CreateTemporary(&temp);
  if (!fd.ok()) return fd.status();
  return std::unique_ptr<ObjectWriter>(
      std::make_unique<FsObjectWriter>(this, std::string(key), *fd, std::move(temp)));
}

Status FsArtifactStore::Get(std::string_view key, ByteRange range, const Sink& sink) {
  if (Status s = ValidateKey(key); !s.ok()) return s;
  const std::string path = Path(key);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      return Status(ErrorCode::kNotFound, "no object " + std::string(key));
    }
    return Errno(errno, "cannot open", path);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status(ErrorCode::kNotFound, "no object " + std::string(key));
  }
  const int64_t size = st.st_size;
  int64_t offset = std::max<int64_t>(0, range.offset);
  int64_t end = range.length < 0 ? size : std::min(size, offset + range.length);
  std::string buffer(static_cast<size_t>(std::clamp<int64_t>(end - offset, 0, kReadPiece)), '\0');
  Status result;
  while (offset < end) {
    const size_t want = static_cast<size_t>(std::min<int64_t>(end - offset, kReadPiece));
    ssize_t n = ::pread(fd, buffer.data(), want, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      result = Errno(errno, "cannot read", path);
      break;
    }
    if (n == 0) {
      result = Status(ErrorCode::kInternal, "object " + std::string(key) + " ended early");
      break;
    }
    offset += n;
    result = sink(std::string_view(buffer.data(), static_cast<size_t>(n)));
    if (!result.ok()) break;
  }
  ::close(fd);
  return result;
}

Result<ObjectInfo> FsArtifactStore::Stat(std::string_view key) {
  if (Status s = ValidateKey(key); !s.ok()) return s;
  struct stat st {};
  if (::stat(Path(key).c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      return Status(ErrorCode::kNotFound, "no object " + std::string(key));
    }
    return Errno(errno, "cannot stat", Path(key));
  }
  if (!S_ISREG(st.st_mode)) return Status(ErrorCode::kNotFound, "no object " + std::string(key));
  return ObjectInfo{std::string(key), st.st_size, static_cast<int64_t>(st.st_mtime)};
}

namespace {

// Removes dir's contents and then dir; counts the files. Entries that vanish meanwhile are fine.
Status RemoveTree(const std::string& dir, int64_t* files) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    if (errno == ENOENT) return Status::Ok();
    return Errno(errno, "cannot open directory", dir);
  }
  Status result;
  while (dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = dir + "/" + std::string(name);
    bool is_dir = e->d_type == DT_DIR;
    if (e->d_type == DT_UNKNOWN) {
      struct stat st {};
      is_dir = ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    }
    if (is_dir) {
      result = RemoveTree(path, files);
      if (!result.ok()) break;
    } else if (::unlink(path.c_str()) == 0) {
      ++*files;
    } else if (errno != ENOENT) {
      result = Errno(errno, "cannot delete", path);
      break;
    }
  }
  ::closedir(d);
  if (!result.ok()) return result;
  if (::rmdir(dir.c_str()) != 0 && errno != ENOENT && errno != ENOTEMPTY) {
    return Errno(errno, "cannot remove directory", dir);
  }
  return Status::Ok();
}

struct Entry {
  std::string sort_key;  // the name, plus '/' for a directory: sorts as the keys below it do
  bool is_dir;
};

// Lists dir_key's directory in key order, appending keys that start with prefix and sort after
// `after`, until page holds `want` objects. Keys under a directory "d/" all sort where "d/"
// does among its siblings (no name holds '/'), so sorting each directory's entries that way and
// walking depth-first yields every key in byte order.
Status Walk(const std::string& root, const std::string& dir_key, std::string_view prefix,
            std::string_view after, size_t want, std::vector<ObjectInfo>* out) {
  const std::string dir = dir_key.empty() ? root : root + "/" + dir_key.substr(0, dir_key.size() - 1);
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    if (errno == ENOENT || errno == ENOTDIR) return Status::Ok();
    return Errno(errno, "cannot list", dir);
  }
  std::vector<Entry> entries;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;  // ".", "..", ".tmp": never part of a key
    bool is_dir = e->d_type == DT_DIR;
    if (e->d_type == DT_UNKNOWN) {
      struct stat st {};
      is_dir = ::lstat((dir + "/" + e->d_name).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    }
    entries.push_back({std::string(e->d_name) + (is_dir ? "/" : ""), is_dir});
  }
  ::closedir(d);
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.sort_key < b.sort_key; });
  for (const Entry& entry : entries) {
    if (out->size() >= want) break;
    const std::string full = dir_key + entry.sort_key;
    if (entry.is_dir) {
      // Only if some key below could start with prefix and sort after `after`.
      if (!StartsWith(full, prefix) && !StartsWith(prefix, full)) continue;
      if (full < after && !StartsWith(after, full)) continue;
      if (Status s = Walk(root, full, prefix, after, want, out); !s.ok()) return s;
    } else {
      if (!StartsWith(full, prefix) || full <= after) continue;
      struct stat st {};
      if (::stat((root + "/" + full).c_str(), &st) != 0) continue;  // deleted meanwhile
      out->push_back({full, st.st_size, static_cast<int64_t>(st.st_mtime)});
    }
  }
  return Status::Ok();
}

}  // namespace

Result<int64_t> FsArtifactStore::DeletePrefix(std::string_view prefix) {
  if (prefix.empty() || prefix.back() != '/') {
    return Status(ErrorCode::kInvalidRequest,
                  "a prefix to delete must end with '/', not \"" + std::string(prefix) + "\"");
  }
  if (Status s = ValidatePrefix(prefix); !s.ok()) return s;
  int64_t files = 0;
  if (Status s = RemoveTree(Path(prefix.substr(0, prefix.size() - 1)), &files); !s.ok()) return s;
  return files;
}

Result<ListPage> FsArtifactStore::List(std::string_view prefix, std::string_view after,
                                       int limit) {
  if (limit < 1 || limit > 1000) {
    return Status(ErrorCode::kInvalidRequest,
                  "a listing takes 1 to 1000 objects, not " + std::to_string(limit));
  }
  if (Status s = ValidatePrefix(prefix); !s.ok()) return s;
  // Start at the deepest directory the prefix names.
  const size_t slash = prefix.rfind('/');
  const std::string start = slash == std::string_view::npos ? "" : std::string(prefix.substr(0, slash + 1));
  std::vector<ObjectInfo> found;
  if (Status s = Walk(root_, start, prefix, after, static_cast<size_t>(limit) + 1, &found);
      !s.ok()) {
    return s;
  }
  ListPage page;
  page.truncated = found.size() > static_cast<size_t>(limit);
  if (page.truncated) found.resize(static_cast<size_t>(limit));
  page.objects = std::move(found);
  return page;
}

Result<int64_t> FsArtifactStore::RemoveTemporaries(std::chrono::seconds age) {
  const std::string dir = root_ + "/" + kTempDir;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    if (errno == ENOENT) return int64_t{0};
    return Errno(errno, "cannot list", dir);
  }
  const time_t cutoff = ::time(nullptr) - static_cast<time_t>(age.count());
  int64_t removed = 0;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const std::string path = dir + "/" + e->d_name;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && st.st_mtime < cutoff && ::unlink(path.c_str()) == 0) {
      ++removed;
    }
  }
  ::closedir(d);
  return removed;
}

}  // namespace dq::artifact
