// The job endpoints beyond the specification's, through the real gateway, workers, validator and
// Redis: the summary, delete (also while the job runs), idempotent uploads under concurrency,
// the per-job issue cap and the per-account storage ceiling.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "dq/common/partitions.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

// Known defects: a missing SKU (error), a price with a currency sign and thousands separator
// (fixed), a lower-case currency (fixed), a non-numeric price (error).
constexpr const char* kCsv =
    "Variant SKU,Title,Variant Price,Currency\r\n"
    "A1,Mug,12.50,EUR\r\n"
    ",Plate,abc,EUR\r\n"
    "A3,\"Bowl, large\",\"$1,299.00\",usd\r\n"
    ",Cup,,eur\r\n";

class JobsManageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{1, false,
                                    {{"DQ_RATE_LIMIT_GENERAL", "100000"},
                                     {"DQ_RATE_LIMIT_UPLOAD", "100000"},
                                     {"DQ_UPLOAD_MAX_BYTES", "16777216"},
                                     {"DQ_QUOTA_PRO", "10000000"},
                                     {"DQ_JOB_MAX_STORED_ISSUES", "50"},
                                     {"DQ_ACCOUNT_MAX_STORED_BYTES", "12000000"}}});
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }
  void SetUp() override { std::tie(account_, key_) = stack_->NewAccount(); }

  HttpResult Upload(const std::string& body, std::map<std::string, std::string> h = {}) {
    h["X-API-Key"] = key_;
    h["Content-Type"] = "text/csv";
    return Http("POST", stack_->GatewayUrl() + "/v1/jobs", h, body);
  }
  HttpResult Call(const std::string& method, const std::string& path) {
    return Http(method, stack_->GatewayUrl() + path, {{"X-API-Key", key_}});
  }
  json WaitDone(const std::string& id) {
    json job;
    EXPECT_TRUE(WaitFor(
        [&] {
          job = json::parse(Call("GET", "/v1/jobs/" + id).body);
          return job["status"] == "done" || job["status"] == "failed";
        },
        std::chrono::seconds(60)));
    return job;
  }
  int64_t RecordsUsed() {
    return json::parse(Call("GET", "/v1/usage").body)["records_used"].get<int64_t>();
  }
  // Every key in Redis whose name holds s.
  std::string KeysWith(const std::string& s) {
    return stack_->redis().Cli({"--scan", "--pattern", "*" + s + "*"});
  }
  static std::string BigFile(int rows) {
    std::string csv = "Variant SKU,Title,Variant Price\n";
    csv.reserve(static_cast<size_t>(rows) * 32);
    for (int r = 0; r < rows; ++r) {
      csv += (r % 7 == 0 ? std::string() : "S" + std::to_string(r)) + ",Item " +
             std::to_string(r) + "," + (r % 5 == 0 ? "x" : "9.99") + "\n";
    }
    return csv;
  }

  static Stack* stack_;
  std::string account_, key_;
};
Stack* JobsManageTest::stack_ = nullptr;

TEST_F(JobsManageTest, SummaryCountsEqualTheJobsIssues) {
  HttpResult up = Upload(kCsv);
  ASSERT_EQ(up.status, 202) << up.body;
  json job = WaitDone(json::parse(up.body)["id"]);
  ASSERT_EQ(job["status"], "done");
  HttpResult r = Call("GET", "/v1/jobs/" + job["id"].get<std::string>() + "/summary");
  ASSERT_EQ(r.status, 200) << r.body;
  json summary = json::parse(r.body);
  EXPECT_EQ(summary["id"], job["id"]);
  EXPECT_EQ(summary["status"], "done");
  EXPECT_EQ(summary["rows_total"], 4);
  // The same counts, from the issues themselves.
  std::map<std::string, std::array<int64_t, 3>> fields;  // errors, warnings, fixes
  std::map<std::pair<std::string, std::string>, int64_t> codes;
  ASSERT_FALSE(job["issues"].empty());
  for (const auto& i : job["issues"]) {
    auto& f = fields[i["field"]];
    f[i["severity"] == "error" ? 0 : 1] += 1;
    if (!i["fixed_value"].is_null()) f[2] += 1;
    codes[{i["code"], i["field"]}] += 1;
  }
  ASSERT_EQ(summary["by_field"].size(), fields.size());
  for (const auto& f : summary["by_field"]) {
    const auto& want = fields[f["field"]];
    EXPECT_EQ(f["errors"], want[0]) << f;
    EXPECT_EQ(f["warnings"], want[1]) << f;
    EXPECT_EQ(f["fixes"], want[2]) << f;
  }
  ASSERT_EQ(summary["by_code"].size(), codes.size());
  for (const auto& c : summary["by_code"]) {
    EXPECT_EQ(c["count"], (codes[{c["code"], c["field"]}])) << c;
    EXPECT_GE(c["examples"].size(), 1u);
    EXPECT_LE(c["examples"].size(), 5u);
  }
}

