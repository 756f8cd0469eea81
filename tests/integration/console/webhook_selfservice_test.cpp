// Webhook self-service end to end: the real gateway, the real notifier, a local receiver.
// Set the URL, roll a whsec_ secret, queue a test delivery (202; the notifier sends it), check
// X-Service-Signature and the Standard Webhooks signature (with the published verifier, npm
// standardwebhooks, run by node), then make the receiver fail, see it in the delivery log (a
// test is not retried), redeliver, see success.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "console_client.h"
#include "dq/common/crypto.h"
#include "test_receiver.h"

namespace dq::testing {
namespace {

using nlohmann::json;
using notifier::testing::ReceivedRequest;
using notifier::testing::ReceiverReply;
using notifier::testing::TestReceiver;

// Runs the standardwebhooks reference verifier on what was received; "ok" or its error.
std::string VerifyWithStandardWebhooks(const std::string& secret, const ReceivedRequest& req) {
  const std::string dir = TempDir();
  std::ofstream(dir + "/body", std::ios::binary) << req.body;
  std::ofstream(dir + "/headers") << json{{"webhook-id", req.Header("webhook-id")},
                                          {"webhook-timestamp", req.Header("webhook-timestamp")},
                                          {"webhook-signature", req.Header("webhook-signature")}}
                                         .dump();
  std::ofstream(dir + "/verify.js") << R"js(
const fs = require('fs');
const { Webhook } = require(process.argv[2] + '/standardwebhooks');
const [, , , secret, dir] = process.argv;
try {
  new Webhook(secret).verify(fs.readFileSync(dir + '/body', 'utf8'),
                             JSON.parse(fs.readFileSync(dir + '/headers', 'utf8')));
  process.stdout.write('ok');
} catch (e) { process.stdout.write('refused: ' + e.message); }
)js";
  const std::string cmd = "node " + dir + "/verify.js " DQ_SOURCE_DIR "/scripts/node_modules " +
                          secret + " " + dir + " >" + dir + "/out 2>&1";
  std::system(cmd.c_str());
  std::ifstream in(dir + "/out");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The delivery log's entry for delivery_id once the notifier has attempted it; null if it
// does not appear within 10 s.
json WaitForDelivery(const ConsoleUser& u, const std::string& delivery_id) {
  json found;
  WaitFor(
      [&] {
        const json l =
            json::parse(u.Call("GET", "/console/api/webhook/deliveries?limit=20", "", false).body);
        for (const auto& d : l) {
          if (d["delivery_id"] == delivery_id) {
            found = d;
            return true;
          }
        }
        return false;
      },
      std::chrono::seconds(10));
  return found;
}

TEST(WebhookSelfServiceTest, SignedTestDeliveryFailureLogAndRedelivery) {
  ASSERT_EQ(std::system("test -d " DQ_SOURCE_DIR "/scripts/node_modules/standardwebhooks"), 0)
      << "run scripts/install-deps.sh --node";
  Stack stack(StackOptions{1, false, ConsoleGatewayEnv()});
  ChildProcess notifier(DQ_NOTIFIER_BIN,
                        {{"DQ_REDIS_PORT", std::to_string(stack.redis().port())},
                         {"DQ_NOTIFIER_PORT", std::to_string(FreePort())},
                         {"DQ_NOTIFIER_GRPC_PORT", "0"},
                         {"DQ_NOTIFIER_BIND", "127.0.0.1"},
                         {"DQ_WEBHOOK_ALLOW_HTTP", "1"},
                         {"DQ_WEBHOOK_ALLOW_PRIVATE", "1"},
                         {"DQ_WEBHOOK_RETRY_BASE_MS", "600000"},
                         {"DQ_NOTIFIER_POLL_MS", "50"}});
  std::atomic<int> answer{200};
  TestReceiver receiver([&](const ReceivedRequest&, int) { return ReceiverReply{answer.load()}; });

  ConsoleUser u = ConsoleUser::SignUp(stack.GatewayUrl());
  ASSERT_EQ(Dqctl(stack, "account set-plan --account " + u.account_id + " --plan pro"), 0);
  auto key = stack.accounts().CreateKey(u.account_id);
  ASSERT_TRUE(key.ok());
  const std::map<std::string, std::string> api = {{"X-API-Key", key->api_key}};

  // Nothing set yet.
  json hook = json::parse(u.Call("GET", "/console/api/webhook", "", false).body);
  EXPECT_TRUE(hook["url"].is_null());
  EXPECT_EQ(hook["secret_set"], false);

  // A new webhook is enabled (events on unless the body says otherwise), and gets a whsec_
  // secret, returned once in this answer.
  HttpResult put = u.Call("PUT", "/console/api/webhook", json{{"url", receiver.Url()}}.dump());
  ASSERT_EQ(put.status, 200) << put.body;
  const json created = json::parse(put.body);
  EXPECT_EQ(created["enabled"], true);
  EXPECT_EQ(created["secret_set"], true);
  const std::string first_secret = created["secret"];
  ASSERT_EQ(first_secret.rfind("whsec_", 0), 0u);
  EXPECT_EQ(put.Header("cache-control"), "no-store");
  // Saving again keeps that secret and does not show it again.
  HttpResult saved = u.Call("PUT", "/console/api/webhook",
                            json{{"url", receiver.Url()}, {"enabled", true}}.dump());
  ASSERT_EQ(saved.status, 200) << saved.body;
  EXPECT_FALSE(json::parse(saved.body).contains("secret"));
  EXPECT_EQ(json::parse(saved.body)["secret_hint"],
            "whsec_…" + first_secret.substr(first_secret.size() - 4));
  // The same settings through /v1 with the API key.
  HttpResult via_api = Http("GET", stack.GatewayUrl() + "/v1/webhook", api);
  ASSERT_EQ(via_api.status, 200) << via_api.body;
  EXPECT_EQ(json::parse(via_api.body)["url"], receiver.Url());
  EXPECT_EQ(json::parse(via_api.body)["enabled"], true);
  EXPECT_FALSE(via_api.Header("x-ratelimit-limit").empty());

  HttpResult rolled = Http("POST", stack.GatewayUrl() + "/v1/webhook/secret", api);
  ASSERT_EQ(rolled.status, 200) << rolled.body;
  const std::string secret = json::parse(rolled.body)["secret"];
  ASSERT_EQ(secret.rfind("whsec_", 0), 0u);
  EXPECT_NE(secret, first_secret);
  // The replaced secret keeps signing for DQ_WEBHOOK_SECRET_OVERLAP_S (24 hours by default).
  ASSERT_TRUE(json::parse(rolled.body)["previous_secret_until"].is_string()) << rolled.body;
  std::string raw;
  ASSERT_TRUE(Base64Decode(secret.substr(6), &raw));
  EXPECT_EQ(raw.size(), 32u);
  hook = json::parse(u.Call("GET", "/console/api/webhook", "", false).body);
  EXPECT_EQ(hook["secret_set"], true);
  EXPECT_EQ(hook.dump().find(secret), std::string::npos);  // never returned again
  EXPECT_EQ(hook["secret_hint"], "whsec_…" + secret.substr(secret.size() - 4));
  EXPECT_EQ(hook["previous_secret_hint"],
            "whsec_…" + first_secret.substr(first_secret.size() - 4));
  EXPECT_EQ(hook["previous_secret_until"], json::parse(rolled.body)["previous_secret_until"]);

  // A test delivery is queued for the notifier (202); its outcome shows in the delivery log.
  HttpResult test = u.Call("POST", "/console/api/webhook/test");
  ASSERT_EQ(test.status, 202) << test.body;
  const json queued = json::parse(test.body);
  EXPECT_EQ(queued["status"], "queued");
  const json outcome = WaitForDelivery(u, queued["delivery_id"]);
  ASSERT_FALSE(outcome.is_null()) << notifier.Log();
  EXPECT_EQ(outcome["outcome"], "delivered");
  EXPECT_EQ(outcome["status_code"], 200);
  EXPECT_EQ(outcome["job_id"], queued["job_id"]);
  auto received = receiver.Requests();
  ASSERT_EQ(received.size(), 1u);
  const ReceivedRequest& req = received[0];
  EXPECT_EQ(json::parse(req.body)["test"], true);
  EXPECT_EQ(req.Header("x-service-delivery"), outcome["delivery_id"]);
  EXPECT_EQ(req.Header("webhook-id"), outcome["delivery_id"]);
  // During the overlap, X-Service-Signature (one value, as the specification has it) is keyed
  // with the old secret, and webhook-signature carries both: either secret verifies.
  EXPECT_EQ(req.Header("x-service-signature"),
            "sha256=" + HmacSha256Hex(first_secret, req.body));
  EXPECT_EQ(VerifyWithStandardWebhooks(secret, req), "ok");
  EXPECT_EQ(VerifyWithStandardWebhooks(first_secret, req), "ok");
  EXPECT_EQ(outcome["test"], true);
  EXPECT_EQ(outcome["filename"], "test.csv");
  EXPECT_EQ(outcome["request_body"], req.body);
  EXPECT_EQ(outcome["response_body"], "ok");
  // Tampered bytes are refused by the same verifier (so "ok" means something).
  ReceivedRequest tampered = req;
  tampered.body += " ";
  EXPECT_NE(VerifyWithStandardWebhooks(secret, tampered), "ok");

  // The receiver fails: the log shows it. A test event is attempted once, never retried.
  answer = 500;
  HttpResult failed = Http("POST", stack.GatewayUrl() + "/v1/webhook/test", api);
  ASSERT_EQ(failed.status, 202) << failed.body;
  const std::string failed_id = json::parse(failed.body)["delivery_id"];
  const json fail = WaitForDelivery(u, failed_id);
  ASSERT_FALSE(fail.is_null()) << notifier.Log();
  EXPECT_EQ(fail["outcome"], "failed");
  EXPECT_EQ(fail["status_code"], 500);
  json log = json::parse(u.Call("GET", "/console/api/webhook/deliveries?limit=5", "", false).body);
  ASSERT_GE(log.size(), 2u);
  EXPECT_EQ(log[0]["delivery_id"], failed_id);
  EXPECT_EQ(log[0]["status_code"], 500);
  EXPECT_EQ(log[0]["error"], "HTTP 500");
  EXPECT_EQ(log[0]["event"], "job.complete");
  EXPECT_EQ(log[0]["job_id"], json::parse(failed.body)["job_id"]);
  EXPECT_EQ(log[0]["attempt"], 1);
  EXPECT_EQ(log[0]["dead"], false);
  EXPECT_TRUE(log[0]["next_retry_at"].is_null());
  EXPECT_TRUE(log[0]["at"].is_string());
  EXPECT_TRUE(log[0]["duration_ms"].is_number());
  EXPECT_EQ(log[1]["status_code"], 200);
  EXPECT_EQ(receiver.Requests().size(), 2u);
  // Filtered by status.
  json only_failed =
      json::parse(u.Call("GET", "/console/api/webhook/deliveries?status=failed", "", false).body);
  ASSERT_EQ(only_failed.size(), 1u);
  EXPECT_EQ(only_failed[0]["delivery_id"], failed_id);
  json only_ok = json::parse(
      Http("GET", stack.GatewayUrl() + "/v1/webhook/deliveries?status=delivered", api).body);
  ASSERT_EQ(only_ok.size(), 1u);
  EXPECT_EQ(only_ok[0]["delivery_id"], outcome["delivery_id"]);
  HttpResult bad_filter =
      Http("GET", stack.GatewayUrl() + "/v1/webhook/deliveries?status=oops", api);
  EXPECT_EQ(bad_filter.status, 400);
  EXPECT_EQ(json::parse(bad_filter.body)["message"],
            "status: must be one of delivered, retry, failed, dead_letter, skipped");

  // Redeliver once the receiver works again: the notifier sends it, the log shows success.
  answer = 200;
  HttpResult again = Http(
      "POST", stack.GatewayUrl() + "/v1/webhook/deliveries/" + failed_id + "/redeliver", api);
  EXPECT_EQ(again.status, 202) << again.body;
  ASSERT_TRUE(WaitFor(
      [&] {
        const json l = json::parse(
            Http("GET", stack.GatewayUrl() + "/v1/webhook/deliveries?limit=1", api).body);
        return !l.empty() && l[0]["delivery_id"] == failed_id && l[0]["status_code"] == 200;
      },
      std::chrono::seconds(10)))
      << notifier.Log();
  received = receiver.Requests();
  ASSERT_EQ(received.size(), 3u);
  EXPECT_EQ(received[2].Header("x-service-delivery"), failed_id);
  EXPECT_EQ(VerifyWithStandardWebhooks(secret, received[2]), "ok");

  // Disabled: events are skipped, nothing is sent.
  ASSERT_EQ(u.Call("PUT", "/console/api/webhook",
                   json{{"url", receiver.Url()}, {"enabled", false}}.dump())
                .status,
            200);
  HttpResult skipped = u.Call("POST", "/console/api/webhook/test");
  ASSERT_EQ(skipped.status, 202) << skipped.body;
  const json skip = WaitForDelivery(u, json::parse(skipped.body)["delivery_id"]);
  ASSERT_FALSE(skip.is_null()) << notifier.Log();
  EXPECT_EQ(skip["outcome"], "skipped");
  EXPECT_EQ(receiver.Requests().size(), 3u);
}

TEST(WebhookSelfServiceTest, RefusedAddressesAnswerInvalidWebhookUrl) {
  std::map<std::string, std::string> env = ConsoleGatewayEnv();
  env["DQ_WEBHOOK_ALLOW_HTTP"] = "0";
  env["DQ_WEBHOOK_ALLOW_PRIVATE"] = "0";
  Stack stack(StackOptions{1, false, env});
  ConsoleUser u = ConsoleUser::SignUp(stack.GatewayUrl());
  for (const std::string url : {"http://example.com/hook", "https://127.0.0.1/hook",
                                "https://169.254.169.254/latest", "https://10.1.2.3/x",
                                "https://localhost/x", "https://user:pw@example.com/"}) {
    HttpResult r = u.Call("PUT", "/console/api/webhook", json{{"url", url}}.dump());
    EXPECT_EQ(r.status, 400) << url;
    EXPECT_EQ(ErrorCode(r), "invalid_webhook_url") << url << " " << r.body;
  }
  HttpResult ok = u.Call("PUT", "/console/api/webhook",
                         json{{"url", "https://hooks.example.com/dq"}}.dump());
  EXPECT_EQ(ok.status, 200) << ok.body;
}

}  // namespace
}  // namespace dq::testing
