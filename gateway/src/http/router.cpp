#include "router.h"

namespace dq::gateway {
namespace {

struct Route {
  std::string_view method;
  std::string_view pattern;
  RouteId id;
  RateClass rate_class;
};

// The upload endpoint is the only one in the upload class (10/min); every other /v1 endpoint is
// general (60/min).
constexpr Route kRoutes[] = {
    {"POST", "/v1/validate", RouteId::kValidate, RateClass::kGeneral},
    {"GET", "/v1/usage", RouteId::kUsage, RateClass::kGeneral},
    {"POST", "/v1/jobs", RouteId::kCreateJob, RateClass::kUpload},
    {"GET", "/v1/jobs", RouteId::kListJobs, RateClass::kGeneral},
    {"POST", "/v1/jobs/preview", RouteId::kPreviewJob, RateClass::kGeneral},
    {"GET", "/v1/jobs/:id", RouteId::kGetJob, RateClass::kGeneral},
    {"DELETE", "/v1/jobs/:id", RouteId::kDeleteJob, RateClass::kGeneral},
    {"GET", "/v1/jobs/:id/summary", RouteId::kJobSummary, RateClass::kGeneral},
    {"GET", "/v1/jobs/:id/cleaned", RouteId::kJobCleaned, RateClass::kGeneral},
    {"GET", "/v1/jobs/:id/issues", RouteId::kJobIssues, RateClass::kGeneral},
};

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
  for (const Route& r : kRoutes) out.push_back(std::string(r.method) + " " + RouteTemplate(r.pattern));
  return out;
}

RouteMatch MatchRoute(std::string_view method, std::string_view path) {
  if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  // Empty segments ("//") never match: Split drops them, so compare lengths too.
  if (path.find("//") != std::string_view::npos) return {};
  const auto segments = Split(path);
  RouteMatch result;
  std::vector<std::string> params;
  for (const Route& r : kRoutes) {
    if (!Match(r.pattern, segments, &params)) continue;
    if (r.method == method) {
      result.kind = RouteMatch::Kind::kFound;
      result.id = r.id;
      result.rate_class = r.rate_class;
      result.params = params;
      result.pattern = r.pattern;
      return result;
    }
    result.kind = RouteMatch::Kind::kMethodNotAllowed;
    result.rate_class = r.rate_class;
    result.pattern = r.pattern;
    if (result.allow.find(r.method) == std::string::npos) {
      if (!result.allow.empty()) result.allow += ", ";
      result.allow += r.method;
    }
  }
  return result;
}

}  // namespace dq::gateway
