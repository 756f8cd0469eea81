#include "dq/artifact/s3_artifact_store.h"

#include <openssl/evp.h>

#include <algorithm>
#include <ctime>
#include <random>
#include <thread>

#include "dq/artifact/object_key.h"
#include "dq/common/crypto.h"
#include "xml_leaves.h"

namespace dq::artifact {
namespace {

std::string Md5(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(data.data(), data.size(), digest, &size, EVP_md5(), nullptr);
  return std::string(reinterpret_cast<char*>(digest), size);
}

std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

double UnitRandom() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
}

std::string ErrorCodeOf(const HttpResponse& r) {
  XmlLeaves leaves;
  if (r.body.empty() || !ParseXmlLeaves(r.body, &leaves)) return "";
  return FirstLeaf(leaves, "Code");
}

// Whether trying the same step again may succeed: the network, the service's own trouble, or
// being told to slow down.
bool Retryable(const HttpResponse& r) {
  if (!r.sink_status.ok()) return false;
  if (r.status == 0) return true;
  if (r.status == 429 || r.status == 500 || r.status == 502 || r.status == 503 ||
      r.status == 504) {
    return true;
  }
  const std::string code = ErrorCodeOf(r);
  return code == "SlowDown" || code == "RequestTimeout" || code == "InternalError" ||
         code == "ServiceUnavailable";
}

std::string Describe(const HttpResponse& r) {
  if (r.status == 0) return r.error.empty() ? "no answer" : r.error;
  XmlLeaves leaves;
  std::string out = "HTTP " + std::to_string(r.status);
  if (!r.body.empty() && ParseXmlLeaves(r.body, &leaves)) {
    const std::string code = FirstLeaf(leaves, "Code");
    const std::string message = FirstLeaf(leaves, "Message");
    if (!code.empty()) out += " " + code;
    if (!message.empty()) out += ": " + message;
  }
  return out;
}

bool Ok(const HttpResponse& r) { return r.status >= 200 && r.status < 300; }

// "2026-11-26T07:10:00.000Z" -> seconds since 1970; 0 when it does not read.
int64_t IsoSeconds(const std::string& text) {
  std::tm tm{};
  if (strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) return 0;
  return static_cast<int64_t>(timegm(&tm));
}

}  // namespace

std::chrono::milliseconds BackoffDelay(int retry, std::chrono::milliseconds base,
                                       std::chrono::milliseconds cap, double unit) {
  int64_t ceiling = base.count();
  for (int i = 1; i < retry && ceiling < cap.count(); ++i) ceiling *= 2;
  ceiling = std::min<int64_t>(ceiling, cap.count());
  return std::chrono::milliseconds(static_cast<int64_t>(unit * static_cast<double>(ceiling)));
}

// --- The store ---------------------------------------------------------------------------------

S3ArtifactStore::S3ArtifactStore(S3Options options, std::unique_ptr<HttpTransport> transport,
                                 Sleeper sleep)
    : options_(std::move(options)),
      transport_(transport ? std::move(transport) : std::make_unique<CurlHttpTransport>()),
      sleep_(sleep ? std::move(sleep)
                   : Sleeper([](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); })) {
  while (!options_.endpoint.empty() && options_.endpoint.back() == '/') options_.endpoint.pop_back();
  const size_t scheme = options_.endpoint.find("://");
  host_ = scheme == std::string::npos ? options_.endpoint : options_.endpoint.substr(scheme + 3);
}

