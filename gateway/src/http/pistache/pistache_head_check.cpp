#include "http/pistache/pistache_head_check.h"

#include <pistache/cookie.h>
#include <pistache/http.h>
#include <pistache/http_headers.h>

#include <algorithm>
#include <exception>
#include <string>

namespace dq::gateway {
namespace {

using namespace Pistache;

// The methods Pistache's request-line parser knows (http_defs.h); any other is refused there.
constexpr std::string_view kMethods[] = {
#define METHOD(repr, str) str,
    HTTP_METHODS
#undef METHOD
};

Status Bad(std::string message) { return Status(ErrorCode::kInvalidRequest, std::move(message)); }

std::string Clip(std::string_view s) {
  return s.size() <= 40 ? std::string(s) : std::string(s.substr(0, 40)) + "...";
}

}  // namespace

Status PistacheHeadVerdict(std::string_view block, const edge::RequestHead& head) {
  try {
    if (std::find(std::begin(kMethods), std::end(kMethods), head.method) == std::end(kMethods)) {
      return Bad("The method " + Clip(head.method) +
                 " is not supported; use GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.");
    }
    // Each header Pistache parses into a typed value, parsed by the same code, so the message can
    // name it. The edge has judged Content-Length and Transfer-Encoding itself.
    auto& registry = Http::Header::Registry::instance();
    for (const auto& [name, value] : head.headers) {
      if (name == "content-length" || name == "transfer-encoding") continue;
      std::string display = name;
      try {
        if (name == "cookie") {
          display = "Cookie";
          Http::CookieJar jar;
          jar.addFromRaw(value.data(), value.size());
        } else if (registry.isRegistered(name)) {
          auto typed = registry.makeHeader(name);
          display = typed->name();
          typed->parseRaw(value.data(), value.size());
        }
      } catch (const std::exception&) {
        return Bad("The " + display + " header's value is malformed.");
      }
    }
    // The whole head through Pistache's request parser, as the connection's parser will read it:
    // whatever it would refuse that the checks above did not name.
    const std::string bare = edge::HeadWithoutBody(block);
    Http::Private::ParserImpl<Http::Request> parser(bare.size() + 1);
    if (!parser.feed(bare.data(), bare.size())) return Bad("The request head is malformed.");
    parser.parse();
  } catch (const std::exception&) {
    return Bad("The request head is malformed.");
  }
  return Status::Ok();
}

}  // namespace dq::gateway
