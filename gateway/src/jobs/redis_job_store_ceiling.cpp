// RedisJobStore (redis_job_store.h): the account's storage ceiling (its plan's, from
// StoreLimits) and the reservation of an upload's bytes against it (ReserveBytes), with the 429
// storage_limit_exceeded message an upload past the ceiling gets.
#include "limits/quota.h"
#include "redis_job_scripts.h"
#include "redis_job_store.h"

namespace dq::gateway {

std::string Megabytes(int64_t bytes) {
  const int64_t tenths = (bytes * 10 + (1 << 20) / 2) / (1 << 20);  // rounded to 0.1 MB
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MB";
}

Status StorageCeilingStatus(int64_t stored, int64_t upload, int64_t ceiling,
                            std::string_view plan) {
  return Status(ErrorCode::kStorageLimitExceeded,
                "This account stores " + Megabytes(stored) + " of job data, and this upload (" +
                    Megabytes(upload) + ") would pass the " + std::string(plan) +
                    " plan's storage ceiling of " + Megabytes(ceiling) +
                    ". Delete jobs you no longer need (DELETE /v1/jobs/{id}), wait until old "
                    "jobs expire, or move to a plan with more storage.");
}

int64_t StoreLimits::CeilingOf(std::string_view plan) const {
  int64_t c = plan == "pro"        ? pro_bytes
              : plan == "business" ? business_bytes
              : plan == "agency"   ? agency_bytes
                                   : free_bytes;
  if (max_account_bytes > 0 && (c == 0 || max_account_bytes < c)) c = max_account_bytes;
  return c;
}

Result<RedisJobStore::Ceiling> RedisJobStore::StorageCeiling(const std::string& account_id) {
  // dq:{acct}:plan is written by dqctl alone (deploy/redis/users.acl); absent: the free plan.
  auto plan = redis_.Command({"HGETALL", AccountKey(account_id, "plan")});
  if (!plan.ok()) return plan.status();
  Ceiling c{"free", 0};
  for (size_t i = 0; i + 1 < plan->elements.size(); i += 2) {
    if (plan->elements[i].str == "plan") c.plan = plan->elements[i + 1].str;
  }
  c.bytes = limits_.CeilingOf(c.plan);
  return c;
}

Status RedisJobStore::ReserveBytes(const Job& job) {
  const std::string& a = job.account_id;
  const std::string bytes_key = AccountKey(a, "job_bytes");
  // The jobs whose entries may be stale: a sample of at most kReserveCheckJobs (HRANDFIELD with a
  // positive count: distinct fields, all of them when there are fewer), so the script's key list
  // stays bounded and every key it touches is passed in (Redis Cluster refuses any other).
  auto listed = redis_.Command({"HRANDFIELD", bytes_key, std::to_string(kReserveCheckJobs)});
  if (!listed.ok()) return listed.status();
  auto ceiling = StorageCeiling(a);
  if (!ceiling.ok()) return ceiling.status();
  std::vector<std::string> keys = {bytes_key, JobPartKey(a, job.id, "reserved")};
  std::vector<std::string> args = {job.id,
                                   std::to_string(job.file_bytes),
                                   std::to_string(ceiling->bytes),
                                   std::to_string(limits_.ttl.count()),
                                   std::to_string(kReservationTtl.count()),
                                   std::to_string(listed->elements.size())};
  for (const auto& e : listed->elements) {
    keys.push_back(JobKey(a, e.str));
    keys.push_back(JobPartKey(a, e.str, "file"));
    keys.push_back(JobPartKey(a, e.str, "reserved"));
    args.push_back(e.str);
  }
  auto reserved = redis_.Eval(scripts::kReserveBytes, keys, args);
  if (!reserved.ok()) return reserved.status();
  if (reserved->elements.size() == 2 && reserved->elements[0].integer == 0) {
    return StorageCeilingStatus(reserved->elements[1].integer, job.file_bytes, ceiling->bytes,
                                ceiling->plan);
  }
  return Status::Ok();
}

}  // namespace dq::gateway
