// Chaos: 30 jobs of mixed sizes run while the worker processes (DQ_ROLE=worker) and the
// validator are kill -9'd at seeded random moments, then restarted. Every result must be what a
// fault-free run of the same files gives:
//   - every job ends done;
//   - each job's issue count and stats equal the fault-free run's;
//   - each cleaned file is byte-identical to the fault-free run's;
//   - the webhook receiver gets at least one job.complete per job, and none for a job that does
//     not exist;
//   - the account's quota use equals the files' rows exactly (nothing refunded, nothing counted
//     twice).
// Loopback only. The schedule comes from DQ_CHAOS_SEED (default below), printed on failure.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "chaos_files.h"
#include "stack.h"
#include "test_receiver.h"

namespace dq::testing {
namespace {

using nlohmann::json;
using notifier::testing::TestReceiver;

constexpr int kFiles = 30;
constexpr int kWorkerProcesses = 2;
// Bounded so that every job can end done: a worker kill fails at most one attempt of a job, a
// validator stop only postpones the attempts it interrupts (they do not count), and the runner
// gives a job max_attempts (5) unexplained attempts, so with 4 kills the last attempt always
// runs undisturbed. (With 8, seed 7 made the 60000-row job fail after 5 attempts, as designed.
// Before postponements stopped counting, seed 20261123 once failed the 60016-row job after 5
// attempts with 4 kills: three of worker 1 and one of the validator, on a loaded machine.)
constexpr int kMaxKills = 4;
constexpr uint32_t kDefaultSeed = 20261123;

struct Outcome {
  std::string status;
  std::string error;
  int64_t issues = -1;
  json stats;
  std::string cleaned;
};

class ChaosTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* seed = std::getenv("DQ_CHAOS_SEED");
    seed_ = seed != nullptr ? static_cast<uint32_t>(std::strtoul(seed, nullptr, 10)) : kDefaultSeed;
    RecordProperty("seed", std::to_string(seed_));
    StackOptions options;
    options.gateway_env = {{"DQ_RATE_LIMIT_GENERAL", "1000000"},
                           {"DQ_RATE_LIMIT_UPLOAD", "1000000"}};
    options.worker_processes = kWorkerProcesses;
    options.worker_env = {{"DQ_WORKERS", "2"},
                          {"DQ_JOB_CLAIM_IDLE_MS", "1500"},
                          {"DQ_VALIDATOR_TIMEOUT_MS", "3000"}};
    stack_ = std::make_unique<Stack>(options);
    const int http = FreePort();
    notifier_ = std::make_unique<ChildProcess>(
        DQ_NOTIFIER_BIN,
        std::map<std::string, std::string>{{"DQ_REDIS_PORT", std::to_string(stack_->redis().port())},
                                           {"DQ_NOTIFIER_BIND", "127.0.0.1"},
                                           {"DQ_NOTIFIER_PORT", std::to_string(http)},
                                           {"DQ_NOTIFIER_GRPC_PORT", std::to_string(FreePort())},
                                           {"DQ_NOTIFIER_POLL_MS", "50"},
                                           {"DQ_WEBHOOK_ALLOW_HTTP", "1"},
                                           {"DQ_WEBHOOK_ALLOW_PRIVATE", "1"}});
    ASSERT_TRUE(WaitFor([&] { return TcpConnects(http); }, std::chrono::seconds(15)))
        << notifier_->Log();
  }

  std::pair<std::string, std::string> Account() {
    auto [account, key] = stack_->NewAccount(Plan::kAgency);
    EXPECT_TRUE(stack_->accounts().SetWebhook(account, Webhook{receiver_.Url(), "whsec_c"}).ok());
    return {account, key};
  }

