#include "role.h"

#include <gtest/gtest.h>

namespace dq::gateway {
namespace {

TEST(RoleTest, ParsesTheThreeRoles) {
  EXPECT_EQ(*ParseRole("api"), Role::kApi);
  EXPECT_EQ(*ParseRole("worker"), Role::kWorker);
  EXPECT_EQ(*ParseRole("all"), Role::kAll);
  for (Role r : {Role::kApi, Role::kWorker, Role::kAll}) EXPECT_EQ(*ParseRole(RoleName(r)), r);
}

TEST(RoleTest, RejectsAnythingElseNamingTheSetting) {
  for (const char* bad : {"", "API", "workers", "both"}) {
    auto r = ParseRole(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidRequest);
    EXPECT_NE(r.status().message().find("DQ_ROLE"), std::string::npos);
  }
}

TEST(RoleTest, ApiServesNoWorkersAndWorkerNoApi) {
  EXPECT_TRUE(ServesApi(Role::kApi));
  EXPECT_FALSE(RunsWorkers(Role::kApi));
  EXPECT_FALSE(ServesApi(Role::kWorker));
  EXPECT_TRUE(RunsWorkers(Role::kWorker));
  EXPECT_TRUE(ServesApi(Role::kAll));
  EXPECT_TRUE(RunsWorkers(Role::kAll));
}

}  // namespace
}  // namespace dq::gateway