HttpResponse S3ArtifactStore::SendOnce(const Call& call, const Sink* sink) {
  std::string path = "/" + options_.bucket;
  if (!call.key.empty()) path += "/" + UriEncode(call.key, true);
  const std::string query = CanonicalQuery(call.query);
  const std::string date = AmzDate(std::chrono::system_clock::now());

  SigV4Request signing;
  signing.method = call.method;
  signing.canonical_uri = path;
  signing.query = call.query;
  signing.payload_sha256 = Sha256Hex(call.body);
  signing.headers = {{"host", host_},
                     {"x-amz-content-sha256", signing.payload_sha256},
                     {"x-amz-date", date}};
  if (!options_.credentials.session_token.empty()) {
    signing.headers.emplace_back("x-amz-security-token", options_.credentials.session_token);
  }
  for (const auto& header : call.headers) signing.headers.push_back(header);
  const SigV4Signature signature =
      SignV4(signing, {date, options_.region, "s3"}, options_.credentials);

  HttpRequest request;
  request.method = call.method;
  request.url = options_.endpoint + path + (query.empty() ? "" : "?" + query);
  request.headers = signing.headers;
  request.headers.emplace_back("Authorization", signature.authorization);
  request.body = call.body;
  return transport_->Send(request, sink);
}

void S3ArtifactStore::Backoff(int retry) {
  sleep_(BackoffDelay(retry, options_.backoff_base, options_.backoff_cap, UnitRandom()));
}

HttpResponse S3ArtifactStore::SendWithRetries(const Call& call, bool* exhausted) {
  *exhausted = false;
  for (int attempt = 1;; ++attempt) {
    HttpResponse r = SendOnce(call, nullptr);
    if (!Retryable(r)) return r;
    if (attempt >= options_.max_attempts) {
      *exhausted = true;
      return r;
    }
    Backoff(attempt);
  }
}

namespace {

Status Failure(const HttpResponse& r, bool exhausted, std::string_view what, int attempts) {
  if (exhausted) {
    return Status(ErrorCode::kUnavailable, "S3 " + std::string(what) + " failed after " +
                                               std::to_string(attempts) + " tries: " + Describe(r));
  }
  if (r.status == 404) {
    return Status(ErrorCode::kNotFound, "S3 " + std::string(what) + ": " + Describe(r));
  }
  return Status(ErrorCode::kInternal, "S3 " + std::string(what) + " refused: " + Describe(r));
}

}  // namespace

Status S3ArtifactStore::EnsureBucket() {
  bool exhausted = false;
  HttpResponse head = SendWithRetries({"HEAD", "", {}, {}, {}}, &exhausted);
  if (Ok(head)) return Status::Ok();
  if (head.status != 404) {
    return Failure(head, exhausted, "HEAD bucket " + options_.bucket, options_.max_attempts);
  }
  // No LocationConstraint: the service's default region (RGW refuses real region names).
  HttpResponse put = SendWithRetries({"PUT", "", {}, {}, {}}, &exhausted);
  if (Ok(put) || ErrorCodeOf(put) == "BucketAlreadyOwnedByYou") return Status::Ok();
  return Failure(put, exhausted, "create bucket " + options_.bucket, options_.max_attempts);
}

Status S3ArtifactStore::Put(std::string_view key, std::string_view bytes) {
  if (Status s = ValidateKey(key); !s.ok()) return s;
  if (static_cast<int64_t>(bytes.size()) > options_.part_bytes) {
    auto writer = OpenWriter(key);
    if (!writer.ok()) return writer.status();
    if (Status s = (*writer)->Write(bytes); !s.ok()) return s;
    return (*writer)->Commit();
  }
  bool exhausted = false;
  HttpResponse r = SendWithRetries(
      {"PUT", std::string(key), {}, {{"content-type", "application/octet-stream"}}, bytes},
      &exhausted);
  if (Ok(r)) return Status::Ok();
  return Failure(r, exhausted, "PUT " + std::string(key), options_.max_attempts);
}

