// A full Redis (maxmemory reached under noeviction) through the real gateway, worker, validator
// and a real redis-server (issue 34, point 5): reads and DELETE keep working, writes answer 503
// with Retry-After and a message that says what to do (never Redis's own text), /readyz says not
// ready until Redis takes writes again, nothing answers 500, and a job that a worker takes
// meanwhile stays queued and is done once Redis has room: postponed, not failed.
#include <gtest/gtest.h>

#include <csignal>
#include <nlohmann/json.hpp>

#include "dq/common/redis_client.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

constexpr const char* kCsv =
    "Variant SKU,Title,Variant Price,Currency\r\n"
    "A1,Mug,12.50,EUR\r\n"
    ",Plate,abc,EUR\r\n";

class RedisFullTest : public ::testing::Test {
 protected:
  RedisFullTest()
      : stack_(StackOptions{1, false,
                            {{"DQ_RATE_LIMIT_GENERAL", "100000"},
                             {"DQ_RATE_LIMIT_UPLOAD", "100000"}},
                            1,
                            {{"DQ_JOB_CLAIM_IDLE_MS", "500"}}}) {
    std::tie(account_, key_) = stack_.NewAccount();
  }

  HttpResult Call(const std::string& method, const std::string& path,
                  const std::string& csv = "") {
    std::map<std::string, std::string> h = {{"X-API-Key", key_}};
    if (!csv.empty()) h["Content-Type"] = "text/csv";
    HttpResult r = Http(method, stack_.GatewayUrl() + path, h, csv);
    EXPECT_NE(r.status, 500) << method << " " << path << ": " << r.body;
    // Redis's own words never reach a user.
    for (const char* raw : {"OOM", "maxmemory", "script", "Redis is", "127.0.0.1"}) {
      EXPECT_EQ(r.body.find(raw), std::string::npos) << method << " " << path << ": " << r.body;
    }
    return r;
  }
  std::string Status(const std::string& id) {
    HttpResult r = Call("GET", "/v1/jobs/" + id);
    return r.status == 200 ? json::parse(r.body)["status"].get<std::string>() : "";
  }
  std::string Upload() {
    HttpResult up = Call("POST", "/v1/jobs", kCsv);
    EXPECT_EQ(up.status, 202) << up.body;
    return up.status == 202 ? json::parse(up.body)["id"].get<std::string>() : "";
  }
  bool WaitStatus(const std::string& id, const std::string& want) {
    return WaitFor([&] { return Status(id) == want; }, std::chrono::seconds(30));
  }
  void Fill() {
    ASSERT_EQ(stack_.redis().Cli({"CONFIG", "SET", "maxmemory-policy", "noeviction"}), "OK");
    ASSERT_EQ(stack_.redis().Cli({"CONFIG", "SET", "maxmemory", "1"}), "OK");
  }
  void MakeRoom() { ASSERT_EQ(stack_.redis().Cli({"CONFIG", "SET", "maxmemory", "0"}), "OK"); }
  static int Ready(const std::string& ops_url) { return Http("GET", ops_url + "/readyz").status; }

  Stack stack_;
  std::string account_, key_;
};

TEST_F(RedisFullTest, ReadsAndDeletesWorkWritesAre503AndNotReadyUntilThereIsRoom) {
  const std::string kept = Upload();
  const std::string doomed = Upload();
  ASSERT_TRUE(WaitStatus(kept, "done"));
  ASSERT_TRUE(WaitStatus(doomed, "done"));
  ASSERT_EQ(Ready(stack_.GatewayOpsUrl()), 200);
  ASSERT_EQ(Ready(stack_.WorkerOpsUrl()), 200);

  Fill();
  // Reads: the rate limit cannot count them, so they go on uncounted.
  HttpResult list = Call("GET", "/v1/jobs");
  ASSERT_EQ(list.status, 200) << list.body;
  EXPECT_EQ(list.Header("x-ratelimit-remaining"), "0");
  std::set<std::string> ids;
  for (const auto& j : json::parse(list.body)) ids.insert(j["id"].get<std::string>());
  EXPECT_EQ(ids, (std::set<std::string>{kept, doomed}));
  EXPECT_EQ(Status(kept), "done");
  HttpResult issues = Call("GET", "/v1/jobs/" + kept + "/issues");
  EXPECT_EQ(issues.status, 200) << issues.body;
  EXPECT_FALSE(json::parse(issues.body)["issues"].empty());
  EXPECT_EQ(Call("GET", "/v1/jobs/" + kept + "/cleaned").status, 200);
  EXPECT_EQ(Call("GET", "/v1/usage").status, 200);

  // Writes: 503 with Retry-After and what the user can do.
  for (const auto& [method, path] : std::vector<std::pair<std::string, std::string>>{
           {"POST", "/v1/jobs"}, {"POST", "/v1/validate"}}) {
    HttpResult r = Call(method, path, kCsv);
    EXPECT_EQ(r.status, 503) << method << " " << path << ": " << r.body;
    EXPECT_FALSE(r.Header("retry-after").empty()) << path;
    EXPECT_EQ(json::parse(r.body)["error"], "service_unavailable");
    EXPECT_EQ(json::parse(r.body)["message"], std::string(kRedisFullMessage));
  }

  // DELETE frees room, so it works too.
  HttpResult del = Call("DELETE", "/v1/jobs/" + doomed);
  EXPECT_EQ(del.status, 204) << del.body;
  EXPECT_EQ(Call("GET", "/v1/jobs/" + doomed).status, 404);

  // Not ready (API and worker) while Redis refuses writes; ready again once it has room.
  EXPECT_EQ(Ready(stack_.GatewayOpsUrl()), 503);
  EXPECT_EQ(Ready(stack_.WorkerOpsUrl()), 503);
  EXPECT_NE(stack_.gateway().Log().find("Redis cannot take commands now"), std::string::npos)
      << "the raw text goes to the log";
  MakeRoom();
  EXPECT_TRUE(WaitFor([&] { return Ready(stack_.GatewayOpsUrl()) == 200; },
                      std::chrono::seconds(10)));
  EXPECT_TRUE(WaitFor([&] { return Ready(stack_.WorkerOpsUrl()) == 200; },
                      std::chrono::seconds(10)));
  const std::string again = Upload();
  EXPECT_TRUE(WaitStatus(again, "done"));
}

TEST_F(RedisFullTest, AJobTakenWhileRedisIsFullIsPostponedNotFailed) {
  ASSERT_EQ(stack_.worker().Stop(SIGTERM), 0);
  const std::string id = Upload();
  ASSERT_EQ(Status(id), "queued");
  Fill();
  stack_.StartWorker(0);
  // The worker takes the entry and cannot claim the job: it stays queued.
  ASSERT_TRUE(WaitFor(
      [&] {
        return stack_.worker().Log().find("job not taken now; it stays queued") !=
               std::string::npos;
      },
      std::chrono::seconds(30)))
      << stack_.worker().Log();
  EXPECT_EQ(Status(id), "queued");
  MakeRoom();
  ASSERT_TRUE(WaitFor(
      [&] {
        const std::string s = Status(id);
        return s == "done" || s == "failed";
      },
      std::chrono::seconds(60)));
  EXPECT_EQ(Status(id), "done");
}

}  // namespace
}  // namespace dq::testing
