#include "http/router.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace dq::gateway {
namespace {

struct Case {
  const char* name;
  const char* method;
  const char* path;
  RouteMatch::Kind kind;
  RouteId id;
  RateClass rate_class;
};

class RouterTest : public ::testing::TestWithParam<Case> {};

TEST_P(RouterTest, Matches) {
  const Case& c = GetParam();
  RouteMatch m = MatchRoute(c.method, c.path);
  EXPECT_EQ(m.kind, c.kind);
  if (c.kind == RouteMatch::Kind::kFound) {
    EXPECT_EQ(m.id, c.id);
  }
  if (c.kind != RouteMatch::Kind::kNotFound) {
    EXPECT_EQ(m.rate_class, c.rate_class);
  }
}

using K = RouteMatch::Kind;
INSTANTIATE_TEST_SUITE_P(
    Routes, RouterTest,
    ::testing::Values(
        Case{"validate", "POST", "/v1/validate", K::kFound, RouteId::kValidate, RateClass::kGeneral},
        Case{"validate_slash", "POST", "/v1/validate/", K::kFound, RouteId::kValidate,
             RateClass::kGeneral},
        Case{"validate_get", "GET", "/v1/validate", K::kMethodNotAllowed, {}, RateClass::kGeneral},
        Case{"upload_is_upload_class", "POST", "/v1/jobs", K::kFound, RouteId::kCreateJob,
             RateClass::kUpload},
        Case{"list_jobs", "GET", "/v1/jobs", K::kFound, RouteId::kListJobs, RateClass::kGeneral},
        Case{"get_job", "GET", "/v1/jobs/abc", K::kFound, RouteId::kGetJob, RateClass::kGeneral},
        Case{"cleaned", "GET", "/v1/jobs/abc/cleaned", K::kFound, RouteId::kJobCleaned,
             RateClass::kGeneral},
        Case{"issues", "GET", "/v1/jobs/abc/issues", K::kFound, RouteId::kJobIssues,
             RateClass::kGeneral},
        Case{"delete_job", "DELETE", "/v1/jobs/abc", K::kFound, RouteId::kDeleteJob,
             RateClass::kGeneral},
        Case{"summary", "GET", "/v1/jobs/abc/summary", K::kFound, RouteId::kJobSummary,
             RateClass::kGeneral},
        Case{"post_job_id", "POST", "/v1/jobs/abc", K::kMethodNotAllowed, {},
             RateClass::kGeneral},
        Case{"unknown", "GET", "/v1/nothing", K::kNotFound, {}, RateClass::kGeneral},
        Case{"too_deep", "GET", "/v1/jobs/a/b/c", K::kNotFound, {}, RateClass::kGeneral},
        Case{"double_slash", "GET", "/v1//jobs", K::kNotFound, {}, RateClass::kGeneral}),
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

// docs/openapi.yaml describes every route the router serves, with its method.
TEST(RouterDocsTest, OpenApiDescribesEveryRoute) {
  std::ifstream in(DQ_SOURCE_DIR "/docs/openapi.yaml");
  ASSERT_TRUE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  for (const std::string& route : RouteList()) {
    const std::string method = route.substr(0, route.find(' '));
    const std::string path = route.substr(route.find(' ') + 1);
    const size_t at = doc.find("\n  " + path + ":\n");
    ASSERT_NE(at, std::string::npos) << path << " is not in docs/openapi.yaml";
    const size_t next = doc.find("\n  /", at + 1);
    std::string lower = method;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_NE(doc.substr(at, next - at).find("\n    " + lower + ":"), std::string::npos)
        << route << " is not in docs/openapi.yaml";
  }
}

}  // namespace
}  // namespace dq::gateway
