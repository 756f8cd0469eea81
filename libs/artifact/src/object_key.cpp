#include "dq/artifact/object_key.h"

#include <cstdio>

namespace dq::artifact {
namespace {

bool KeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

// The rules shared by keys and prefixes; `what` names the thing in the message.
Status CheckPath(std::string_view path, std::string_view what, bool allow_trailing_slash) {
  const std::string shown(path.substr(0, 80));
  auto bad = [&](std::string_view why) {
    return Status(ErrorCode::kInvalidRequest,
                  std::string(what) + " \"" + shown + "\" is not valid: " + std::string(why));
  };
  if (path.size() > kMaxKeyBytes) return bad("longer than 512 bytes");
  size_t start = 0;
  while (start < path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view segment = path.substr(start, end - start);
    if (segment.empty()) return bad("it has an empty segment");
    if (segment[0] == '.') return bad("a segment starts with '.'");
    for (char c : segment) {
      if (!KeyChar(c)) return bad("only A-Z a-z 0-9 . _ - and / are allowed");
    }
    start = end + 1;
    if (end + 1 == path.size() && !allow_trailing_slash) return bad("it ends with '/'");
  }
  return Status::Ok();
}

bool Part(std::string_view part) {
  if (part.empty() || part[0] == '.') return false;
  for (char c : part) {
    if (!KeyChar(c)) return false;
  }
  return true;
}

Status BadPart(std::string_view what, std::string_view value) {
  return Status(ErrorCode::kInvalidRequest,
                std::string(what) + " \"" + std::string(value.substr(0, 80)) +
                    "\" cannot be part of an object key (A-Z a-z 0-9 . _ - only, not starting "
                    "with '.')");
}

std::string Numbered(std::string_view dir, int64_t n) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%06lld", static_cast<long long>(n));
  return std::string(dir) + digits + ".zst";
}

}  // namespace

Status ValidateKey(std::string_view key) {
  if (key.empty()) return Status(ErrorCode::kInvalidRequest, "an object key cannot be empty");
  return CheckPath(key, "object key", false);
}

Status ValidatePrefix(std::string_view prefix) { return CheckPath(prefix, "prefix", true); }

Result<std::string> AccountPrefix(std::string_view account_id) {
  if (!Part(account_id)) return BadPart("account id", account_id);
  return std::string(kJobsPrefix) + std::string(account_id) + "/";
}

Result<std::string> JobPrefix(std::string_view account_id, std::string_view job_id) {
  auto account = AccountPrefix(account_id);
  if (!account.ok()) return account.status();
  if (!Part(job_id)) return BadPart("job id", job_id);
  return *account + std::string(job_id) + "/";
}

Result<std::string> AttemptPrefix(std::string_view account_id, std::string_view job_id,
                                  std::string_view attempt) {
  auto job = JobPrefix(account_id, job_id);
  if (!job.ok()) return job.status();
  if (!Part(attempt)) return BadPart("attempt", attempt);
  return *job + std::string(attempt) + "/";
}

Result<std::string> ObjectKey(const ObjectName& name) {
  auto prefix = AttemptPrefix(name.account_id, name.job_id, name.attempt);
  if (!prefix.ok()) return prefix.status();
  std::string key = *prefix + name.name;
  if (name.name.empty()) {
    return Status(ErrorCode::kInvalidRequest, "an object name cannot be empty");
  }
  if (Status s = ValidateKey(key); !s.ok()) return s;
  return key;
}

std::optional<ObjectName> ParseObjectKey(std::string_view key) {
  if (!ValidateKey(key).ok() || key.substr(0, kJobsPrefix.size()) != kJobsPrefix) {
    return std::nullopt;
  }
  std::string_view rest = key.substr(kJobsPrefix.size());
  ObjectName out;
  std::string* parts[] = {&out.account_id, &out.job_id, &out.attempt};
  for (std::string* part : parts) {
    const size_t slash = rest.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    *part = std::string(rest.substr(0, slash));
    rest.remove_prefix(slash + 1);
  }
  if (rest.empty()) return std::nullopt;
  out.name = std::string(rest);
  return out;
}

std::string IssuesPageName(int64_t page) { return Numbered("issues/", page); }
std::string FilePieceName(int64_t index) { return Numbered("file/", index); }

}  // namespace dq::artifact
