// ArtifactStore on any S3-compatible service (AWS S3, GCS in S3 interoperability mode, Ceph RGW,
// MinIO): DQ_ARTIFACT_STORE=s3. libcurl for HTTP, AWS Signature Version 4 (sigv4.h) on OpenSSL
// for authentication. What it relies on is the common core of the S3 API, so it runs the same
// on every one of them:
// - path-style requests only (<endpoint>/<bucket>/<key>), which every S3 service accepts and RGW
//   without a DNS name requires;
// - every request signed with the body's SHA-256 in x-amz-content-sha256 (the service checks
//   the bytes it received against it), never the SDKs' newer streaming checksums;
// - objects larger than one part go up as a multipart upload, a part at a time, so a writer
//   holds at most one part; the reply to CompleteMultipartUpload may carry an empty ETag (RGW
//   16.2 does), and nothing here depends on it.
//
// Retries: a step that failed on the network, with a 5xx, a 429, SlowDown or RequestTimeout
// is tried again up to max_attempts times, with exponential backoff and full jitter. Only steps
// whose repetition is harmless are repeated blindly (GET, HEAD, PUT of an object or a part,
// DELETE, listing). The two that are not are checked first:
// - starting a multipart upload: a lost reply may have created an upload nobody knows; before
//   trying again the writer lists the uploads of its key and aborts them;
// - completing one: when a retry answers NoSuchUpload, the first try may have succeeded with its
//   reply lost; the writer reads the object back and accepts it only if its ETag is the one the
//   parts make (MD5 of the parts' MD5s, "-N"), or, for services whose ETags are not MD5s,
//   its size.
// A read that fails midway resumes where it stopped, with If-Match on the object's ETag, so a
// replaced object is never spliced into the bytes already sent.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "dq/artifact/artifact_store.h"
#include "dq/artifact/http_transport.h"
#include "dq/artifact/sigv4.h"

namespace dq::artifact {

struct S3Options {
  std::string endpoint;  // "https://s3.eu-west-1.amazonaws.com", "http://127.0.0.1:7480"
  std::string bucket;
  std::string region = "us-east-1";
  SigV4Credentials credentials;
  int64_t part_bytes = 8 * 1024 * 1024;  // 5 MiB (S3's minimum part) .. 5 GiB
  int max_attempts = 5;                  // per step, the first try included
  std::chrono::milliseconds backoff_base{100};
  std::chrono::milliseconds backoff_cap{5'000};
};

// The delay before retry number `retry` (1 = the first retry): full jitter over
// [0, min(cap, base * 2^(retry-1))], with `unit` a random number in [0, 1).
std::chrono::milliseconds BackoffDelay(int retry, std::chrono::milliseconds base,
                                       std::chrono::milliseconds cap, double unit);

class S3ArtifactStore final : public ArtifactStore {
 public:
  using Sleeper = std::function<void(std::chrono::milliseconds)>;
  // transport: nullptr for CurlHttpTransport. sleep: nullptr for std::this_thread::sleep_for.
  S3ArtifactStore(S3Options options, std::unique_ptr<HttpTransport> transport = nullptr,
                  Sleeper sleep = nullptr);

  // Creates the bucket when it does not exist (development and tests; in production the bucket,
  // its lifecycle rules and its access policy are the operator's). OK when it exists and is
  // ours.
  Status EnsureBucket();

  Status Put(std::string_view key, std::string_view bytes) override;
  Result<std::unique_ptr<ObjectWriter>> OpenWriter(std::string_view key) override;
  Status Get(std::string_view key, ByteRange range, const Sink& sink) override;
  Result<ObjectInfo> Stat(std::string_view key) override;
  Result<int64_t> DeletePrefix(std::string_view prefix) override;
  Result<ListPage> List(std::string_view prefix, std::string_view after, int limit) override;

  const S3Options& options() const { return options_; }

 private:
  friend class S3ObjectWriter;
  struct Call {
    std::string method;
    std::string key;  // "" for the bucket itself
    std::vector<std::pair<std::string, std::string>> query;
    std::vector<std::pair<std::string, std::string>> headers;  // besides the signed defaults
    std::string_view body;
  };
  // One signed try.
  HttpResponse SendOnce(const Call& call, const Sink* sink);
  // Tries until an answer that is not worth retrying, or max_attempts. The answer is the last
  // one; *exhausted says the tries ran out on a retryable failure.
  HttpResponse SendWithRetries(const Call& call, bool* exhausted);
  // Sleeps before retry number `retry`.
  void Backoff(int retry);

  S3Options options_;
  std::unique_ptr<HttpTransport> transport_;
  Sleeper sleep_;
  std::string host_;  // the Host header: host[:port] of the endpoint
};

}  // namespace dq::artifact
