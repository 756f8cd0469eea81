// The scheduled sweep of orphaned objects (issue 34) through the real gateway, worker processes,
// validator, Redis and the fs artifact store: a worker is killed (SIGKILL) while its attempt has
// written objects, and the job then expires (its Redis keys go, as its TTL would take them); the
// next worker's sweep removes the killed attempt's objects and the upload, and never touches the
// committed objects of a finished job.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

std::string BigFile(int rows) {
  std::string csv = "Variant SKU,Title,Variant Price\n";
  for (int r = 0; r < rows; ++r) {
    csv += (r % 3 == 0 ? std::string() : "S" + std::to_string(r)) + ",Item " + std::to_string(r) +
           "," + (r % 2 == 0 ? "x" : "9.99") + "\n";
  }
  return csv;
}

TEST(SweepTest, AKilledAttemptsObjectsGoAndCommittedOnesStay) {
  Stack stack(StackOptions{1, false,
                           {{"DQ_RATE_LIMIT_GENERAL", "100000"},
                            {"DQ_RATE_LIMIT_UPLOAD", "100000"},
                            {"DQ_UPLOAD_MAX_BYTES", "16777216"},
                            {"DQ_QUOTA_PRO", "10000000"}},
                           1,
                           {{"DQ_ARTIFACT_SWEEP_INTERVAL_SECONDS", "1"},
                            {"DQ_ARTIFACT_SWEEP_GRACE_SECONDS", "2"},
                            {"DQ_WORKERS", "1"}}});
  auto [account, key] = stack.NewAccount();
  const std::string dir = "/tmp/dq-test-artifacts/" + std::to_string(stack.redis().port());
  auto call = [&, key = key](const std::string& method, const std::string& path,
                             const std::string& csv = "") {
    std::map<std::string, std::string> h = {{"X-API-Key", key}};
    if (!csv.empty()) h["Content-Type"] = "text/csv";
    return Http(method, stack.GatewayUrl() + path, h, csv);
  };
  auto objects_of = [&](const std::string& job_id) {
    std::set<std::string> out;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      const std::string p = it->path().string();
      if (it->is_regular_file() && p.find("/" + job_id + "/") != std::string::npos) {
        out.insert(p.substr(dir.size()));
      }
    }
    return out;
  };
  auto status_of = [&](const std::string& id) {
    HttpResult r = call("GET", "/v1/jobs/" + id);
    return r.status == 200 ? json::parse(r.body)["status"].get<std::string>() : "";
  };

  // A finished job: its committed objects (upload, issue pages) must survive every sweep.
  HttpResult up = call("POST", "/v1/jobs", BigFile(3000));
  ASSERT_EQ(up.status, 202) << up.body;
  const std::string kept = json::parse(up.body)["id"];
  ASSERT_TRUE(WaitFor([&] { return status_of(kept) == "done"; }, std::chrono::seconds(60)));
  const std::set<std::string> committed = objects_of(kept);
  ASSERT_FALSE(committed.empty());
  const std::string issues = call("GET", "/v1/jobs/" + kept + "/issues?limit=1000").body;

  // A large job; the worker is killed once its attempt has written an object of its own. A job
  // may still end between the object's appearance and the kill (a fast machine, or writes that
  // come late in the job): then its objects are committed ones, and another job is tried.
  std::string killed;
  auto attempt_objects = [&](const std::string& id) {
    int n = 0;
    for (const auto& p : objects_of(id)) n += p.find("/upload/") == std::string::npos;
    return n;
  };
  for (int tries = 0; tries < 3 && killed.empty(); ++tries) {
    up = call("POST", "/v1/jobs", BigFile(200000));
    ASSERT_EQ(up.status, 202) << up.body;
    const std::string id = json::parse(up.body)["id"];
    ASSERT_TRUE(WaitFor([&] { return attempt_objects(id) > 0; }, std::chrono::seconds(60)))
        << "the attempt wrote no object; job status " << status_of(id);
    stack.worker().Kill9();
    if (status_of(id) == "done") {  // ended before the kill: a committed job, not an orphan
      stack.StartWorker(0);
      continue;
    }
    killed = id;
  }
  ASSERT_FALSE(killed.empty()) << "three jobs ended before the kill: use a larger file";
  ASSERT_GT(attempt_objects(killed), 0);
  // The job expires: its keys go, as their TTL would take them. Its objects are orphans now.
  for (const std::string part : {"", ":file", ":issues", ":fixes", ":summary", ":cleaned"}) {
    stack.redis().Cli({"DEL", "dq:{" + account + "}:job:" + killed + part});
  }
  stack.redis().Cli({"ZREM", "dq:{" + account + "}:jobs", killed});

  // The next worker process sweeps (interval 1 s; objects older than 2 s: an upload being stored
  // meanwhile is younger).
  stack.StartWorker(0);
  ASSERT_TRUE(WaitFor([&] { return objects_of(killed).empty(); }, std::chrono::seconds(30)))
      << objects_of(killed).size() << " objects left\n"
      << stack.worker().Log();
  // The sweep removed them (and not something else): the round that deleted them logs it. The
  // line is written after the deletion, so it is waited for, not looked up at once.
  auto swept = [&] {
    const std::string log = stack.worker().Log();
    for (size_t at = log.find("orphan sweep done"); at != std::string::npos;
         at = log.find("orphan sweep done", at + 1)) {
      const size_t end = log.find('\n', at);
      const std::string line = log.substr(at, end == std::string::npos ? end : end - at);
      if (line.find("\"prefixes_deleted\":\"0\"") == std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(WaitFor(swept, std::chrono::seconds(30))) << stack.worker().Log();
  // Committed objects stay, and the finished job reads as before.
  EXPECT_EQ(objects_of(kept), committed);
  EXPECT_EQ(status_of(kept), "done");
  EXPECT_EQ(call("GET", "/v1/jobs/" + kept + "/issues?limit=1000").body, issues);
}

}  // namespace
}  // namespace dq::testing
