// AWS Signature Version 4 (header form), written from AWS's published algorithm: the canonical
// request, the string to sign, the signing key and the Authorization header. Pure functions, no
// I/O; checked against AWS's Signature Version 4 test suite and the S3 API reference's worked
// examples (tests/unit/artifact/sigv4_test.cpp names each vector).
//
//   SigV4Request r{"GET", "/bucket/key", {}, {{"host", "127.0.0.1:7480"},
//                  {"x-amz-date", date}, {"x-amz-content-sha256", hash}}, hash};
//   std::string authorization = SignV4(r, {date, "us-east-1", "s3"}, credentials).authorization;
//
// S3 differs from the other services in one point this signer leaves to its caller: S3's
// canonical URI is the path as sent, each segment URI-encoded once (UriEncode(path, false)),
// never normalised or encoded twice.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dq::artifact {

struct SigV4Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // temporary credentials only; sent as x-amz-security-token
};

struct SigV4Request {
  std::string method;
  std::string canonical_uri;  // the path as sent, already URI-encoded
  std::vector<std::pair<std::string, std::string>> query;    // names and values, not encoded
  std::vector<std::pair<std::string, std::string>> headers;  // every header to sign, as sent
  std::string payload_sha256;  // lowercase hex of the body, or "UNSIGNED-PAYLOAD"
};

struct SigV4Scope {
  std::string amz_date;  // "20150830T123600Z": the request's x-amz-date
  std::string region;    // "us-east-1"
  std::string service;   // "s3"
};

struct SigV4Signature {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signature;      // lowercase hex
  std::string authorization;  // the Authorization header's value
};

SigV4Signature SignV4(const SigV4Request& request, const SigV4Scope& scope,
                      const SigV4Credentials& credentials);

// RFC 3986 percent-encoding as SigV4 wants it: everything but A-Z a-z 0-9 - . _ ~ becomes %XX
// (uppercase hex); '/' too, unless keep_slash.
std::string UriEncode(std::string_view text, bool keep_slash);

// Names and values encoded, sorted by name then value, joined with '&'.
std::string CanonicalQuery(const std::vector<std::pair<std::string, std::string>>& query);

// "20150830T123600Z" for a time point (UTC).
std::string AmzDate(std::chrono::system_clock::time_point when);

}  // namespace dq::artifact
