#include "job_artifacts.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

#include "dq/artifact/object_key.h"
#include "piece_codec.h"

namespace dq::gateway {
namespace {

std::string Numbered(const char* dir, int64_t n) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%06lld.zst", static_cast<long long>(n));
  return std::string(dir) + digits;
}

}  // namespace

Status RunAll(const std::vector<std::function<Status()>>& tasks, size_t threads) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  Status first = Status::Ok();  // under mu
  auto run = [&] {
    for (size_t i; !failed.load() && (i = next.fetch_add(1)) < tasks.size();) {
      Status s = tasks[i]();
      if (s.ok()) continue;
      std::lock_guard lock(mu);
      if (first.ok()) first = std::move(s);
      failed.store(true);
    }
  };
  const size_t n = std::min(threads, tasks.size());
  std::vector<std::thread> helpers;
  helpers.reserve(n > 1 ? n - 1 : 0);
  for (size_t t = 1; t < n; ++t) {
    try {
      helpers.emplace_back(run);
    } catch (const std::system_error&) {
      break;  // no thread to be had: the caller runs the rest
    }
  }
  run();
  for (auto& t : helpers) t.join();
  return first;
}

// The claim id (issue 35): attempt numbers are not unique across a Redis failover, and two
// attempts with one name would write the same objects.
std::string AttemptName(const Job& job) {
  return "a" + std::to_string(job.attempts) + "-" + job.claim_id;
}

Result<std::string> FilePieceKey(const Job& job, int64_t index) {
  return artifact::ObjectKey({job.account_id, job.id, std::string(artifact::kUploadAttempt),
                              artifact::FilePieceName(index)});
}
Result<std::string> IssuePageKey(const Job& job, const std::string& attempt, int64_t page) {
  return artifact::ObjectKey({job.account_id, job.id, attempt, artifact::IssuesPageName(page)});
}
Result<std::string> FixPieceKey(const Job& job, const std::string& attempt, int64_t index) {
  return artifact::ObjectKey({job.account_id, job.id, attempt, Numbered("fixes/", index)});
}
Result<std::string> CleanedPieceKey(const Job& job, const std::string& attempt, int64_t index) {
  return artifact::ObjectKey({job.account_id, job.id, attempt, Numbered("cleaned/", index)});
}

std::string EncodeIssuePage(const std::vector<std::string>& records, size_t from, size_t count) {
  std::string raw;
  for (size_t i = from; i < from + count; ++i) {
    raw += records[i];
    raw.push_back('\n');
  }
  return CompressPiece(raw);
}

Result<std::vector<std::string>> DecodeIssuePage(std::string_view stored) {
  auto raw = DecompressPiece(stored);
  if (!raw.ok()) return raw.status();
  std::vector<std::string> out;
  size_t start = 0;
  while (start < raw->size()) {
    const size_t end = raw->find('\n', start);
    if (end == std::string::npos) {
      return Status(ErrorCode::kInternal, "a stored issue page is damaged (no line end)");
    }
    out.emplace_back(*raw, start, end - start);
    start = end + 1;
  }
  return out;
}

PageCut CutPages(size_t tail, size_t fresh, bool end) {
  PageCut cut;
  const size_t total = tail + fresh;
  cut.pages = static_cast<int64_t>(total / kIssuesPerPage);
  if (end && total % kIssuesPerPage != 0) ++cut.pages;
  cut.paged_records = std::min(total, static_cast<size_t>(cut.pages) * kIssuesPerPage);
  cut.replace_tail = cut.pages > 0;
  return cut;
}

Result<std::vector<std::string>> ReadIssues(artifact::ArtifactStore& store, const Job& job,
                                            int64_t offset, int64_t count,
                                            const TailReader& tail) {
  std::vector<std::string> out;
  const int64_t paged = job.issue_pages * kIssuesPerPage;  // an upper bound: the last may be short
  int64_t at = offset;
  auto wanted = [&] { return count < 0 || static_cast<int64_t>(out.size()) < count; };
  bool short_page = false;
  while (wanted() && at < paged && !short_page) {
    const int64_t page = at / kIssuesPerPage + 1;
    auto key = IssuePageKey(job, job.output_attempt, page);
    if (!key.ok()) return key.status();
    auto stored = store.GetAll(*key, kMaxPieceBytes);
    if (!stored.ok()) return stored.status();
    auto records = DecodeIssuePage(*stored);
    if (!records.ok()) return records.status();
    short_page = static_cast<int64_t>(records->size()) < kIssuesPerPage;
    for (size_t i = static_cast<size_t>(at % kIssuesPerPage); i < records->size() && wanted(); ++i) {
      out.push_back(std::move((*records)[i]));
      ++at;
    }
    if (short_page || at % kIssuesPerPage != 0) break;  // the page ran out, or we have enough
  }
  if (short_page || !wanted()) return out;  // a short page is the last record of the job
  auto rest = tail(std::max<int64_t>(0, at - paged),
                   count < 0 ? -1 : count - static_cast<int64_t>(out.size()));
  if (!rest.ok()) return rest.status();
  for (auto& r : *rest) out.push_back(std::move(r));
  return out;
}

Result<SweepStats> SweepOrphans(artifact::ArtifactStore& store, const JobLookup& lookup,
                                int64_t now, int64_t grace_seconds) {
  SweepStats stats;
  // One job's objects at a time: the listing is in key order, so a job's are contiguous.
  struct Attempt {
    int64_t newest = 0;
  };
  std::string current_job;  // "account/job"
  std::string account, job_id;
  std::map<std::string, Attempt> attempts;
  auto settle = [&]() -> Status {
    if (current_job.empty()) return Status::Ok();
    ++stats.jobs_seen;
    auto job = lookup(account, job_id);
    if (!job.ok()) return job.status();
    std::vector<std::string> doomed;
    for (const auto& [name, a] : attempts) {
      if (now - a.newest < grace_seconds) continue;  // may still be written
      const bool live = job->has_value() && (name == artifact::kUploadAttempt ||
                                              name == (*job)->output_attempt ||
                                              name == AttemptName(**job));
      if (!live) doomed.push_back(name);
    }
    for (const auto& name : doomed) {
      auto prefix = artifact::AttemptPrefix(account, job_id, name);
      if (!prefix.ok()) continue;
      auto deleted = store.DeletePrefix(*prefix);
      if (!deleted.ok()) return deleted.status();
      ++stats.prefixes_deleted;
      stats.objects_deleted += *deleted;
    }
    return Status::Ok();
  };
  std::string after;
  for (;;) {
    auto page = store.List(artifact::kJobsPrefix, after, 1000);
    if (!page.ok()) return page.status();
    for (const auto& object : page->objects) {
      auto name = artifact::ParseObjectKey(object.key);
      if (!name) continue;  // not a job object: not ours to judge
      const std::string job_key = name->account_id + "/" + name->job_id;
      if (job_key != current_job) {
        if (Status s = settle(); !s.ok()) return s;
        current_job = job_key;
        account = name->account_id;
        job_id = name->job_id;
        attempts.clear();
      }
      Attempt& a = attempts[name->attempt];
      a.newest = std::max(a.newest, object.modified);
    }
    if (!page->truncated || page->objects.empty()) break;
    after = page->objects.back().key;
  }
  if (Status s = settle(); !s.ok()) return s;
  return stats;
}

}  // namespace dq::gateway
