// The S3 store's own logic over a scripted transport: signing what it sends, which failures it
// retries and how often, and the checks before repeating a step that is not idempotent. The
// store against a real S3 server is tests/integration/artifact.
#include "dq/artifact/s3_artifact_store.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <deque>
#include <functional>

#include "dq/common/crypto.h"

namespace dq::artifact {
namespace {

struct Sent {
  std::string method, url, body;
  std::map<std::string, std::string> headers;  // lower-cased
};

// Answers each request with the next scripted handler (the last one repeats).
class ScriptedTransport final : public HttpTransport {
 public:
  using Handler = std::function<HttpResponse(const Sent&, const Sink*)>;
  explicit ScriptedTransport(std::vector<Sent>* sent) : sent_(sent) {}
  void Then(Handler h) { script_.push_back(std::move(h)); }
  HttpResponse Send(const HttpRequest& request, const Sink* sink) override {
    Sent s{request.method, request.url, std::string(request.body), {}};
    for (const auto& [name, value] : request.headers) {
      std::string lower = name;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      s.headers[lower] = value;
    }
    sent_->push_back(s);
    Handler h = script_.size() > 1 ? script_.front() : script_.back();
    if (script_.size() > 1) script_.pop_front();
    return h(s, sink);
  }

 private:
  std::vector<Sent>* sent_;
  std::deque<Handler> script_;
};

HttpResponse Answer(int status, std::string body = "", std::map<std::string, std::string> h = {}) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  r.headers = std::move(h);
  return r;
}
HttpResponse Lost() {
  HttpResponse r;
  r.error = "Connection reset by peer";
  return r;
}
std::string S3Error(const std::string& code, const std::string& message) {
  return "<?xml version=\"1.0\"?><Error><Code>" + code + "</Code><Message>" + message +
         "</Message></Error>";
}
std::string Md5Hex(std::string_view data) {
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), d, &n, EVP_md5(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < n; ++i) {
    out.push_back(hex[d[i] >> 4]);
    out.push_back(hex[d[i] & 15]);
  }
  return out;
}
std::string Unhex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

class S3StoreTest : public ::testing::Test {
 protected:
  S3StoreTest() {
    auto transport = std::make_unique<ScriptedTransport>(&sent_);
    transport_ = transport.get();
    S3Options o;
    o.endpoint = "http://127.0.0.1:9/";
    o.bucket = "bkt";
    o.credentials = {"AK", "SECRET", ""};
    o.part_bytes = 5 * 1024 * 1024;
    o.max_attempts = 3;
    store_ = std::make_unique<S3ArtifactStore>(
        o, std::move(transport), [this](std::chrono::milliseconds d) { slept_.push_back(d); });
  }
  std::vector<Sent> sent_;
  std::vector<std::chrono::milliseconds> slept_;
  ScriptedTransport* transport_;
  std::unique_ptr<S3ArtifactStore> store_;
};

TEST_F(S3StoreTest, RequestsArePathStyleAndSignTheBodysHash) {
  transport_->Then([](const Sent&, const Sink*) { return Answer(200); });
  ASSERT_TRUE(store_->Put("jobs/a/j/c/summary.json", "{}").ok());
  ASSERT_EQ(sent_.size(), 1u);
  EXPECT_EQ(sent_[0].method, "PUT");
  EXPECT_EQ(sent_[0].url, "http://127.0.0.1:9/bkt/jobs/a/j/c/summary.json");
  EXPECT_EQ(sent_[0].headers["host"], "127.0.0.1:9");
  EXPECT_EQ(sent_[0].headers["x-amz-content-sha256"], Sha256Hex("{}"));
  EXPECT_EQ(sent_[0].headers["authorization"].rfind("AWS4-HMAC-SHA256 Credential=AK/", 0), 0u);
  EXPECT_NE(sent_[0].headers["authorization"].find(
                "SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date,"),
            std::string::npos);
  EXPECT_EQ(sent_[0].body, "{}");
}

TEST_F(S3StoreTest, ServerErrorsAndThrottlingAreRetriedWithBackoff) {
  transport_->Then([](const Sent&, const Sink*) { return Answer(503, S3Error("SlowDown", "Reduce your request rate.")); });
  transport_->Then([](const Sent&, const Sink*) { return Answer(400, S3Error("RequestTimeout", "Idle.")); });
  transport_->Then([](const Sent&, const Sink*) { return Answer(200); });
  ASSERT_TRUE(store_->Put("jobs/a/j/c/x", "bytes").ok());
  EXPECT_EQ(sent_.size(), 3u);
  ASSERT_EQ(slept_.size(), 2u);
  EXPECT_LE(slept_[0].count(), 100);
  EXPECT_LE(slept_[1].count(), 200);
}

