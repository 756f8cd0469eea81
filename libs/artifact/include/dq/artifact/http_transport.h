// The S3 store's one door to the network: send a request, get the answer. CurlHttpTransport is
// the real one; unit tests script a fake to lose replies and fail steps (s3_artifact_store's
// retries and checks), while the integration tests run the real one against a real RGW.
//
// Threading: Send may be called from any number of threads at once.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "dq/artifact/artifact_store.h"

typedef void CURL;

namespace dq::artifact {

struct HttpRequest {
  std::string method;  // GET HEAD PUT POST DELETE
  std::string url;     // scheme://host[:port]/path?query, already encoded
  std::vector<std::pair<std::string, std::string>> headers;
  std::string_view body;  // sent with its Content-Length (PUT, POST); must outlive Send
};

struct HttpResponse {
  int status = 0;     // 0: no answer (could not connect, timed out, cut off): see error
  std::string error;  // what went wrong in transport
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;   // the body, unless a 2xx body went to the sink
  int64_t streamed = 0;  // bytes of a 2xx body given to the sink
  Status sink_status;    // the sink's refusal, when it stopped the transfer
};

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // With a sink, a 2xx answer's body goes to it in pieces as it arrives; other answers' bodies
  // (errors, at most 1 MiB kept) go to response.body. Never throws.
  virtual HttpResponse Send(const HttpRequest& request, const Sink* sink) = 0;
};

struct CurlTransportOptions {
  std::chrono::milliseconds connect_timeout{5'000};
  // A transfer that moves no byte for this long is cut off (kept per byte, not per request,
  // so a long download to a slow client is not).
  std::chrono::milliseconds stall_timeout{30'000};
};

// libcurl's easy interface, with a pool of handles so connections are kept between requests.
class CurlHttpTransport final : public HttpTransport {
 public:
  explicit CurlHttpTransport(CurlTransportOptions options = {});
  ~CurlHttpTransport() override;
  HttpResponse Send(const HttpRequest& request, const Sink* sink) override;

 private:
  CURL* Acquire();
  void Release(CURL* handle);

  CurlTransportOptions options_;
  std::mutex mu_;
  std::vector<CURL*> idle_;
};

}  // namespace dq::artifact