TEST_F(JobsManageTest, IssuesPastTheCapAreCountedNotStored) {
  HttpResult up = Upload(BigFile(400));
  ASSERT_EQ(up.status, 202) << up.body;
  json job = WaitDone(json::parse(up.body)["id"]);
  ASSERT_EQ(job["status"], "done");
  EXPECT_EQ(job["issues"].size(), 50u);
  EXPECT_EQ(job["issues_truncated"], true);
  EXPECT_GT(job["issues_total"].get<int64_t>(), 50);
  json summary = json::parse(Call("GET", "/v1/jobs/" + job["id"].get<std::string>() +
                                  "/summary").body);
  int64_t counted = 0;
  for (const auto& c : summary["by_code"]) counted += c["count"].get<int64_t>();
  EXPECT_EQ(counted, job["issues_total"].get<int64_t>());
  EXPECT_EQ(summary["issues_truncated"], true);
}

TEST_F(JobsManageTest, DeleteRemovesEveryKeyAndAnswers404After) {
  HttpResult up = Upload(kCsv);
  ASSERT_EQ(up.status, 202);
  const std::string id = json::parse(up.body)["id"];
  WaitDone(id);
  EXPECT_EQ(Call("DELETE", "/v1/jobs/" + id).status, 204);
  EXPECT_EQ(Call("GET", "/v1/jobs/" + id).status, 404);
  EXPECT_EQ(Call("GET", "/v1/jobs/" + id + "/summary").status, 404);
  EXPECT_EQ(Call("DELETE", "/v1/jobs/" + id).status, 404);
  EXPECT_EQ(KeysWith(id), "");
  EXPECT_EQ(RecordsUsed(), 4);  // a finished job's records stay used
  EXPECT_EQ(json::parse(Call("GET", "/v1/jobs").body).size(), 0u);
}

TEST_F(JobsManageTest, DeleteDuringProcessingCancelsWithoutEvent) {
  constexpr int kRows = 250000;
  HttpResult up = Upload(BigFile(kRows));
  ASSERT_EQ(up.status, 202) << up.body;
  const std::string id = json::parse(up.body)["id"];
  ASSERT_TRUE(WaitFor([&] { return json::parse(Call("GET", "/v1/jobs/" + id + "/summary").body)
                                       ["status"] == "processing"; },
                      std::chrono::seconds(30)));
  ASSERT_EQ(Call("DELETE", "/v1/jobs/" + id).status, 204);
  // The worker notices at its next step and acknowledges the entry: the queue empties.
  const int partition = PartitionOf(account_, DefaultPartitions(/*cluster=*/false));
  const std::string queue = PartitionKey("dq:jobs:queue", partition);
  ASSERT_TRUE(WaitFor([&] { return stack_->redis().Cli({"XLEN", queue}) == "0"; },
                      std::chrono::seconds(30)));
  EXPECT_EQ(KeysWith(id), "");
  const std::string events = PartitionKey("dq:events", partition);
  EXPECT_EQ(stack_->redis().Cli({"XRANGE", events, "-", "+"}).find(id), std::string::npos);
  const int64_t used = RecordsUsed();
  EXPECT_LT(used, kRows);  // the rows not processed were given back
  EXPECT_GE(used, 0);
}

TEST_F(JobsManageTest, TwentyParallelUploadsWithOneKeyMakeOneJob) {
  const std::string body = kCsv;
  std::vector<HttpResult> results(20);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] { results[i] = Upload(body, {{"Idempotency-Key", "order-77"}}); });
  }
  for (auto& t : threads) t.join();
  std::set<std::string> ids;
  int created = 0;
  for (const auto& r : results) {
    ASSERT_TRUE(r.status == 202 || r.status == 200) << r.status << " " << r.body;
    created += r.status == 202;
    ids.insert(json::parse(r.body)["id"].get<std::string>());
  }
  EXPECT_EQ(created, 1);
  EXPECT_EQ(ids.size(), 1u);
  EXPECT_EQ(json::parse(Call("GET", "/v1/jobs").body).size(), 1u);
  EXPECT_EQ(RecordsUsed(), 4);
  // Later, the same key: the same job, 200; with another body: 422.
  HttpResult again = Upload(body, {{"Idempotency-Key", "order-77"}});
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(json::parse(again.body)["id"], *ids.begin());
  HttpResult other = Upload("sku\nB1\n", {{"Idempotency-Key", "order-77"}});
  EXPECT_EQ(other.status, 422);
  EXPECT_EQ(json::parse(other.body)["error"], "idempotency_key_reused");
  EXPECT_EQ(RecordsUsed(), 4);
}

