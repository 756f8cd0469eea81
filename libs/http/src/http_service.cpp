#include "dq/http/http_service.h"

#include <cctype>

#include "dq/common/crypto.h"

namespace dq::http {

std::string RequestIdFor(const HttpRequest& request) {
  const std::string* id = request.Header("x-request-id");
  if (id == nullptr || id->empty() || id->size() > 128) return NewUuidV4();
  for (char c : *id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
      return NewUuidV4();
    }
  }
  return *id;
}

}  // namespace dq::http

namespace dq::http {
namespace {

const char* Reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Unknown";
  }
}

}  // namespace

std::string SerializeResponse(const HttpResponse& response, const std::string& request_id,
                              bool close) {
  std::string out = "HTTP/1.1 " + std::to_string(response.status) + " " +
                    Reason(response.status) + "\r\n";
  for (const auto& [name, value] : response.headers) out += name + ": " + value + "\r\n";
  out += "Content-Type: " + response.content_type + "\r\n";
  out += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  out += "X-Request-Id: " + request_id + "\r\n";
  out += close ? "Connection: close\r\n\r\n" : "Connection: keep-alive\r\n\r\n";
  out += response.body;
  return out;
}

}  // namespace dq::http
