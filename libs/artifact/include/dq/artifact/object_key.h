// The names of a job's objects, built in one place.
//
//   jobs/<account>/<job>/<attempt>/<name>
//   e.g. jobs/acct_8f3a2c/job_1d9e.../c4b2.../issues/000001.zst
//
// - Everything dq stores starts with "jobs/", so one lifecycle rule on that prefix (expire after
//   DQ_JOB_TTL_DAYS plus a margin, abort incomplete multipart uploads after a day) is a backstop
//   for what dq's own deletes and sweep miss.
// - The account comes first, so an account's objects are one prefix (deleting an account, its
//   bytes, a bucket policy per tenant).
// - The attempt (the claim id that fences a worker's run, or "upload" for what the gateway stored
//   before any attempt) separates runs: an attempt writes only under its own prefix, so a fenced
//   attempt's objects are never seen by another attempt, and the sweep deletes an attempt's prefix
//   whole once the job's Redis hash does not name it as committed.
//
// Keys use only [A-Za-z0-9._-] and '/', so they need no escaping in a URL, an XML listing or a
// file name; no segment is empty or starts with '.', so no key can climb out of a directory or
// meet the file store's temporary names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "dq/common/status.h"

namespace dq::artifact {

inline constexpr std::string_view kJobsPrefix = "jobs/";
inline constexpr size_t kMaxKeyBytes = 512;

// OK when `key` is a valid object key: 1..512 bytes of [A-Za-z0-9._-/], segments separated by
// single '/', none empty, none starting with '.'. Otherwise kInvalidRequest naming the key.
Status ValidateKey(std::string_view key);
// The same rules for a prefix that may end with '/' (an empty prefix is valid for List).
Status ValidatePrefix(std::string_view prefix);

// The parts of a job object's key.
struct ObjectName {
  std::string account_id;
  std::string job_id;
  std::string attempt;  // a claim id, or kUploadAttempt
  std::string name;     // e.g. "issues/000001.zst"; may contain '/'
  bool operator==(const ObjectName&) const = default;
};

// What the gateway stores before a worker's first attempt (the upload's pieces).
inline constexpr std::string_view kUploadAttempt = "upload";

// jobs/<account>/<job>/<attempt>/<name>. kInvalidRequest when a part is empty, holds a '/'
// (the name may hold '/'), or the key would not be valid.
Result<std::string> ObjectKey(const ObjectName& name);
// jobs/<account>/
Result<std::string> AccountPrefix(std::string_view account_id);
// jobs/<account>/<job>/
Result<std::string> JobPrefix(std::string_view account_id, std::string_view job_id);
// jobs/<account>/<job>/<attempt>/
Result<std::string> AttemptPrefix(std::string_view account_id, std::string_view job_id,
                                  std::string_view attempt);
// The parts of a key ObjectKey built; nullopt for any other key.
std::optional<ObjectName> ParseObjectKey(std::string_view key);

// The name of issue page `page` (from 1): "issues/000001.zst". Six digits keep a listing in page
// order up to 999,999 pages (a billion issues at 1,000 a page, far past any job's cap).
std::string IssuesPageName(int64_t page);
// The name of upload piece `index` (from 0): "file/000000.zst".
std::string FilePieceName(int64_t index);

}  // namespace dq::artifact