Result<ObjectInfo> S3ArtifactStore::Stat(std::string_view key) {
  if (Status s = ValidateKey(key); !s.ok()) return s;
  bool exhausted = false;
  HttpResponse r = SendWithRetries({"HEAD", std::string(key), {}, {}, {}}, &exhausted);
  if (r.status == 404) return Status(ErrorCode::kNotFound, "no object " + std::string(key));
  if (!Ok(r)) return Failure(r, exhausted, "HEAD " + std::string(key), options_.max_attempts);
  auto it = r.headers.find("content-length");
  if (it == r.headers.end()) {
    return Status(ErrorCode::kInternal, "S3 HEAD " + std::string(key) + ": no Content-Length");
  }
  ObjectInfo info{std::string(key), std::stoll(it->second), 0};
  if (auto m = r.headers.find("last-modified"); m != r.headers.end()) {
    std::tm tm{};  // "Thu, 26 Nov 2026 07:10:00 GMT"
    if (strptime(m->second.c_str(), "%a, %d %b %Y %H:%M:%S", &tm) != nullptr) {
      info.modified = static_cast<int64_t>(timegm(&tm));
    }
  }
  return info;
}

Status S3ArtifactStore::Get(std::string_view key, ByteRange range, const Sink& sink) {
  if (Status s = ValidateKey(key); !s.ok()) return s;
  if (range.length == 0) {
    auto info = Stat(key);
    return info.ok() ? Status::Ok() : info.status();
  }
  const int64_t offset = std::max<int64_t>(0, range.offset);
  const int64_t end = range.length < 0 ? -1 : offset + range.length;  // exclusive
  int64_t delivered = 0;
  std::string etag;
  for (int attempt = 1;; ++attempt) {
    const int64_t from = offset + delivered;
    if (end >= 0 && from >= end) return Status::Ok();  // everything arrived before a cut
    Call call{"GET", std::string(key), {}, {}, {}};
    if (from > 0 || end >= 0) {
      call.headers.emplace_back(
          "range", "bytes=" + std::to_string(from) + "-" + (end >= 0 ? std::to_string(end - 1) : ""));
    }
    if (!etag.empty()) call.headers.emplace_back("if-match", etag);
    HttpResponse r = SendOnce(call, &sink);
    if (!r.sink_status.ok()) return r.sink_status;
    delivered += r.streamed;
    if (etag.empty() && (Ok(r) || r.streamed > 0)) {
      if (auto it = r.headers.find("etag"); it != r.headers.end()) etag = it->second;
    }
    if (Ok(r)) return Status::Ok();
    if (r.status == 416) return Status::Ok();  // starts at or past the end: no bytes
    if (r.status == 404 && delivered == 0) {
      return Status(ErrorCode::kNotFound, "no object " + std::string(key));
    }
    if (r.status == 412 || r.status == 404) {
      return Status(ErrorCode::kUnavailable,
                    "object " + std::string(key) + " changed while it was being read");
    }
    if (!Retryable(r)) {
      return Failure(r, false, "GET " + std::string(key), attempt);
    }
    if (attempt >= options_.max_attempts) {
      return Failure(r, true, "GET " + std::string(key), attempt);
    }
    Backoff(attempt);
  }
}

Result<ListPage> S3ArtifactStore::List(std::string_view prefix, std::string_view after,
                                       int limit) {
  if (limit < 1 || limit > 1000) {
    return Status(ErrorCode::kInvalidRequest,
                  "a listing takes 1 to 1000 objects, not " + std::to_string(limit));
  }
  if (Status s = ValidatePrefix(prefix); !s.ok()) return s;
  Call call{"GET", "", {{"list-type", "2"}, {"max-keys", std::to_string(limit)}}, {}, {}};
  if (!prefix.empty()) call.query.emplace_back("prefix", std::string(prefix));
  if (!after.empty()) call.query.emplace_back("start-after", std::string(after));
  bool exhausted = false;
  HttpResponse r = SendWithRetries(call, &exhausted);
  if (!Ok(r)) return Failure(r, exhausted, "list " + std::string(prefix), options_.max_attempts);
  XmlLeaves leaves;
  if (!ParseXmlLeaves(r.body, &leaves)) {
    return Status(ErrorCode::kUnavailable, "S3 list " + std::string(prefix) + ": unreadable answer");
  }
  ListPage page;
  for (const auto& [name, text] : leaves) {
    if (name == "Key") {
      page.objects.push_back({text, 0});
    } else if (name == "Size" && !page.objects.empty()) {
      page.objects.back().size = std::stoll(text);
    } else if (name == "LastModified" && !page.objects.empty()) {
      page.objects.back().modified = IsoSeconds(text);
    } else if (name == "IsTruncated") {
      page.truncated = text == "true";
    }
  }
  return page;
}

