// Transport-neutral HTTP request and response. The Pistache adapter converts to and from these;
// everything else in the gateway, and its tests, works on them alone.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace dq::http {

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;    // "/v1/jobs/123", without the query
  std::vector<std::pair<std::string, std::string>> query;  // decoded name/value pairs
  std::map<std::string, std::string, std::less<>> headers;  // names lower-cased
  std::string body;
  std::string client_ip;
  std::string request_id;

  // The header's value, or nullptr. name must be lower-case.
  const std::string* Header(std::string_view name) const {
    auto it = headers.find(name);
    return it == headers.end() ? nullptr : &it->second;
  }
  std::optional<std::string> Query(std::string_view name) const {
    for (const auto& [k, v] : query) {
      if (k == name) return v;
    }
    return std::nullopt;
  }
};

enum class BodyStep { kMore, kEnd, kFailed };

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // Optional: a body written in pieces after the headers (chunked), so a large answer is never
  // held whole. `body` is sent first; then each call appends the next piece to *out and says
  // whether more follow (kMore), the body is complete (kEnd), or it cannot be completed
  // (kFailed). A failure midway is too late for an error status: the server closes the
  // connection without the last chunk, so the client sees an incomplete answer, never a short
  // one that looks whole.
  std::function<BodyStep(std::string* out)> body_producer;
  // Optional, with body_producer: the bytes the producer holds between pieces (the piece of a
  // file it is reading, say), for the server's bound on what downloads hold
  // (dq/http/download_ledger.h). Called on the thread that last called the producer, never
  // while it runs.
  std::function<size_t()> body_held_bytes;
  // An error answer's JSON object ({"error", "message", ...}), of which `body` is the rendering.
  // Kept so that the request id is set as a member of the object (AddRequestId), never spliced
  // into the text. Made by ErrorResponse() and ErrorBodyResponse() (dq/http/error_response.h).
  std::shared_ptr<const nlohmann::ordered_json> error;
  // Optional: the answer is not ready yet; slow work (a validator call) runs elsewhere, so the
  // HTTP thread is free at once. The server calls `deferred` once, on its thread, with a `send`
  // function; the work calls send(answer) exactly once, from any thread, when the answer is
  // ready. The connection reads no further request until then, so answers keep their order.
  // The other fields of a deferred response are ignored; a deferred answer may not be deferred
  // again.
  using Send = std::function<void(HttpResponse)>;
  std::function<void(Send send)> deferred;

  // Applies f to this answer now, or, for a deferred one, to the answer when it is ready.
  void Then(std::function<void(HttpResponse&)> f) {
    if (!deferred) {
      f(*this);
      return;
    }
    deferred = [inner = std::move(deferred), f = std::move(f)](Send send) {
      inner([f, send = std::move(send)](HttpResponse answer) {
        f(answer);
        send(std::move(answer));
      });
    };
  }

  void SetHeader(std::string name, std::string value) {
    for (auto& [k, v] : headers) {
      if (k == name) {
        v = std::move(value);
        return;
      }
    }
    headers.emplace_back(std::move(name), std::move(value));
  }
  // The whole body, the producer's pieces included (tests and small consumers); what was made
  // before a failure, if the producer failed.
  std::string FullBody() const {
    std::string all = body;
    if (body_producer) {
      while (body_producer(&all) == BodyStep::kMore) {
      }
    }
    return all;
  }
  const std::string* FindHeader(std::string_view name) const {
    for (const auto& [k, v] : headers) {
      if (k == name) return &v;
    }
    return nullptr;
  }
};

}  // namespace dq::http