  std::vector<std::string> UploadAll(const std::string& key) {
    std::vector<std::string> ids;
    for (int i = 0; i < kFiles; ++i) {
      HttpResult up = Http("POST", stack_->GatewayUrl() + "/v1/jobs?filename=f" + std::to_string(i) + ".csv",
                           {{"X-API-Key", key}, {"Content-Type", "text/csv"}}, files_[i]);
      EXPECT_EQ(up.status, 202) << up.body;
      ids.push_back(up.status == 202 ? json::parse(up.body)["id"].get<std::string>() : "");
    }
    return ids;
  }

  // Waits until every job has ended (done or failed); then reads each one's outcome.
  std::vector<Outcome> WaitOutcomes(const std::string& key, const std::vector<std::string>& ids,
                                    std::chrono::seconds timeout) {
    std::set<std::string> open(ids.begin(), ids.end());
    WaitFor(
        [&] {
          for (auto it = open.begin(); it != open.end();) {
            HttpResult r = Http("GET", stack_->GatewayUrl() + "/v1/jobs/" + *it + "/issues?limit=1",
                                {{"X-API-Key", key}});
            const bool ended = r.status == 200 && (json::parse(r.body)["status"] == "done" ||
                                                   json::parse(r.body)["status"] == "failed");
            it = ended ? open.erase(it) : std::next(it);
          }
          return open.empty();
        },
        timeout);
    std::vector<Outcome> out;
    for (const auto& id : ids) {
      Outcome o;
      const std::string base = stack_->GatewayUrl() + "/v1/jobs/" + id;
      HttpResult job = Http("GET", base, {{"X-API-Key", key}});
      if (job.status == 200) {
        json j = json::parse(job.body, nullptr, false);
        if (j.is_discarded()) ADD_FAILURE() << "detail is not JSON: " << job.body.substr(0, 300);
        if (j.is_discarded()) continue;
        o.status = j["status"];
        o.error = j.value("error", "");
        o.stats = j["stats"];
      }
      HttpResult page = Http("GET", base + "/issues?limit=1", {{"X-API-Key", key}});
      if (page.status == 200) o.issues = json::parse(page.body)["total"];
      o.cleaned = Http("GET", base + "/cleaned", {{"X-API-Key", key}}).body;
      out.push_back(std::move(o));
    }
    return out;
  }