Result<int64_t> S3ArtifactStore::DeletePrefix(std::string_view prefix) {
  if (prefix.empty() || prefix.back() != '/') {
    return Status(ErrorCode::kInvalidRequest,
                  "a prefix to delete must end with '/', not \"" + std::string(prefix) + "\"");
  }
  if (Status s = ValidatePrefix(prefix); !s.ok()) return s;
  int64_t deleted = 0;
  std::string after;
  for (;;) {
    auto page = List(prefix, after, 1000);
    if (!page.ok()) return page.status();
    if (page->objects.empty()) break;
    // DeleteObjects: one request for up to 1,000 keys; Quiet, so the answer lists only failures.
    std::string xml = "<Delete><Quiet>true</Quiet>";
    for (const auto& object : page->objects) xml += "<Object><Key>" + object.key + "</Key></Object>";
    xml += "</Delete>";
    bool exhausted = false;
    HttpResponse r = SendWithRetries(
        {"POST", "", {{"delete", ""}},
         {{"content-md5", Base64Encode(Md5(xml))}, {"content-type", "application/xml"}}, xml},
        &exhausted);
    if (!Ok(r)) return Failure(r, exhausted, "delete " + std::string(prefix), options_.max_attempts);
    XmlLeaves leaves;
    if (!ParseXmlLeaves(r.body, &leaves)) {
      return Status(ErrorCode::kUnavailable, "S3 delete " + std::string(prefix) + ": unreadable answer");
    }
    int64_t failed = 0;
    std::string first_error;
    for (const auto& [name, text] : leaves) {
      if (name == "Code") {
        ++failed;
        if (first_error.empty()) first_error = text;
      }
    }
    if (failed > 0) {
      return Status(ErrorCode::kUnavailable, "S3 delete " + std::string(prefix) + ": " +
                                                 std::to_string(failed) +
                                                 " objects not deleted (" + first_error + ")");
    }
    deleted += static_cast<int64_t>(page->objects.size());
    after = page->objects.back().key;
    if (!page->truncated) break;
  }
  return deleted;
}

// --- Multipart uploads -------------------------------------------------------------------------

class S3ObjectWriter final : public ObjectWriter {
 public:
  S3ObjectWriter(S3ArtifactStore* store, std::string key) : store_(store), key_(std::move(key)) {}
  ~S3ObjectWriter() override { Abort(); }

  Status Write(std::string_view bytes) override {
    if (closed_) return Status(ErrorCode::kInternal, "write to a closed writer of " + key_);
    const size_t part = static_cast<size_t>(store_->options_.part_bytes);
    while (!bytes.empty()) {
      const size_t take = std::min(bytes.size(), part - buffer_.size());
      buffer_.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
      written_ += static_cast<int64_t>(take);
      if (buffer_.size() == part) {
        if (Status s = SendPart(); !s.ok()) {
          Abort();
          return s;
        }
      }
    }
    return Status::Ok();
  }

  Status Commit() override {
    if (closed_) return Status(ErrorCode::kInternal, "commit of a closed writer of " + key_);
    Status s;
    if (upload_id_.empty()) {
      // Everything fits in one part: a plain PUT, which is safe to repeat.
      s = store_->Put(key_, buffer_);
    } else if (!buffer_.empty() && !(s = SendPart()).ok()) {
      // fall through to Abort
    } else {
      s = Complete();
    }
    if (s.ok()) {
      committed_ = true;
      closed_ = true;
      buffer_.clear();
      buffer_.shrink_to_fit();
      return s;
    }
    Abort();
    return s;
  }

