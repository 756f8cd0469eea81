#include "dq/artifact/store_factory.h"

#include <cstring>

#include "dq/artifact/fs_artifact_store.h"

extern char** environ;

namespace dq::artifact {
namespace {

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidRequest, std::move(message));
}

// S3's rules for a bucket name (path-style): 3-63 of a-z 0-9 . -, starting and ending with a
// letter or digit.
bool BucketName(const std::string& name) {
  if (name.size() < 3 || name.size() > 63) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) return false;
  }
  auto edge = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  return edge(name.front()) && edge(name.back());
}

std::string Env(const std::map<std::string, std::string>& env, const char* name) {
  auto it = env.find(name);
  return it == env.end() ? "" : it->second;
}

}  // namespace

std::map<std::string, std::string> ProcessEnvironment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq != nullptr) env.emplace(std::string(*e, static_cast<size_t>(eq - *e)), eq + 1);
  }
  return env;
}

Result<S3Options> S3OptionsFromSettings(const Settings& settings,
                                        const std::map<std::string, std::string>& env) {
  S3Options o;
  o.endpoint = settings.String("DQ_S3_ENDPOINT");
  o.bucket = settings.String("DQ_S3_BUCKET");
  o.region = settings.String("DQ_S3_REGION");
  o.part_bytes = settings.Int("DQ_S3_PART_BYTES");
  o.max_attempts = static_cast<int>(settings.Int("DQ_S3_MAX_ATTEMPTS"));
  const bool http = o.endpoint.rfind("http://", 0) == 0;
  const bool https = o.endpoint.rfind("https://", 0) == 0;
  std::string authority = http ? o.endpoint.substr(7) : https ? o.endpoint.substr(8) : "";
  while (!authority.empty() && authority.back() == '/') authority.pop_back();
  if ((!http && !https) || authority.empty() || authority.find('/') != std::string::npos ||
      authority.find('?') != std::string::npos) {
    return Invalid("DQ_S3_ENDPOINT=" + o.endpoint +
                   " is not http(s)://host[:port] (the bucket goes in DQ_S3_BUCKET)");
  }
  if (!BucketName(o.bucket)) {
    return Invalid("DQ_S3_BUCKET=" + o.bucket +
                   " is not a bucket name (3-63 of a-z 0-9 . -, starting and ending with a letter "
                   "or digit)");
  }
  if (o.region.empty()) return Invalid("DQ_S3_REGION is empty (us-east-1 suits most services)");
  o.credentials.access_key_id = Env(env, "AWS_ACCESS_KEY_ID");
  o.credentials.secret_access_key = Env(env, "AWS_SECRET_ACCESS_KEY");
  o.credentials.session_token = Env(env, "AWS_SESSION_TOKEN");
  if (o.credentials.access_key_id.empty() || o.credentials.secret_access_key.empty()) {
    return Invalid(
        "DQ_ARTIFACT_STORE=s3 needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the "
        "environment");
  }
  return o;
}

Result<std::unique_ptr<ArtifactStore>> MakeArtifactStore(
    const Settings& settings, const std::map<std::string, std::string>& env) {
  const std::string& kind = settings.String("DQ_ARTIFACT_STORE");
  if (kind == "fs") {
    auto store = FsArtifactStore::Open(settings.String("DQ_ARTIFACT_DIR"));
    if (!store.ok()) return store.status();
    return std::unique_ptr<ArtifactStore>(std::move(*store));
  }
  if (kind == "s3") {
    auto options = S3OptionsFromSettings(settings, env);
    if (!options.ok()) return options.status();
    return std::unique_ptr<ArtifactStore>(std::make_unique<S3ArtifactStore>(std::move(*options)));
  }
  if (kind == "redis") return std::unique_ptr<ArtifactStore>();
  return Invalid("DQ_ARTIFACT_STORE=" + kind + " is not fs, s3 or redis");
}

}  // namespace dq::artifact