TEST_F(S3StoreTest, GivingUpIsUnavailableAndSaysWhy) {
  transport_->Then([](const Sent&, const Sink*) { return Answer(503, S3Error("SlowDown", "Reduce your request rate.")); });
  Status s = store_->Put("jobs/a/j/c/x", "bytes");
  EXPECT_EQ(s.code(), ErrorCode::kUnavailable);
  EXPECT_EQ(s.message(),
            "S3 PUT jobs/a/j/c/x failed after 3 tries: HTTP 503 SlowDown: Reduce your request rate.");
  EXPECT_EQ(sent_.size(), 3u);
}

TEST_F(S3StoreTest, ARefusalIsNotRetried) {
  transport_->Then([](const Sent&, const Sink*) {
    return Answer(403, S3Error("SignatureDoesNotMatch", "Check your key."));
  });
  Status s = store_->Put("jobs/a/j/c/x", "bytes");
  EXPECT_EQ(s.code(), ErrorCode::kInternal);
  EXPECT_EQ(s.message(), "S3 PUT jobs/a/j/c/x refused: HTTP 403 SignatureDoesNotMatch: Check your key.");
  EXPECT_EQ(sent_.size(), 1u);
}

// The multipart steps of a 6 MiB object in 5 MiB parts, with a hook to change any answer.
class MultipartTest : public S3StoreTest {
 protected:
  void Script(std::function<std::optional<HttpResponse>(const Sent&, int call)> override_answer) {
    transport_->Then([this, override_answer](const Sent& s, const Sink*) {
      const int call = static_cast<int>(sent_.size());
      if (auto r = override_answer(s, call)) return *r;
      if (s.method == "POST" && s.url.find("?uploads=") != std::string::npos) {
        return Answer(200, "<InitiateMultipartUploadResult><Bucket>bkt</Bucket><Key>k</Key>"
                           "<UploadId>up-1</UploadId></InitiateMultipartUploadResult>");
      }
      if (s.method == "PUT" && s.url.find("partNumber=") != std::string::npos) {
        return Answer(200, "", {{"etag", "\"" + Md5Hex(s.body) + "\""}});
      }
      if (s.method == "POST" && s.url.find("uploadId=up-1") != std::string::npos) {
        // RGW 16.2's answer: a good completion with an empty ETag.
        return Answer(200, "<CompleteMultipartUploadResult><ETag></ETag>"
                           "</CompleteMultipartUploadResult>");
      }
      if (s.method == "HEAD") return Answer(200, "", {{"etag", object_etag_}, {"content-length", "6291456"}});
      if (s.method == "DELETE") return Answer(204);
      return Answer(500, "unexpected");
    });
  }
  Status WriteSixMiB() {
    auto writer = store_->OpenWriter("jobs/a/j/c/big");
    if (!writer.ok()) return writer.status();
    if (Status s = (*writer)->Write(bytes_); !s.ok()) return s;
    return (*writer)->Commit();
  }
  std::vector<std::string> Steps() {
    std::vector<std::string> out;
    for (const auto& s : sent_) {
      const size_t q = s.url.find('?');
      out.push_back(s.method + (q == std::string::npos ? "" : " " + s.url.substr(q + 1)));
    }
    return out;
  }
  const std::string bytes_ = std::string(6 * 1024 * 1024, 'z');
  std::string object_etag_ =
      "\"" +
      Md5Hex(Unhex(Md5Hex(bytes_.substr(0, 5 * 1024 * 1024))) +
             Unhex(Md5Hex(bytes_.substr(5 * 1024 * 1024)))) +
      "-2\"";
};