  void Abort() override {
    if (committed_ || (closed_ && upload_id_.empty())) return;
    closed_ = true;
    buffer_.clear();
    buffer_.shrink_to_fit();
    if (upload_id_.empty()) return;
    bool exhausted = false;
    // Best effort: an upload left behind is the sweep's (and the bucket lifecycle's).
    (void)store_->SendWithRetries({"DELETE", key_, {{"uploadId", upload_id_}}, {}, {}}, &exhausted);
    upload_id_.clear();
  }

  int64_t bytes_written() const override { return written_; }

 private:
  struct Part {
    int number;
    std::string etag;  // as the service answered, quoted
    std::string md5;   // raw
  };

  // Starts the upload. Not idempotent: a try whose answer was lost may have started an upload
  // that nobody knows, so before trying again abort every upload of this key (the writer owns
  // its key; a key belongs to one attempt).
  Status Initiate() {
    const int max = store_->options_.max_attempts;
    for (int attempt = 1;; ++attempt) {
      HttpResponse r = store_->SendOnce({"POST", key_, {{"uploads", ""}}, {}, {}}, nullptr);
      if (Ok(r)) {
        XmlLeaves leaves;
        if (ParseXmlLeaves(r.body, &leaves)) upload_id_ = FirstLeaf(leaves, "UploadId");
        if (upload_id_.empty()) {
          return Status(ErrorCode::kInternal, "S3 start of an upload of " + key_ + ": no UploadId");
        }
        return Status::Ok();
      }
      if (!Retryable(r)) return Failure(r, false, "start of an upload of " + key_, attempt);
      if (attempt >= max) return Failure(r, true, "start of an upload of " + key_, attempt);
      AbortUnknownUploads();
      store_->Backoff(attempt);
    }
  }

  void AbortUnknownUploads() {
    bool exhausted = false;
    HttpResponse r = store_->SendWithRetries(
        {"GET", "", {{"uploads", ""}, {"prefix", key_}}, {}, {}}, &exhausted);
    XmlLeaves leaves;
    if (!Ok(r) || !ParseXmlLeaves(r.body, &leaves)) return;  // the sweep will find them
    std::string key;
    for (const auto& [name, text] : leaves) {
      if (name == "Key") key = text;
      if (name == "UploadId" && key == key_) {
        (void)store_->SendWithRetries({"DELETE", key_, {{"uploadId", text}}, {}, {}}, &exhausted);
      }
    }
  }

  // Sends buffer_ as the next part (a PUT of one part number is safe to repeat).
  Status SendPart() {
    if (upload_id_.empty()) {
      if (Status s = Initiate(); !s.ok()) return s;
    }
    const int number = static_cast<int>(parts_.size()) + 1;
    bool exhausted = false;
    HttpResponse r = store_->SendWithRetries(
        {"PUT", key_, {{"partNumber", std::to_string(number)}, {"uploadId", upload_id_}}, {},
         buffer_},
        &exhausted);
    if (r.status == 404) {
      return Status(ErrorCode::kUnavailable,
                    "S3 upload of " + key_ + " is gone before its part " + std::to_string(number) +
                        ": " + Describe(r));
    }
    if (!Ok(r)) {
      return Failure(r, exhausted, "upload of part " + std::to_string(number) + " of " + key_,
                     store_->options_.max_attempts);
    }
    Part part{number, "", Md5(buffer_)};
    if (auto it = r.headers.find("etag"); it != r.headers.end()) part.etag = it->second;
    if (part.etag.empty()) part.etag = "\"" + Hex(part.md5) + "\"";
    parts_.push_back(std::move(part));
    buffer_.clear();
    return Status::Ok();
  }

