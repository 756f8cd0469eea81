#include "dq/webhook/curl_http_sender.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>

#include "dq/webhook/address_policy.h"

namespace dq::webhook {
namespace {

struct SocketGuard {
  bool allow_private;
  std::string* refused;
};

std::string AddressText(const sockaddr* addr) {
  char buf[INET6_ADDRSTRLEN] = {0};
  if (addr->sa_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(addr)->sin_addr, buf, sizeof buf);
  } else if (addr->sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(addr)->sin6_addr, buf, sizeof buf);
  }
  return buf;
}

// Runs after name resolution, before connect(): the one place that sees the real target.
curl_socket_t OpenSocket(void* clientp, curlsocktype purpose, struct curl_sockaddr* address) {
  auto* guard = static_cast<SocketGuard*>(clientp);
  if (purpose != CURLSOCKTYPE_IPCXN) return CURL_SOCKET_BAD;
  if (!guard->allow_private) {
    const AddressClass cls = ClassifyAddress(&address->addr);
    if (!IsPublic(cls)) {
      *guard->refused = "refused address " + AddressText(&address->addr) + " (" +
                        std::string(AddressClassName(cls)) + ")";
      return CURL_SOCKET_BAD;
    }
  }
  return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

struct BodySink {
  size_t total = 0;
  std::string kept;  // the first kKeptResponseBytes
};

size_t KeepBodyHead(char* data, size_t size, size_t nmemb, void* userdata) {
  // Keep the head of the receiver's answer for the delivery log, read and drop the rest, and
  // stop a receiver that streams forever.
  auto* sink = static_cast<BodySink*>(userdata);
  const size_t n = size * nmemb;
  if (sink->kept.size() < kKeptResponseBytes + 1) {
    sink->kept.append(data, std::min(n, kKeptResponseBytes + 1 - sink->kept.size()));
  }
  sink->total += n;
  return sink->total > 1024 * 1024 ? 0 : n;
}

}  // namespace

void CurlHttpSender::GlobalInit() { curl_global_init(CURL_GLOBAL_DEFAULT); }

CurlHttpSender::CurlHttpSender(CurlSenderOptions options)
    : options_(options), curl_(curl_easy_init()) {}

CurlHttpSender::~CurlHttpSender() {
  if (curl_ != nullptr) curl_easy_cleanup(curl_);
}

HttpResult CurlHttpSender::Post(const HttpPost& post) {
  HttpResult result;
  if (curl_ == nullptr) {
    result.error = "curl handle could not be created";
    return result;
  }
  curl_easy_reset(curl_);  // keeps the connection cache
  refused_.clear();
  SocketGuard guard{options_.allow_private, &refused_};
  BodySink body;

  curl_slist* headers = nullptr;
  for (const auto& [name, value] : post.headers) {
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  }
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip

  curl_easy_setopt(curl_, CURLOPT_URL, post.url.c_str());
  curl_easy_setopt(curl_, CURLOPT_PROTOCOLS_STR, options_.allow_http ? "http,https" : "https");
  curl_easy_setopt(curl_, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl_, CURLOPT_PROXY, "");  // ignore http_proxy/https_proxy from the env
  curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl_, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.timeout.count()));
  curl_easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(options_.connect_timeout.count()));
  curl_easy_setopt(curl_, CURLOPT_POST, 1L);
  curl_easy_setopt(curl_, CURLOPT_POSTFIELDS, post.body.data());
  curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(post.body.size()));
  curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl_, CURLOPT_USERAGENT, "dq-notifier/1");
  curl_easy_setopt(curl_, CURLOPT_OPENSOCKETFUNCTION, &OpenSocket);
  curl_easy_setopt(curl_, CURLOPT_OPENSOCKETDATA, &guard);
  curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, &KeepBodyHead);
  curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &body);

  const auto start = std::chrono::steady_clock::now();
  const CURLcode rc = curl_easy_perform(curl_);
  result.latency_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  curl_slist_free_all(headers);

  if (rc == CURLE_OK) {
    long code = 0;
    curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &code);
    result.status = static_cast<int>(code);
  } else if (!refused_.empty()) {
    result.error = refused_;
  } else if (rc == CURLE_OPERATION_TIMEDOUT) {
    result.error = "timeout";
  } else {
    result.error = curl_easy_strerror(rc);
  }
  result.body_truncated = body.kept.size() > kKeptResponseBytes;
  if (result.body_truncated) body.kept.resize(kKeptResponseBytes);
  result.body = std::move(body.kept);
  // Don't keep the pointers to this call's locals.
  curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, nullptr);
  curl_easy_setopt(curl_, CURLOPT_OPENSOCKETDATA, nullptr);
  return result;
}

}  // namespace dq::webhook
