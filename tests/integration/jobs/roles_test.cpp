// DQ_ROLE through the real binaries: an API-only gateway queues uploads and runs no job; the
// queue's depth and oldest job's age show on /metrics; a worker-only process (no public
// listener, only its ops port) takes the jobs and runs them to done.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

// The value of an unlabelled gauge in Prometheus text, or -1 when absent.
int64_t Gauge(const std::string& text, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("(^|\n)" + name + " (-?[0-9]+)"))) return -1;
  return std::stoll(m[2]);
}

TEST(RolesTest, ApiRoleQueuesAndWorkerRoleRuns) {
  StackOptions options;
  options.gateway_env = {{"DQ_ROLE", "api"},
                         {"DQ_WORKERS", "4"},  // ignored by the API role
                         {"DQ_QUEUE_METRICS_INTERVAL_MS", "50"},
                         {"DQ_RATE_LIMIT_GENERAL", "100000"},
                         {"DQ_RATE_LIMIT_UPLOAD", "100000"}};
  const int public_port = FreePort();
  options.worker_env = {{"DQ_QUEUE_METRICS_INTERVAL_MS", "50"},
                        {"DQ_GATEWAY_PORT", std::to_string(public_port)}};
  Stack stack(options);
  auto [account, key] = stack.NewAccount();
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    HttpResult up = Http("POST", stack.GatewayUrl() + "/v1/jobs",
                         {{"X-API-Key", key}, {"Content-Type", "text/csv"}}, "sku,price\nA,1\n");
    ASSERT_EQ(up.status, 202) << up.body;
    ids.push_back(json::parse(up.body)["id"]);
  }
  // Nobody takes them: the API role runs no workers, and the metrics say three wait.
  std::string metrics;
  ASSERT_TRUE(WaitFor(
      [&] {
        metrics = Http("GET", stack.GatewayOpsUrl() + "/metrics").body;
        return Gauge(metrics, "dq_jobs_queue_depth") == 3;
      },
      std::chrono::seconds(10)))
      << metrics;
  EXPECT_EQ(Gauge(metrics, "dq_jobs_in_progress"), 0);
  EXPECT_GE(Gauge(metrics, "dq_jobs_oldest_queued_age_seconds"), 0);
  for (const auto& id : ids) {
    json job = json::parse(
        Http("GET", stack.GatewayUrl() + "/v1/jobs/" + id, {{"X-API-Key", key}}).body);
    EXPECT_EQ(job["status"], "queued");
  }

  // A worker process: only its ops port, never the public one.
  stack.StartWorker(0);
  EXPECT_EQ(Http("GET", stack.WorkerOpsUrl(0) + "/readyz").status, 200);
  EXPECT_FALSE(TcpConnects(public_port));
  EXPECT_EQ(Http("GET", stack.WorkerOpsUrl(0) + "/v1/usage", {{"X-API-Key", key}}).status, 404);
  for (const auto& id : ids) {
    ASSERT_TRUE(WaitFor(
        [&] {
          HttpResult r = Http("GET", stack.GatewayUrl() + "/v1/jobs/" + id, {{"X-API-Key", key}});
          return r.status == 200 && json::parse(r.body)["status"] == "done";
        },
        std::chrono::seconds(20)))
        << stack.worker(0).Log();
  }
  // The worker exports the same queue metrics on its ops port: nothing waits any more.
  ASSERT_TRUE(WaitFor(
      [&] {
        metrics = Http("GET", stack.WorkerOpsUrl(0) + "/metrics").body;
        return Gauge(metrics, "dq_jobs_queue_depth") == 0 &&
               Gauge(metrics, "dq_jobs_in_progress") == 0;
      },
      std::chrono::seconds(10)))
      << metrics;
  EXPECT_EQ(Gauge(metrics, "dq_jobs_oldest_queued_age_seconds"), 0);
}

TEST(RolesTest, BadRoleOrAWorkerWithoutThreadsStopsAtStartUp) {
  for (const auto& env : std::vector<std::map<std::string, std::string>>{
           {{"DQ_ROLE", "workers"}}, {{"DQ_ROLE", "worker"}, {"DQ_WORKERS", "0"}}}) {
    ChildProcess p(DQ_GATEWAY_BIN, env);
    ASSERT_TRUE(WaitFor([&] { return !p.Running(); }, std::chrono::seconds(10)));
    const int status = p.Stop(SIGTERM);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
    EXPECT_NE(p.Log().find("DQ_"), std::string::npos) << p.Log();
  }
}

}  // namespace
}  // namespace dq::testing