  // Kills a worker process or the validator at seeded random moments until `stop`, at most
  // kMaxKills times, restarting each victim after a short random pause.
  void Chaos(const std::atomic<bool>& stop, std::vector<std::string>* log) {
    std::mt19937 rng(seed_);
    for (int kills = 0; kills < kMaxKills && !stop; ++kills) {
      // The first kill comes within 50 ms of the uploads, so that even on a fast, idle machine
      // the jobs are still running when it lands; the others at 50-350 ms intervals.
      const auto wait = std::chrono::milliseconds(kills == 0 ? rng() % 50 : 50 + rng() % 300);
      const auto deadline = std::chrono::steady_clock::now() + wait;
      while (!stop && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      if (stop) break;
      const uint32_t victim = rng() % (kWorkerProcesses + 1);
      const auto pause = std::chrono::milliseconds(rng() % 400);
      if (victim == kWorkerProcesses) {
        stack_->StopValidator();
        log->push_back("validator");
        std::this_thread::sleep_for(pause);
        stack_->StartValidator();
      } else {
        stack_->worker(static_cast<int>(victim)).Kill9();
        log->push_back("worker" + std::to_string(victim));
        std::this_thread::sleep_for(pause);
        stack_->StartWorker(static_cast<int>(victim));
      }
    }
  }

  uint32_t seed_ = kDefaultSeed;
  TestReceiver receiver_;
  std::unique_ptr<Stack> stack_;
  std::unique_ptr<ChildProcess> notifier_;
  std::vector<std::string> files_;
};

TEST_F(ChaosTest, KilledWorkersAndValidatorChangeNoResult) {
  int64_t total_rows = 0;
  for (int i = 0; i < kFiles; ++i) {
    int64_t rows = 0;
    files_.push_back(MakeFile(i, &rows));
    total_rows += rows;
  }

  // The reference: the same files, nothing killed.
  auto [calm_account, calm_key] = Account();
  const std::vector<std::string> calm_ids = UploadAll(calm_key);
  const std::vector<Outcome> calm = WaitOutcomes(calm_key, calm_ids, std::chrono::seconds(60));

  // The same files again, under fire.
  auto [account, key] = Account();
  const std::vector<std::string> ids = UploadAll(key);
  std::atomic<bool> stop{false};
  std::vector<std::string> kills;
  std::thread chaos([&] { Chaos(stop, &kills); });
  std::vector<Outcome> hit;
  {
    // Chaos stops once every job has ended (or the wait gives up); then the stack is whole again.
    std::set<std::string> open(ids.begin(), ids.end());
    WaitFor(
        [&] {
          for (auto it = open.begin(); it != open.end();) {
            HttpResult r = Http("GET", stack_->GatewayUrl() + "/v1/jobs/" + *it + "/issues?limit=1",
                                {{"X-API-Key", key}});
            const bool ended = r.status == 200 && (json::parse(r.body)["status"] == "done" ||
                                                   json::parse(r.body)["status"] == "failed");
            it = ended ? open.erase(it) : std::next(it);
          }
          return open.empty();
        },
        std::chrono::seconds(60));
    stop = true;
    chaos.join();
    hit = WaitOutcomes(key, ids, std::chrono::seconds(30));
  }
  std::string schedule;
  for (const auto& k : kills) schedule += k + " ";
  SCOPED_TRACE("seed " + std::to_string(seed_) + ", kills: " + schedule);
  EXPECT_GE(kills.size(), 1u);

  for (int i = 0; i < kFiles; ++i) {
    SCOPED_TRACE("file " + std::to_string(i));
    ASSERT_EQ(calm[i].status, "done") << calm[i].error;
    EXPECT_EQ(hit[i].status, "done") << hit[i].error;
    EXPECT_EQ(hit[i].issues, calm[i].issues);
    EXPECT_EQ(hit[i].stats, calm[i].stats);
    EXPECT_TRUE(hit[i].cleaned == calm[i].cleaned)
        << "cleaned file differs: " << hit[i].cleaned.size() << " vs " << calm[i].cleaned.size()
        << " bytes";
  }

  // Quota: exactly the rows of the 30 files, for each account.
  for (const auto& k : {calm_key, key}) {
    json usage = json::parse(Http("GET", stack_->GatewayUrl() + "/v1/usage", {{"X-API-Key", k}}).body);
    EXPECT_EQ(usage["records_used"], total_rows);
  }

  // Webhooks: at least one job.complete per job; none for a job that does not exist.
  std::set<std::string> known(calm_ids.begin(), calm_ids.end());
  known.insert(ids.begin(), ids.end());
  std::set<std::string> missing = known;
  std::vector<std::string> unknown;
  WaitFor(
      [&] {
        for (const auto& r : receiver_.Requests()) {
          json body = json::parse(r.body, nullptr, false);
          const std::string id = body.is_object() ? body.value("jobId", "") : "";
          missing.erase(id);
        }
        return missing.empty();
      },
      std::chrono::seconds(20));
  for (const auto& r : receiver_.Requests()) {
    json body = json::parse(r.body, nullptr, false);
    ASSERT_TRUE(body.is_object()) << r.body;
    EXPECT_EQ(body["event"], "job.complete");
    EXPECT_EQ(r.Header("x-service-event"), "job.complete");
    const std::string id = body.value("jobId", "");
    if (!known.count(id)) unknown.push_back(id);
  }
  EXPECT_TRUE(missing.empty()) << missing.size() << " jobs got no job.complete";
  EXPECT_TRUE(unknown.empty()) << unknown.size() << " job.complete for unknown jobs";
}

}  // namespace
}  // namespace dq::testing