TEST_F(JobsManageTest, ALargeCleanedFileIsSentPieceByPieceAndACutIsNeverSilent) {
  // ~3.4 MB: several upload pieces, kept after the job, from which the cleaned file is written on
  // download, a part at a time. Nothing in it is fixable, so the cleaned file is the upload.
  const std::string big = BigFile(150000);
  HttpResult up = Upload(big);
  ASSERT_EQ(up.status, 202) << up.body;
  const std::string id = json::parse(up.body)["id"].get<std::string>();
  ASSERT_EQ(WaitDone(id)["status"], "done");
  // The upload's pieces are objects of the stack's fs artifact store (DQ_ARTIFACT_DIR).
  std::string pieces;
  for (const auto& e : std::filesystem::recursive_directory_iterator(
           "/tmp/dq-test-artifacts/" + std::to_string(stack_->redis().port()))) {
    if (e.is_directory() && e.path().string().ends_with(id + "/upload/file")) pieces = e.path();
  }
  ASSERT_FALSE(pieces.empty());
  ASSERT_GE(std::distance(std::filesystem::directory_iterator(pieces),
                          std::filesystem::directory_iterator()),
            3);

  HttpResult whole = Call("GET", "/v1/jobs/" + id + "/cleaned");
  ASSERT_EQ(whole.status, 200);
  EXPECT_EQ(whole.Header("transfer-encoding"), "chunked");
  EXPECT_EQ(whole.body, big);

  // A piece that cannot be read once the answer has begun: the download is cut off (curl sees an
  // incomplete transfer), never ended as if the file were whole.
  std::ofstream(pieces + "/000002.zst", std::ios::trunc) << "not a frame";
  HttpResult cut = Call("GET", "/v1/jobs/" + id + "/cleaned");
  EXPECT_EQ(cut.status, 0) << "a cut download must not look complete";
  EXPECT_LT(cut.body.size(), big.size());
  EXPECT_EQ(cut.body, big.substr(0, cut.body.size()));
  // A damaged first piece is still a proper error, before any of the file.
  std::ofstream(pieces + "/000000.zst", std::ios::trunc) << "not a frame";
  HttpResult early = Call("GET", "/v1/jobs/" + id + "/cleaned");
  EXPECT_EQ(early.status, 500);
  EXPECT_EQ(json::parse(early.body)["error"], "internal_error");
}

TEST_F(JobsManageTest, StorageCeilingAnswers429WithACode) {
  // 12 MB per account, counted on the bytes really stored: a 6.8 MB upload is reserved at its
  // size, then counts as its compressed objects (well under 1 MB), so several fit where one would
  // if uploads counted at their size; the ceiling still comes.
  std::string big = BigFile(300000);
  ASSERT_GT(big.size(), 6000000u);
  std::vector<std::string> accepted;
  HttpResult refused;
  for (int i = 0; i < 12 && refused.status == 0; ++i) {
    HttpResult r = Upload(big);
    if (r.status == 202) {
      accepted.push_back(json::parse(r.body)["id"]);
    } else {
      refused = r;
    }
  }
  EXPECT_GE(accepted.size(), 2u) << "uploads are counted at their stored size";
  ASSERT_EQ(refused.status, 429) << refused.body;
  json e = json::parse(refused.body);
  EXPECT_EQ(e["error"], "storage_limit_exceeded");
  EXPECT_NE(e["message"].get<std::string>().find("DELETE /v1/jobs"), std::string::npos);
  EXPECT_NE(e["message"].get<std::string>().find("storage ceiling of 11.4 MB"), std::string::npos)
      << e["message"];
  EXPECT_EQ(refused.headers.count("retry-after"), 0u);
  // At the ceiling, the job list still answers.
  EXPECT_EQ(Call("GET", "/v1/jobs").status, 200);
  // Deleting makes room again.
  for (const auto& id : accepted) ASSERT_EQ(Call("DELETE", "/v1/jobs/" + id).status, 204);
  EXPECT_EQ(Upload(big).status, 202);
}

TEST_F(JobsManageTest, MalformedJobIdsAreNotFound) {
  for (const char* path : {"/v1/jobs/abc", "/v1/jobs/abc:issues/summary"}) {
    HttpResult r = Call("GET", path);
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(json::parse(r.body)["error"], "not_found");
  }
  EXPECT_EQ(Call("DELETE", "/v1/jobs/abc").status, 404);
}

}  // namespace
}  // namespace dq::testing
