// The edge's decision on a large body, from the headers alone, before the body is read: only
// callers with a valid API key (with API access) on an existing /v1 route, or a valid console
// session on /console/api, may send one. Others get their 401/403/404/405/413/429 now, with the
// same refusals the door's pipeline would give (steps.h), in the same order.
#pragma once

#include <functional>
#include <optional>

#include "console/console_api.h"
#include "dq/http/http_types.h"
#include "pipeline/steps.h"

namespace dq::gateway {

class Admission {
 public:
  // session_valid and console may be null (session_valid: the console decides).
  Admission(const KeyAuthentication& keys, ConsoleApi* console,
            std::function<bool(const http::HttpRequest&)> session_valid, size_t max_validate_bytes)
      : keys_(keys),
        console_(console),
        session_valid_(std::move(session_valid)),
        max_validate_bytes_(max_validate_bytes) {}

  // nullopt: read the body. Otherwise the refusal, without the headers Finish adds.
  std::optional<http::HttpResponse> Admit(const http::HttpRequest& head,
                                          std::optional<size_t> body_bytes) const;

 private:
  std::optional<http::HttpResponse> AdmitApi(const http::HttpRequest& head,
                                             std::optional<size_t> body_bytes) const;

  const KeyAuthentication& keys_;
  ConsoleApi* console_;
  std::function<bool(const http::HttpRequest&)> session_valid_;
  size_t max_validate_bytes_;
};

}  // namespace dq::gateway