TEST_F(MultipartTest, AnObjectLargerThanAPartGoesUpInParts) {
  Script([](const Sent&, int) { return std::nullopt; });
  ASSERT_TRUE(WriteSixMiB().ok());
  EXPECT_EQ(Steps(), (std::vector<std::string>{"POST uploads=", "PUT partNumber=1&uploadId=up-1",
                                               "PUT partNumber=2&uploadId=up-1",
                                               "POST uploadId=up-1"}));
  EXPECT_EQ(sent_[1].body.size(), 5u * 1024 * 1024);
  EXPECT_EQ(sent_[2].body.size(), 1u * 1024 * 1024);
  EXPECT_NE(sent_[3].body.find("<Part><PartNumber>2</PartNumber><ETag>\"" +
                               Md5Hex(sent_[2].body) + "\"</ETag></Part>"),
            std::string::npos);
}

TEST_F(MultipartTest, ALostCompletionIsCheckedAgainstTheObject) {
  int completions = 0;
  Script([&](const Sent& s, int) -> std::optional<HttpResponse> {
    if (s.method == "POST" && s.url.find("uploadId=") != std::string::npos) {
      // The first completion works but its answer is lost; the repeat finds no upload.
      if (++completions == 1) return Lost();
      return Answer(404, S3Error("NoSuchUpload", "The upload does not exist."));
    }
    return std::nullopt;
  });
  Status s = WriteSixMiB();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(Steps().back(), "HEAD");
}

TEST_F(MultipartTest, ALostCompletionWithAnotherObjectThereFails) {
  object_etag_ = "\"0123456789abcdef0123456789abcdef-2\"";
  int completions = 0;
  Script([&](const Sent& s, int) -> std::optional<HttpResponse> {
    if (s.method == "POST" && s.url.find("uploadId=") != std::string::npos) {
      if (++completions == 1) return Lost();
      return Answer(404, S3Error("NoSuchUpload", "The upload does not exist."));
    }
    return std::nullopt;
  });
  Status s = WriteSixMiB();
  EXPECT_EQ(s.code(), ErrorCode::kUnavailable);
  EXPECT_EQ(s.message(), "S3 upload of jobs/a/j/c/big was lost: the object there is not this upload");
}

TEST_F(MultipartTest, ANoSuchUploadOnTheFirstCompletionIsNotTakenForSuccess) {
  Script([&](const Sent& s, int) -> std::optional<HttpResponse> {
    if (s.method == "POST" && s.url.find("uploadId=") != std::string::npos) {
      return Answer(404, S3Error("NoSuchUpload", "The upload does not exist."));
    }
    return std::nullopt;
  });
  Status s = WriteSixMiB();
  EXPECT_EQ(s.code(), ErrorCode::kUnavailable);
  EXPECT_EQ(s.message(),
            "S3 upload of jobs/a/j/c/big is gone before its completion: HTTP 404 NoSuchUpload: "
            "The upload does not exist.");
  EXPECT_EQ(Steps().back(), "DELETE uploadId=up-1");  // and the upload is aborted
}

TEST_F(MultipartTest, ALostStartAbortsTheUploadItMayHaveMadeBeforeTryingAgain) {
  int starts = 0;
  Script([&](const Sent& s, int) -> std::optional<HttpResponse> {
    if (s.method == "POST" && s.url.find("?uploads=") != std::string::npos && ++starts == 1) {
      return Lost();
    }
    if (s.method == "GET" && s.url.find("uploads=") != std::string::npos) {
      return Answer(200, "<ListMultipartUploadsResult><Upload><Key>jobs/a/j/c/big</Key>"
                         "<UploadId>ghost</UploadId></Upload><Upload><Key>jobs/a/j/c/big2</Key>"
                         "<UploadId>other</UploadId></Upload></ListMultipartUploadsResult>");
    }
    return std::nullopt;
  });
  ASSERT_TRUE(WriteSixMiB().ok());
  const auto steps = Steps();
  ASSERT_GE(steps.size(), 4u);
  EXPECT_EQ(steps[0], "POST uploads=");
  EXPECT_EQ(steps[1], "GET prefix=jobs%2Fa%2Fj%2Fc%2Fbig&uploads=");
  EXPECT_EQ(steps[2], "DELETE uploadId=ghost");  // only this key's upload, not big2's
  EXPECT_EQ(steps[3], "POST uploads=");
}

TEST_F(MultipartTest, APartThatFailsIsSentAgain) {
  int puts = 0;
  Script([&](const Sent& s, int) -> std::optional<HttpResponse> {
    if (s.method == "PUT" && ++puts == 2) return Answer(500, S3Error("InternalError", "Oops."));
    return std::nullopt;
  });
  ASSERT_TRUE(WriteSixMiB().ok());
  EXPECT_EQ(Steps()[2], "PUT partNumber=2&uploadId=up-1");
  EXPECT_EQ(Steps()[3], "PUT partNumber=2&uploadId=up-1");
}

