// HttpSender over libcurl's easy interface: one handle per sender, so connections to a receiver
// are reused across deliveries made by the same thread.
//
// Hardening (see docs/notifier.md, "SSRF policy"): redirects are never followed; proxies from the
// environment are ignored; only http/https; and, unless allow_private, the address of every new
// connection is checked in CURLOPT_OPENSOCKETFUNCTION, after DNS resolution and before connect(),
// so a host name that resolves (or re-resolves) to a private address is refused.
#pragma once

#include <chrono>
#include <string>

#include "dq/webhook/http_sender.h"

typedef void CURL;

namespace dq::webhook {

struct CurlSenderOptions {
  std::chrono::milliseconds timeout{10'000};  // whole request
  std::chrono::milliseconds connect_timeout{5'000};
  bool allow_http = false;
  bool allow_private = false;
};

class CurlHttpSender final : public HttpSender {
 public:
  explicit CurlHttpSender(CurlSenderOptions options);
  ~CurlHttpSender() override;
  CurlHttpSender(const CurlHttpSender&) = delete;
  CurlHttpSender& operator=(const CurlHttpSender&) = delete;

  HttpResult Post(const HttpPost& post) override;

  // Call once in main() before any thread starts (curl_global_init is not thread-safe).
  static void GlobalInit();

 private:
  CurlSenderOptions options_;
  CURL* curl_ = nullptr;
  std::string refused_;  // set by the open-socket callback when it refuses an address
};

}  // namespace dq::webhook
