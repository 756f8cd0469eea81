#include "pipeline/router.h"

namespace dq::gateway {
namespace {

std::vector<std::string_view> Split(std::string_view path) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '/') {
      ++i;
      continue;
    }
    const size_t j = path.find('/', i);
    out.push_back(path.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    if (j == std::string_view::npos) break;
    i = j;
  }
  return out;
}

bool Match(std::string_view pattern, const std::vector<std::string_view>& segments,
           std::vector<std::string>* params) {
  const auto parts = Split(pattern);
  if (parts.size() != segments.size()) return false;
  params->clear();
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!parts[i].empty() && parts[i][0] == ':') {
      params->emplace_back(segments[i]);
    } else if (parts[i] != segments[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string RouteTemplate(std::string_view pattern) {
  std::string path;
  for (std::string_view seg : Split(pattern)) {
    path += '/';
    if (seg[0] == ':') {
      path += '{';
      path += seg.substr(1);
      path += '}';
    } else {
      path += seg;
    }
  }
  return path;
}

std::vector<std::string> RouteList() {
  std::vector<std::string> out;
  for (const auto& [bit, prefix] :
       {std::pair{kApiDoor, kApiPrefix}, {kConsoleDoor, kConsolePrefix}}) {
    for (const Route& r : RouteTable()) {
      if ((r.doors & bit) == 0) continue;
      out.push_back(std::string(r.method) + " " + RouteTemplate(std::string(prefix) +
                                                                 std::string(r.pattern)));
    }
  }
  return out;
}

RouteMatch MatchRoute(std::string_view method, std::string_view path) {
  if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  // Empty segments ("//") never match: Split drops them, so compare lengths too.
  if (path.find("//") != std::string_view::npos) return {};
  RouteMatch result;
  uint8_t door = 0;
  std::string_view door_prefix;
  for (auto [d, prefix] : {std::pair{Door::kApi, kApiPrefix}, {Door::kConsole, kConsolePrefix}}) {
    if (path.starts_with(prefix) &&
        (path.size() == prefix.size() || path[prefix.size()] == '/')) {
      result.door = d;
      door = d == Door::kApi ? kApiDoor : kConsoleDoor;
      door_prefix = prefix;
      path.remove_prefix(prefix.size());
    }
  }
  if (door == 0) return result;
  const auto segments = Split(path);
  std::vector<std::string> params;
  for (const Route& r : RouteTable()) {
    if ((r.doors & door) == 0) continue;
    if (!Match(r.pattern, segments, &params)) continue;
    // HEAD is answered wherever GET is, with GET's head and no body (the server drops it).
    if (r.method == method || (method == "HEAD" && r.method == "GET")) {
      result.kind = RouteMatch::Kind::kFound;
      result.route = &r;
      result.rate_class = r.rate_class;
      result.params = params;
      result.pattern = std::string(door_prefix) + std::string(r.pattern);
      return result;
    }
    result.kind = RouteMatch::Kind::kMethodNotAllowed;
    result.rate_class = r.rate_class;
    result.pattern = std::string(door_prefix) + std::string(r.pattern);
    if (result.allow.find(r.method) == std::string::npos) {
      if (!result.allow.empty()) result.allow += ", ";
      result.allow += r.method;
    }
  }
  return result;
}

}  // namespace dq::gateway
