// Upload a file, let the job finish, and receive the signed job.complete webhook: every
// component, real processes, one real Redis. The signature is checked with the openssl CLI, an
// implementation independent of ours.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "clients/grpc_validator_client.h"
#include "stack.h"
#include "test_receiver.h"

namespace dq::testing {
namespace {

using nlohmann::json;
using notifier::testing::TestReceiver;

std::string OpensslHmac(const std::string& secret, const std::string& body) {
  const std::string dir = TempDir();
  {
    std::ofstream(dir + "/body", std::ios::binary) << body;
  }
  const std::string cmd = "openssl dgst -sha256 -hmac '" + secret + "' -r " + dir + "/body";
  std::unique_ptr<FILE, decltype(&pclose)> pipe(popen(cmd.c_str(), "r"), pclose);
  char buf[256] = {0};
  if (!pipe || fgets(buf, sizeof buf, pipe.get()) == nullptr) return "";
  return std::string(buf).substr(0, 64);
}

TEST(EndToEndTest, UploadToSignedWebhook) {
  Stack stack;
  TestReceiver receiver;
  const int notifier_http = FreePort();
  const int notifier_grpc = FreePort();
  ChildProcess notifier(DQ_NOTIFIER_BIN,
                        {{"DQ_REDIS_PORT", std::to_string(stack.redis().port())},
                         {"DQ_NOTIFIER_BIND", "127.0.0.1"},
                         {"DQ_NOTIFIER_PORT", std::to_string(notifier_http)},
                         {"DQ_NOTIFIER_GRPC_PORT", std::to_string(notifier_grpc)},
                         {"DQ_WEBHOOK_ALLOW_HTTP", "1"},
                         {"DQ_WEBHOOK_ALLOW_PRIVATE", "1"}});
  auto [account, key] = stack.NewAccount();
  ASSERT_TRUE(stack.accounts().SetWebhook(account, Webhook{receiver.Url(), "whsec_e2e"}).ok());

  HttpResult up = Http("POST", stack.GatewayUrl() + "/v1/jobs?filename=shop.csv",
                       {{"X-API-Key", key}, {"Content-Type", "text/csv"}},
                       "sku,price\nA1,10\n,abc\nA3,$5.00\n");
  ASSERT_EQ(up.status, 202) << up.body;
  const std::string job_id = json::parse(up.body)["id"];

  ASSERT_TRUE(WaitFor([&] { return !receiver.Requests().empty(); }, std::chrono::seconds(20)))
      << notifier.Log();
  const auto request = receiver.Requests().front();
  EXPECT_EQ(request.method, "POST");
  EXPECT_EQ(request.Header("content-type"), "application/json");
  EXPECT_EQ(request.Header("x-service-event"), "job.complete");
  EXPECT_FALSE(request.Header("x-service-delivery").empty());
  EXPECT_EQ(request.Header("x-service-signature"),
            "sha256=" + OpensslHmac("whsec_e2e", request.body));

  json payload = json::parse(request.body);
  EXPECT_EQ(payload["event"], "job.complete");
  EXPECT_EQ(payload["jobId"], job_id);
  EXPECT_EQ(payload["filename"], "shop.csv");
  EXPECT_EQ(payload["rows"], 3);
  EXPECT_EQ(payload["status"], "done");
  EXPECT_EQ(payload["timestamp"].get<std::string>().size(), 24u);
  // The event's stats are the job's.
  json job = json::parse(
      Http("GET", stack.GatewayUrl() + "/v1/jobs/" + job_id, {{"X-API-Key", key}}).body);
  EXPECT_EQ(payload["stats"]["errors"], job["stats"]["errors"]);
  EXPECT_EQ(payload["stats"]["warnings"], job["stats"]["warnings"]);
  EXPECT_EQ(payload["stats"]["fixes"], job["stats"]["fixes"]);
  EXPECT_EQ(payload["stats"]["score"], job["health_score"]);

  // Every service has probes and metrics: HTTP on the gateway, HTTP and gRPC health elsewhere.
  const std::string validator_ops = "http://127.0.0.1:" + std::to_string(stack.validator_ops_port());
  EXPECT_EQ(Http("GET", validator_ops + "/readyz").status, 200);
  EXPECT_NE(Http("GET", validator_ops + "/metrics").body.find("dq_validator_rows_total"),
            std::string::npos);
  const std::string notifier_ops = "http://127.0.0.1:" + std::to_string(notifier_http);
  EXPECT_EQ(Http("GET", notifier_ops + "/readyz").status, 200);
  EXPECT_EQ(Http("GET", notifier_ops + "/metrics").status, 200);
  EXPECT_NE(Http("GET", stack.GatewayOpsUrl() + "/metrics").body.find("dq_jobs_total"),
            std::string::npos);
  EXPECT_EQ(Http("GET", stack.GatewayOpsUrl() + "/readyz").status, 200);
  EXPECT_EQ(Http("GET", stack.GatewayUrl() + "/metrics").status, 404);  // never public
  EXPECT_TRUE(gateway::GrpcValidatorClient("127.0.0.1:" + std::to_string(notifier_grpc),
                                           std::chrono::seconds(1))
                  .Healthy());
  EXPECT_TRUE(gateway::GrpcValidatorClient("127.0.0.1:" + std::to_string(stack.validator_port()),
                                           std::chrono::seconds(1))
                  .Healthy());
}

}  // namespace
}  // namespace dq::testing
