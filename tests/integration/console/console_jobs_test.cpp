// The console's door to jobs: the same handlers as /v1/jobs behind the session, the account's
// quota whichever door is used, and the console's list paging past 20 with ?before=.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "console_client.h"

namespace dq::testing {
namespace {

using nlohmann::json;

TEST(ConsoleJobsTest, JobsThroughTheConsoleShareHandlersQuotaAndPaging) {
  Stack stack(StackOptions{1, false, ConsoleGatewayEnv()});
  ConsoleUser u = ConsoleUser::SignUp(stack.GatewayUrl());
  const std::string csv = "sku,price\nA-1,9.99\nA-2,19.99\nA-3,29.99\n";
  const std::map<std::string, std::string> csv_type = {{"Content-Type", "text/csv"}};

  // Upload needs the CSRF token like every state change.
  HttpResult no_csrf = u.Call("POST", "/console/api/jobs?filename=a.csv", csv, false, csv_type);
  EXPECT_EQ(no_csrf.status, 403);
  EXPECT_EQ(ErrorCode(no_csrf), "csrf_failed");

  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    HttpResult r = u.Call("POST", "/console/api/jobs?filename=f" + std::to_string(i) + ".csv", csv,
                          true, csv_type);
    ASSERT_EQ(r.status, 202) << r.body;
    ids.push_back(json::parse(r.body)["id"]);
  }
  // The free plan's quota is used by console uploads.
  const json me = json::parse(u.Call("GET", "/console/api/me", "", false).body);
  EXPECT_EQ(me["quota"]["used"], 9);

  HttpResult one = u.Call("GET", "/console/api/jobs/" + ids[0], "", false);
  EXPECT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(json::parse(one.body)["id"], ids[0]);
  EXPECT_EQ(ErrorCode(u.Call("GET", "/console/api/jobs/nope", "", false)), "not_found");

  // Paging: two newest, then the rest with the cursor.
  HttpResult page1 = u.Call("GET", "/console/api/jobs?limit=2", "", false);
  ASSERT_EQ(page1.status, 200) << page1.body;
  const json p1 = json::parse(page1.body);
  ASSERT_EQ(p1.size(), 2u);
  EXPECT_EQ(p1[0]["id"], ids[2]);
  HttpResult page2 = u.Call(
      "GET", "/console/api/jobs?limit=2&before=" + p1[1]["created_at"].get<std::string>(), "",
      false);
  ASSERT_EQ(page2.status, 200) << page2.body;
  const json p2 = json::parse(page2.body);
  ASSERT_EQ(p2.size(), 1u);
  EXPECT_EQ(p2[0]["id"], ids[0]);
  EXPECT_EQ(ErrorCode(u.Call("GET", "/console/api/jobs?before=yesterday", "", false)),
            "invalid_request");

  // The same account through /v1: same jobs, same quota counter.
  ASSERT_EQ(Dqctl(stack, "account set-plan --account " + u.account_id + " --plan pro"), 0);
  auto key = stack.accounts().CreateKey(u.account_id);
  ASSERT_TRUE(key.ok());
  HttpResult listed = Http("GET", stack.GatewayUrl() + "/v1/jobs", {{"X-API-Key", key->api_key}});
  EXPECT_EQ(json::parse(listed.body).size(), 3u);
  HttpResult usage = Http("GET", stack.GatewayUrl() + "/v1/usage", {{"X-API-Key", key->api_key}});
  EXPECT_EQ(json::parse(usage.body)["records_used"], 9);
  // Console routes carry the account's rate-limit headers, shared with /v1.
  HttpResult console_list = u.Call("GET", "/console/api/jobs", "", false);
  HttpResult api_list = Http("GET", stack.GatewayUrl() + "/v1/jobs", {{"X-API-Key", key->api_key}});
  ASSERT_FALSE(console_list.Header("x-ratelimit-remaining").empty());
  if (console_list.Header("x-ratelimit-reset") == api_list.Header("x-ratelimit-reset")) {
    EXPECT_EQ(std::stoi(console_list.Header("x-ratelimit-remaining")) - 1,
              std::stoi(api_list.Header("x-ratelimit-remaining")));
  }
}

}  // namespace
}  // namespace dq::testing
