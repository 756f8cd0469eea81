// A job's files in the artifact store (dq/artifact): the names of its objects, the issue pages,
// and the sweep of objects nobody will read. Pure logic over the ArtifactStore interface;
// RedisJobStore uses it, and records in the job's hash which objects are committed, in the
// same fenced script that commits the batch (redis_job_scripts.cpp).
//
//   jobs/<account>/<job>/upload/file/000000.zst      the upload's pieces (zstd frames), from the
//                                                    gateway, before any attempt
//   jobs/<account>/<job>/<attempt>/issues/000001.zst issue pages: 1,000 issues each (the last
//                                                    one fewer), one JSON object a line, one zstd
//                                                    frame: a page of the issues API is one read
//   jobs/<account>/<job>/<attempt>/fixes/000000.zst  the fixes, a piece per write (cleaned_file.h)
//   jobs/<account>/<job>/<attempt>/cleaned/000000.zst an XLSX job's workbook, in pieces
//
// The job hash names its attempt (`output_attempt`) and how many pages and pieces of each kind
// are committed (`issue_pages`, `fix_pieces`, `cleaned_pieces`); objects beyond those counts, or
// of another attempt, are never read. An attempt writes an object first and commits it after,
// so a crash between the two leaves an orphan, never a hole. Jobs stored before the store
// (every count 0, `file_store` empty) keep everything in Redis and read as before.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dq/artifact/artifact_store.h"
#include "job.h"

namespace dq::gateway {

inline constexpr int64_t kIssuesPerPage = 1000;
inline constexpr const char* kFileInStore = "store";  // Job::file_store

// The attempt's name in object keys: "a<attempts>-<claim id>", unique per claim (issue 35).
std::string AttemptName(const Job& job);

// Object keys (kInvalidRequest only for ids that cannot be keys, which dq never makes).
Result<std::string> FilePieceKey(const Job& job, int64_t index);
Result<std::string> IssuePageKey(const Job& job, const std::string& attempt, int64_t page);
Result<std::string> FixPieceKey(const Job& job, const std::string& attempt, int64_t index);
Result<std::string> CleanedPieceKey(const Job& job, const std::string& attempt, int64_t index);

// A page: the records, one a line, as one zstd frame. Records are compact JSON (no raw
// newline can occur in them).
std::string EncodeIssuePage(const std::vector<std::string>& records, size_t from, size_t count);
// kInternal when the page is damaged.
Result<std::vector<std::string>> DecodeIssuePage(std::string_view stored);

// Runs every task, up to `threads` at once (the caller's thread among them; fewer when the system
// gives no more): a write's issue pages and fixes piece are each encoded and put by one task, and
// each put of the fs store waits for two fsyncs, so one after another they wait in turn. After
// the first error no more tasks start; the ones running finish, and that error is returned.
// Tasks must be safe to run at the same time.
Status RunAll(const std::vector<std::function<Status()>>& tasks, size_t threads);
// Threads a write's puts use (RunAll).
inline constexpr size_t kPutThreads = 4;

// How a write's issues are split between whole pages and the list kept in Redis: the records
// not yet in a page (`tail`, fewer than a page) followed by the new ones fill pages from the
// front; at the job's end every record goes into a page, the last one short.
struct PageCut {
  int64_t pages = 0;       // whole pages to write, [0, pages) of the records
  size_t paged_records = 0;
  // true: the Redis list is replaced by the records left over; false: the new records are
  // simply appended (no page was cut, so the tail stays as it is).
  bool replace_tail = false;
};
PageCut CutPages(size_t tail, size_t fresh, bool end);

// Issues [offset, offset + count) of a job (count < 0: to the end): from its committed pages,
// then from the records still in Redis (`tail(offset_in_tail, count)`).
using TailReader =
    std::function<Result<std::vector<std::string>>(int64_t offset, int64_t count)>;
Result<std::vector<std::string>> ReadIssues(artifact::ArtifactStore& store, const Job& job,
                                            int64_t offset, int64_t count,
                                            const TailReader& tail);

// The sweep of objects nobody will read: every job prefix whose job no longer exists (deleted,
// expired, or its upload abandoned), and every attempt of a live job other than its upload and
// the attempt it names or is running. Objects written within `grace_seconds` before `now` are
// left alone (an upload still storing its pieces, an attempt between a write and its commit).
struct SweepStats {
  int64_t jobs_seen = 0;
  int64_t prefixes_deleted = 0;
  int64_t objects_deleted = 0;
};
using JobLookup =
    std::function<Result<std::optional<Job>>(const std::string& account_id, const std::string& id)>;
Result<SweepStats> SweepOrphans(artifact::ArtifactStore& store, const JobLookup& lookup,
                                int64_t now, int64_t grace_seconds);

}  // namespace dq::gateway
