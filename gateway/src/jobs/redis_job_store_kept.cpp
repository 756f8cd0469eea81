// RedisJobStore (redis_job_store.h): previewed uploads kept for their Start (KeepUpload,
// KeptUploadFile, DropKeptUpload). A kept upload's bytes are reserved as a job's are; each
// account keeps at most StoreLimits::max_kept_uploads, for StoreLimits::kept_upload_ttl.
#include "limits/quota.h"
#include "piece_codec.h"
#include "redis_job_store.h"
#include "redis_job_store_internal.h"

namespace dq::gateway {

using redis_store::CheckReplies;
using redis_store::Int;
using redis_store::Pairs;

Status RedisJobStore::KeepUpload(const KeptUpload& up, std::string_view file) {
  const std::string& a = up.account_id;
  Job pseudo;  // the bytes are reserved as a job's are, under the upload's id
  pseudo.id = up.id;
  pseudo.account_id = a;
  pseudo.file_bytes = up.bytes;
  if (Status s = ReserveBytes(pseudo); !s.ok()) return s;
  const std::string ttl = std::to_string(limits_.kept_upload_ttl.count());
  const std::string file_key = JobPartKey(a, up.id, "file");
  const std::string kept_key = JobPartKey(a, up.id, "kept");
  const std::string list_key = AccountKey(a, "kept");
  constexpr size_t kPiece = 1 << 20;
  std::vector<std::vector<std::string>> keep_cmds;
  for (size_t at = 0; at < file.size(); at += kPiece) {
    keep_cmds.push_back({"RPUSH", file_key, CompressPiece(file.substr(at, kPiece))});
  }
  // The account's list is ordered by when each was kept, in microseconds; one kept before
  // now - ttl has expired (an entry an earlier version scored in milliseconds counts as expired:
  // its keys still expire with their ttl).
  const int64_t ttl_us = limits_.kept_upload_ttl.count() * 1'000'000;
  const int64_t kept_us =
      up.kept_us > 0 ? up.kept_us : up.expires_ms * 1000 - ttl_us;
  keep_cmds.push_back({"EXPIRE", file_key, ttl});
  keep_cmds.push_back({"HSET", kept_key, "filename", up.filename, "content_type", up.content_type,
                  "bytes", std::to_string(up.bytes), "expires_ms", std::to_string(up.expires_ms)});
  keep_cmds.push_back({"EXPIRE", kept_key, ttl});
  keep_cmds.push_back({"DEL", JobPartKey(a, up.id, "reserved")});
  keep_cmds.push_back({"ZREMRANGEBYSCORE", list_key, "-inf",
                       "(" + std::to_string(kept_us - ttl_us)});
  keep_cmds.push_back({"ZADD", list_key, std::to_string(kept_us), up.id});
  keep_cmds.push_back({"EXPIRE", list_key, ttl});
  keep_cmds.push_back({"ZRANGE", list_key, "0", "-1"});
  auto replies = redis_.Pipeline(keep_cmds);
  if (Status s = CheckReplies(replies); !s.ok()) {
    IgnoreError(DropKeptUpload(a, up.id), "best effort: what is left expires with kept_upload_ttl");
    return s;
  }
  // Past the account's limit, the oldest go; this one is the newest whatever the clocks say (two
  // gateways' clocks may differ by more than the time between two previews).
  const RedisReply& all = replies->back();
  int extra = static_cast<int>(all.elements.size()) - limits_.max_kept_uploads;
  for (size_t i = 0; i < all.elements.size() && extra > 0; ++i) {
    if (all.elements[i].str == up.id) continue;
    // Best effort: one left behind expires with kept_upload_ttl.
    IgnoreError(DropKeptUpload(a, all.elements[i].str), "it expires with kept_upload_ttl");
    --extra;
  }
  return Status::Ok();
}

Result<std::optional<std::pair<KeptUpload, std::string>>> RedisJobStore::KeptUploadFile(
    std::string_view account_id, std::string_view id) {
  using Found = std::optional<std::pair<KeptUpload, std::string>>;
  auto replies = redis_.Pipeline({{"HGETALL", JobPartKey(account_id, id, "kept")},
                                  {"LRANGE", JobPartKey(account_id, id, "file"), "0", "-1"}});
  if (Status s = CheckReplies(replies); !s.ok()) return s;
  if ((*replies)[0].elements.empty() || (*replies)[1].elements.empty()) return Found();
  KeptUpload up;
  up.id = id;
  up.account_id = account_id;
  for (const auto& [k, v] : Pairs((*replies)[0])) {
    if (k == "filename") up.filename = v;
    else if (k == "content_type") up.content_type = v;
    else if (k == "bytes") up.bytes = Int(v);
    else if (k == "expires_ms") up.expires_ms = Int(v);
  }
  std::string file;
  file.reserve(static_cast<size_t>(up.bytes));
  for (auto& e : (*replies)[1].elements) {
    auto piece = DecompressPiece(e.str);
    if (!piece.ok()) return piece.status();
    file += *piece;
  }
  if (static_cast<int64_t>(file.size()) != up.bytes) return Found();  // partly expired
  return Found(std::make_pair(std::move(up), std::move(file)));
}

Status RedisJobStore::DropKeptUpload(std::string_view account_id, std::string_view id) {
  auto r = redis_.Pipeline(
      {{"DEL", JobPartKey(account_id, id, "file"), JobPartKey(account_id, id, "kept")},
       {"HDEL", AccountKey(account_id, "job_bytes"), std::string(id)},
       {"ZREM", AccountKey(account_id, "kept"), std::string(id)}});
  return CheckReplies(r);
}

}  // namespace dq::gateway
