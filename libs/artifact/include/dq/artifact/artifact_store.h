// Where a job's files live (the interface): the upload's pieces, the issue pages, the fixes and a
// cleaned workbook. Redis keeps control data only; it records which of these objects a job has
// committed. Two implementations: FsArtifactStore (a directory; the default for ./dev, compose
// and a single node) and S3ArtifactStore (any S3-compatible service). InMemoryArtifactStore
// (tests/testing) is the fake.
//
// The model is S3's, reduced to what dq needs and what a file system can also promise:
// - An object is a key (object_key.h says which keys are valid and builds dq's keys) and bytes.
// - Objects are immutable once visible. A put of an existing key replaces it whole.
// - A reader never sees half an object: an object appears whole, at once, or not at all.
// - Listing is in byte order of the keys. Deleting a prefix is not atomic; repeating it is safe.
// - No key may be another key followed by '/' ("a/b" beside "a/b/c"): a directory cannot be a
//   file too. dq's keys never do that (object_key.h).
//
//   std::unique_ptr<ArtifactStore> store = ...;
//   Status s = store->Put("jobs/acct_1/job_2/c9f/summary.json", json);
//   Status r = store->Get(key, ByteRange{0, 4096}, [&](std::string_view bytes) {
//     out.append(bytes);
//     return Status::Ok();
//   });
//
// Errors (every method): kUnavailable when the store cannot be reached or keeps failing after
// its retries (the caller postpones the work, as for Redis); kInvalidRequest for a key that
// object_key.h's ValidateKey refuses; kInternal for what retrying cannot mend (a full disk, a
// permission refused, credentials the service rejects), with a message that names the key.
//
// Threading: every method of a store may be called from any number of threads at once. An
// ObjectWriter belongs to one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/status.h"

namespace dq::artifact {

// Bytes [offset, offset + length) of an object. length < 0: to the end. A range that reaches
// past the end is cut at the end; one that starts at or past the end delivers no bytes (and is
// not an error, so a reader that pages through an object needs no special last case).
struct ByteRange {
  int64_t offset = 0;
  int64_t length = -1;
  static ByteRange All() { return {}; }
};

struct ObjectInfo {
  std::string key;
  int64_t size = 0;
  // When the object was last written, in seconds since 1970 (UTC); 0 when the store did not say.
  // Listings carry it, so a sweep can leave alone what a writer may still be working on.
  int64_t modified = 0;
  bool operator==(const ObjectInfo&) const = default;
};

// One page of a listing: keys in byte order, each greater than the `after` asked for.
struct ListPage {
  std::vector<ObjectInfo> objects;
  bool truncated = false;  // more keys follow the last one here: ask again with it as `after`
};

// Receives an object's bytes in order, a piece at a time (pieces are at most a few hundred KiB,
// so a large object is never held whole). A non-OK answer stops the read, and Get returns that
// Status (e.g. the client went away).
using Sink = std::function<Status(std::string_view bytes)>;

// A large object written in pieces. Nothing is visible under the key until Commit returns OK;
// a writer destroyed without Commit (or after Abort) leaves no object and frees what it held.
class ObjectWriter {
 public:
  virtual ~ObjectWriter() = default;
  // Appends bytes. The writer may send them on at once or keep up to one part (S3) before it
  // does. After a failed Write the writer is spent: Abort it and start again.
  virtual Status Write(std::string_view bytes) = 0;
  // Makes the object visible, whole. After kUnavailable the outcome may be unknown to the
  // caller only in one case, and the writer settles it before answering: when the store's reply
  // to the final step was lost, the writer checks the object and answers OK if it is there whole.
  // A writer is committed at most once; Write after Commit is a bug.
  virtual Status Commit() = 0;
  // Drops what was written. Idempotent; never fails the caller (leftovers are the orphan
  // sweep's).
  virtual void Abort() = 0;
  // Bytes given to Write so far.
  virtual int64_t bytes_written() const = 0;
};

class ArtifactStore {
 public:
  virtual ~ArtifactStore() = default;

  // Stores `bytes` under `key`, replacing any object there, all or nothing. Safe to retry: a
  // second put of the same bytes leaves the same object.
  virtual Status Put(std::string_view key, std::string_view bytes) = 0;

  // A writer for an object too large to hold at once (see ObjectWriter). One writer per key at a
  // time: two writers racing on one key leave one of the two objects, whole.
  virtual Result<std::unique_ptr<ObjectWriter>> OpenWriter(std::string_view key) = 0;

  // Sends the bytes of `range` of the object to `sink`, in order. kNotFound when there is no
  // such object. A read that fails midway is resumed by the store where it stopped (the sink sees
  // each byte once) as long as the object has not changed; otherwise kUnavailable, after some
  // bytes may have reached the sink.
  virtual Status Get(std::string_view key, ByteRange range, const Sink& sink) = 0;

  // The object's size. kNotFound when there is no such object.
  virtual Result<ObjectInfo> Stat(std::string_view key) = 0;

  // Deletes every object whose key starts with `prefix`, which must end with '/' (so "jobs/a/j1/"
  // never touches "jobs/a/j10/"); kInvalidRequest otherwise. Answers how many objects it deleted.
  // Not atomic: after a failure some objects may be gone; calling it again finishes the work. An
  // object put under the prefix while it runs may survive.
  virtual Result<int64_t> DeletePrefix(std::string_view prefix) = 0;

  // At most `limit` (1..1000) objects whose keys start with `prefix` and sort after `after`
  // ("" for the first page), in byte order.
  virtual Result<ListPage> List(std::string_view prefix, std::string_view after, int limit) = 0;

  // --- Helpers on top of the methods above (not virtual) ---------------------------------------
  // The whole object, or kInternal when it is larger than max_bytes (a bound on memory).
  Result<std::string> GetAll(std::string_view key, int64_t max_bytes);
  // Every object under prefix, following pages.
  Result<std::vector<ObjectInfo>> ListAll(std::string_view prefix);
};

}  // namespace dq::artifact
