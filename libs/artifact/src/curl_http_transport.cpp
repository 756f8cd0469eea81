#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "dq/artifact/http_transport.h"

namespace dq::artifact {
namespace {

constexpr size_t kMaxErrorBody = 1024 * 1024;
constexpr size_t kMaxIdleHandles = 16;

struct Transfer {
  CURL* curl;
  const Sink* sink;
  HttpResponse* response;
  std::string_view upload;  // what is left to send
};

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string_view line(data, size * count);
  if (line.substr(0, 5) == "HTTP/") {
    t->response->headers.clear();  // a new answer (after a 100 Continue)
    return size * count;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  std::string name(line.substr(0, colon));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
    value.remove_suffix(1);
  }
  t->response->headers[name] = std::string(value);
  return size * count;
}

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  long code = 0;
  curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &code);
  if (t->sink != nullptr && code >= 200 && code < 300) {
    Status s = (*t->sink)(std::string_view(data, n));
    if (!s.ok()) {
      t->response->sink_status = std::move(s);
      return 0;  // stops the transfer
    }
    t->response->streamed += static_cast<int64_t>(n);
    return n;
  }
  const size_t cap = t->sink != nullptr ? kMaxErrorBody : SIZE_MAX;
  t->response->body.append(data, std::min(n, cap - std::min(cap, t->response->body.size())));
  return n;
}

size_t OnRead(char* buffer, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = std::min(size * count, t->upload.size());
  std::copy_n(t->upload.data(), n, buffer);
  t->upload.remove_prefix(n);
  return n;
}

}  // namespace

CurlHttpTransport::CurlHttpTransport(CurlTransportOptions options) : options_(options) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

CurlHttpTransport::~CurlHttpTransport() {
  for (CURL* handle : idle_) curl_easy_cleanup(handle);
}

CURL* CurlHttpTransport::Acquire() {
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      CURL* handle = idle_.back();
      idle_.pop_back();
      return handle;
    }
  }
  return curl_easy_init();
}

void CurlHttpTransport::Release(CURL* handle) {
  std::lock_guard lock(mu_);
  if (idle_.size() < kMaxIdleHandles) {
    idle_.push_back(handle);
  } else {
    curl_easy_cleanup(handle);
  }
}

HttpResponse CurlHttpTransport::Send(const HttpRequest& request, const Sink* sink) {
  HttpResponse response;
  CURL* curl = Acquire();
  if (curl == nullptr) {
    response.error = "curl handle could not be created";
    return response;
  }
  curl_easy_reset(curl);  // keeps the connection cache
  Transfer transfer{curl, sink, &response, request.body};

  curl_slist* headers = nullptr;
  for (const auto& [name, value] : request.headers) {
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  }
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_PROXY, "");  // the store is reached directly
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout.count()));
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME,
                   std::max(1L, static_cast<long>(options_.stall_timeout.count() / 1000)));
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (request.method == "PUT") {
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, OnRead);
    curl_easy_setopt(curl, CURLOPT_READDATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  } else if (request.method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  } else if (request.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }

  const CURLcode rc = curl_easy_perform(curl);
  long code = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
  curl_slist_free_all(headers);
  if (rc != CURLE_OK) {
    response.status = 0;  // the answer, if any began, is incomplete
    response.error = curl_easy_strerror(rc);
    // A handle whose transfer failed may hold a broken connection: do not keep it.
    curl_easy_cleanup(curl);
    return response;
  }
  response.status = static_cast<int>(code);
  Release(curl);
  return response;
}

}  // namespace dq::artifact
