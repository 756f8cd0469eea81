// RedisJobStore (redis_job_store.h): Idempotency-Key records (ClaimIdempotencyKey,
// ReleaseIdempotencyKey) and a worker's claim of a job (ClaimJob), which starts an attempt and
// drops the objects of earlier ones.
#include "dq/artifact/object_key.h"
#include "dq/common/crypto.h"
#include "job_artifacts.h"
#include "limits/quota.h"
#include "redis_job_scripts.h"
#include "redis_job_store.h"
#include "redis_job_store_internal.h"

namespace dq::gateway {

using redis_store::IdempotencyKey;
using redis_store::Pairs;

Result<IdempotencyRecord> RedisJobStore::ClaimIdempotencyKey(std::string_view account_id,
                                                             std::string_view key,
                                                             std::string_view body_hash,
                                                             std::string_view job_id) {
  auto r = redis_.Eval(scripts::kClaimIdempotency, {IdempotencyKey(account_id, key)},
                       {std::string(body_hash) + " " + std::string(job_id),
                        std::to_string(limits_.idempotency_ttl.count())});
  if (!r.ok()) return r.status();
  IdempotencyRecord rec;
  if (!r->elements.empty() && r->elements[0].integer == 1) {
    rec.fresh = true;
    rec.body_hash = body_hash;
    rec.job_id = job_id;
    return rec;
  }
  const std::string stored = r->elements.size() > 1 ? r->elements[1].str : "";
  const size_t space = stored.find(' ');
  rec.body_hash = stored.substr(0, space);
  rec.job_id = space == std::string::npos ? "" : stored.substr(space + 1);
  return rec;
}

Status RedisJobStore::ReleaseIdempotencyKey(std::string_view account_id, std::string_view key,
                                            std::string_view body_hash, std::string_view job_id) {
  auto r = redis_.Eval(scripts::kReleaseIdempotency, {IdempotencyKey(account_id, key)},
                       {std::string(body_hash) + " " + std::string(job_id)});
  return r.ok() ? Status::Ok() : r.status();
}

Result<Claim> RedisJobStore::ClaimJob(std::string_view account_id, std::string_view id,
                                      std::string_view started_at) {
  // Durable: the attempt starts only once its claim would survive a failover (a claim lost with
  // the master would leave this attempt's work to be refused and its count lost).
  auto d = redis_.EvalDurable(
      scripts::kClaim,
      {JobKey(account_id, id), JobPartKey(account_id, id, "issues"),
       JobPartKey(account_id, id, "cleaned"), JobPartKey(account_id, id, "summary"),
       AccountKey(account_id, "job_bytes"), JobPartKey(account_id, id, "fixes")},
      {std::string(started_at), std::string(id), RandomBase62(22)});
  if (!d.ok()) return d.status();
  const RedisReply* r = &d->reply;
  Claim c;
  const std::string kind = r->elements.empty() ? "gone" : r->elements[0].str;
  if (kind == "gone" || r->elements.size() < 2) return c;
  // A claim, or a finished job's unpublished event (the finish must be replicated before its
  // event goes out): both wrote, and wait for their replicas.
  if ((kind == "run" || kind == "finished") && !d->confirmed) return redis_.NotReplicated(*d);
  c.job = JobFromHash(Pairs(r->elements[1]));
  if (c.job.account_id != account_id) return Claim{};
  c.kind = kind == "finished"       ? ClaimKind::kFinished
           : kind == "not_accepted" ? ClaimKind::kNotAccepted
                                    : ClaimKind::kRun;
  if (c.kind == ClaimKind::kRun && artifacts_ != nullptr) {
    // The objects of earlier attempts are no longer named by the job: drop them now rather than
    // wait for the sweep (best effort; a fenced-out attempt may still add some, the sweep's).
    auto prefix = artifact::JobPrefix(account_id, id);
    auto objects = prefix.ok() ? artifacts_->ListAll(*prefix)
                               : Result<std::vector<artifact::ObjectInfo>>(prefix.status());
    std::string last;
    for (const auto& o : objects.ok() ? *objects : std::vector<artifact::ObjectInfo>{}) {
      auto name = artifact::ParseObjectKey(o.key);
      if (!name || name->attempt == artifact::kUploadAttempt ||
          name->attempt == AttemptName(c.job) || name->attempt == last) {
        continue;
      }
      last = name->attempt;
      DeleteObjects(artifact::AttemptPrefix(account_id, id, name->attempt));
    }
  }
  return c;
}

}  // namespace dq::gateway
