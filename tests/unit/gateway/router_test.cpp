#include "gateway.h"
#include "pipeline/router.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace dq::gateway {
namespace {

struct Case {
  const char* name;
  const char* method;
  const char* path;
  RouteMatch::Kind kind;
  const char* pattern;  // the matched route's, with its door
  RateClass rate_class;
};

class RouterTest : public ::testing::TestWithParam<Case> {};

TEST_P(RouterTest, Matches) {
  const Case& c = GetParam();
  RouteMatch m = MatchRoute(c.method, c.path);
  EXPECT_EQ(m.kind, c.kind);
  if (c.kind == RouteMatch::Kind::kFound) {
    EXPECT_EQ(m.pattern, c.pattern);
    ASSERT_NE(m.route, nullptr);
    EXPECT_NE(m.route->handler, nullptr);
  }
  if (c.kind != RouteMatch::Kind::kNotFound) {
    EXPECT_EQ(m.rate_class, c.rate_class);
  }
}

using K = RouteMatch::Kind;
INSTANTIATE_TEST_SUITE_P(
    Routes, RouterTest,
    ::testing::Values(
        Case{"validate", "POST", "/v1/validate", K::kFound, "/v1/validate", RateClass::kGeneral},
        Case{"validate_slash", "POST", "/v1/validate/", K::kFound, "/v1/validate",
             RateClass::kGeneral},
        Case{"validate_get", "GET", "/v1/validate", K::kMethodNotAllowed, "", RateClass::kGeneral},
        Case{"upload_is_upload_class", "POST", "/v1/jobs", K::kFound, "/v1/jobs",
             RateClass::kUpload},
        Case{"list_jobs", "GET", "/v1/jobs", K::kFound, "/v1/jobs", RateClass::kGeneral},
        Case{"get_job", "GET", "/v1/jobs/abc", K::kFound, "/v1/jobs/:id", RateClass::kGeneral},
        Case{"cleaned", "GET", "/v1/jobs/abc/cleaned", K::kFound, "/v1/jobs/:id/cleaned",
             RateClass::kGeneral},
        Case{"issues", "GET", "/v1/jobs/abc/issues", K::kFound, "/v1/jobs/:id/issues",
             RateClass::kGeneral},
        Case{"delete_job", "DELETE", "/v1/jobs/abc", K::kFound, "/v1/jobs/:id",
             RateClass::kGeneral},
        Case{"summary", "GET", "/v1/jobs/abc/summary", K::kFound, "/v1/jobs/:id/summary",
             RateClass::kGeneral},
        Case{"post_job_id", "POST", "/v1/jobs/abc", K::kMethodNotAllowed, "",
             RateClass::kGeneral},
        Case{"unknown", "GET", "/v1/nothing", K::kNotFound, "", RateClass::kGeneral},
        Case{"too_deep", "GET", "/v1/jobs/a/b/c", K::kNotFound, "", RateClass::kGeneral},
        Case{"double_slash", "GET", "/v1//jobs", K::kNotFound, "", RateClass::kGeneral}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(RouterParamsTest, CapturesTheJobId) {
  RouteMatch m = MatchRoute("GET", "/v1/jobs/1234-abcd/cleaned");
  ASSERT_EQ(m.params.size(), 1u);
  EXPECT_EQ(m.params[0], "1234-abcd");
}

TEST(RouterParamsTest, MethodNotAllowedListsAllowedMethods) {
  EXPECT_EQ(MatchRoute("PUT", "/v1/jobs").allow, "POST, GET");
  EXPECT_EQ(MatchRoute("GET", "/v1/validate").allow, "POST");
}

}  // namespace
}  // namespace dq::gateway

namespace dq::gateway {
namespace {

// The operations docs/openapi.yaml describes under paths:, as "METHOD /path". A line-based
// reader of our own layout: "  /path:" opens a path, "    get:" (post, put, ...) an operation.
std::set<std::string> OpenApiOperations() {
  std::ifstream in(DQ_SOURCE_DIR "/docs/openapi.yaml");
  EXPECT_TRUE(in.good());
  std::set<std::string> out;
  std::string line, path;
  bool in_paths = false;
  static const std::set<std::string> kMethods = {"get", "put", "post", "delete",
                                                 "options", "head", "patch", "trace"};
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != ' ' && line[0] != '#') {
      in_paths = line == "paths:";
      continue;
    }
    if (!in_paths) continue;
    if (line.starts_with("  /") && line.ends_with(":")) {
      path = line.substr(2, line.size() - 3);
    } else if (line.starts_with("    ") && line[4] != ' ' && line.ends_with(":")) {
      std::string method = line.substr(4, line.size() - 5);
      if (kMethods.count(method) == 0) continue;
      for (char& c : method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      out.insert(method + " " + path);
    }
  }
  return out;
}

std::set<std::string> ServedRoutes() {
  std::set<std::string> out;
  for (const std::string& r : RouteList()) out.insert(r);
  for (const std::string& r : OpsRouteList()) out.insert(r);
  return out;
}

// docs/openapi.yaml describes every route the gateway serves, with its method...
TEST(RouterDocsTest, OpenApiDescribesEveryRoute) {
  const auto documented = OpenApiOperations();
  ASSERT_FALSE(documented.empty());
  for (const std::string& route : ServedRoutes()) {
    EXPECT_EQ(documented.count(route), 1u) << route << " is not in docs/openapi.yaml";
  }
}

// ...and nothing else: every operation it describes is served.
TEST(RouterDocsTest, OpenApiDescribesOnlyServedRoutes) {
  const auto served = ServedRoutes();
  for (const std::string& op : OpenApiOperations()) {
    EXPECT_EQ(served.count(op), 1u) << op << " is in docs/openapi.yaml but not served";
  }
}

}  // namespace
}  // namespace dq::gateway