TEST_F(S3StoreTest, AReadCutMidwayResumesWhereItStoppedOnTheSameObject) {
  const std::string object = "0123456789abcdefghij";
  transport_->Then([&](const Sent&, const Sink* sink) {
    HttpResponse r = Lost();
    r.headers["etag"] = "\"e1\"";
    (void)(*sink)(std::string_view(object).substr(0, 7));
    r.streamed = 7;
    return r;
  });
  transport_->Then([&](const Sent& s, const Sink* sink) {
    HttpResponse r = Answer(206, "", {{"etag", "\"e1\""}});
    const size_t from = std::stoul(s.headers.at("range").substr(6));
    (void)(*sink)(std::string_view(object).substr(from));
    r.streamed = static_cast<int64_t>(object.size() - from);
    return r;
  });
  std::string got;
  Status s = store_->Get("jobs/a/j/c/x", ByteRange::All(), [&](std::string_view b) {
    got.append(b);
    return Status::Ok();
  });
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(got, object);
  ASSERT_EQ(sent_.size(), 2u);
  EXPECT_EQ(sent_[0].headers.count("range"), 0u);
  EXPECT_EQ(sent_[1].headers["range"], "bytes=7-");
  EXPECT_EQ(sent_[1].headers["if-match"], "\"e1\"");
}

TEST_F(S3StoreTest, AnObjectReplacedDuringAResumedReadIsNotSpliced) {
  transport_->Then([](const Sent&, const Sink* sink) {
    HttpResponse r = Lost();
    r.headers["etag"] = "\"e1\"";
    (void)(*sink)("0123");
    r.streamed = 4;
    return r;
  });
  transport_->Then([](const Sent&, const Sink*) {
    return Answer(412, S3Error("PreconditionFailed", "At least one precondition failed."));
  });
  Status s = store_->Get("jobs/a/j/c/x", {2, 10}, [](std::string_view) { return Status::Ok(); });
  EXPECT_EQ(s.code(), ErrorCode::kUnavailable);
  EXPECT_EQ(s.message(), "object jobs/a/j/c/x changed while it was being read");
  EXPECT_EQ(sent_[0].headers["range"], "bytes=2-11");
  EXPECT_EQ(sent_[1].headers["range"], "bytes=6-11");
}

TEST_F(S3StoreTest, ListingsReadKeysSizesAndTruncation) {
  transport_->Then([](const Sent&, const Sink*) {
    return Answer(200,
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult "
                  "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>bkt</Name>"
                  "<Prefix>jobs/</Prefix><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys>"
                  "<IsTruncated>true</IsTruncated><Contents><Key>jobs/a/1</Key><Size>10</Size>"
                  "<ETag>&quot;x&quot;</ETag></Contents><Contents><Key>jobs/a/2</Key>"
                  "<Size>0</Size></Contents></ListBucketResult>");
  });
  auto page = store_->List("jobs/", "jobs/a/0", 2);
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(page->objects, (std::vector<ObjectInfo>{{"jobs/a/1", 10}, {"jobs/a/2", 0}}));
  EXPECT_TRUE(page->truncated);
  EXPECT_EQ(sent_[0].url,
            "http://127.0.0.1:9/bkt?list-type=2&max-keys=2&prefix=jobs%2F&start-after=jobs%2Fa%2F0");
}

TEST(BackoffTest, FullJitterUnderADoublingCeilingWithACap) {
  using std::chrono::milliseconds;
  EXPECT_EQ(BackoffDelay(1, milliseconds(100), milliseconds(5000), 0.5), milliseconds(50));
  EXPECT_EQ(BackoffDelay(3, milliseconds(100), milliseconds(5000), 0.5), milliseconds(200));
  EXPECT_EQ(BackoffDelay(20, milliseconds(100), milliseconds(5000), 0.5), milliseconds(2500));
  EXPECT_EQ(BackoffDelay(2, milliseconds(100), milliseconds(5000), 0.0), milliseconds(0));
  EXPECT_LT(BackoffDelay(4, milliseconds(100), milliseconds(5000), 0.999), milliseconds(800));
}

}  // namespace
}  // namespace dq::artifact