  // The ETag S3 gives a multipart object: the MD5 of the parts' MD5s, then "-" and their count.
  // Meaningful only when every part's ETag was its MD5 (not so with SSE-KMS, for instance).
  std::string ExpectedEtag(bool* comparable) const {
    std::string md5s;
    *comparable = true;
    for (const Part& part : parts_) {
      md5s += part.md5;
      if (part.etag != "\"" + Hex(part.md5) + "\"") *comparable = false;
    }
    std::string etag = "\"";
    etag += Hex(Md5(md5s));
    etag += '-';
    etag += std::to_string(parts_.size());
    etag += '"';
    return etag;
  }

  // Not idempotent: once a try succeeds, the upload is gone and a repeat answers NoSuchUpload.
  // So a NoSuchUpload after a try whose outcome is unknown is checked against the object.
  Status Complete() {
    std::string xml = "<CompleteMultipartUpload>";
    for (const Part& part : parts_) {
      xml += "<Part><PartNumber>" + std::to_string(part.number) + "</PartNumber><ETag>" +
             part.etag + "</ETag></Part>";
    }
    xml += "</CompleteMultipartUpload>";
    const int max = store_->options_.max_attempts;
    bool uncertain = false;
    for (int attempt = 1;; ++attempt) {
      HttpResponse r = store_->SendOnce(
          {"POST", key_, {{"uploadId", upload_id_}}, {{"content-type", "application/xml"}}, xml},
          nullptr);
      if (Ok(r)) {
        // A 200 may still carry an error in its body (the service failed after answering 200).
        // The ETag in a good answer is not looked at: RGW 16.2 sends it empty.
        const std::string code = ErrorCodeOf(r);
        if (code.empty()) {
          upload_id_.clear();
          return Status::Ok();
        }
        r.status = code == "InternalError" || code == "SlowDown" ? 500 : 400;
      }
      if (r.status == 404) {
        // NoSuchUpload: after a try whose outcome is unknown, maybe that try's success;
        // otherwise someone aborted the upload (a sweep, a lifecycle rule): try the job again.
        if (uncertain) return Verify();
        return Status(ErrorCode::kUnavailable,
                      "S3 upload of " + key_ + " is gone before its completion: " + Describe(r));
      }
      if (!Retryable(r)) return Failure(r, false, "completion of an upload of " + key_, attempt);
      if (attempt >= max) return Failure(r, true, "completion of an upload of " + key_, attempt);
      uncertain = true;
      store_->Backoff(attempt);
    }
  }

  // Whether the object under key_ is the one this writer's parts make.
  Status Verify() {
    bool exhausted = false;
    HttpResponse r = store_->SendWithRetries({"HEAD", key_, {}, {}, {}}, &exhausted);
    if (!Ok(r)) {
      return Status(ErrorCode::kUnavailable,
                    "S3 upload of " + key_ + ": its completion's outcome is unknown (" +
                        Describe(r) + ")");
    }
    bool comparable = false;
    const std::string expected = ExpectedEtag(&comparable);
    const auto etag = r.headers.find("etag");
    const auto length = r.headers.find("content-length");
    const bool same = comparable ? etag != r.headers.end() && etag->second == expected
                                 : length != r.headers.end() && length->second == std::to_string(written_);
    if (!same) {
      return Status(ErrorCode::kUnavailable,
                    "S3 upload of " + key_ + " was lost: the object there is not this upload");
    }
    upload_id_.clear();
    return Status::Ok();
  }

  S3ArtifactStore* store_;
  std::string key_;
  std::string buffer_;
  std::string upload_id_;
  std::vector<Part> parts_;
  int64_t written_ = 0;
  bool closed_ = false;
  bool committed_ = false;
};

Result<std::unique_ptr<ObjectWriter>> S3ArtifactStore::OpenWriter(std::string_view key) {
  if (Status s = ValidateKey(key); !s.ok()) return s;
  return std::unique_ptr<ObjectWriter>(std::make_unique<S3ObjectWriter>(this, std::string(key)));
}

}  // namespace dq::artifact
