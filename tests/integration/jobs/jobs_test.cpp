// Jobs through the real gateway, workers, validator and Redis: every upload format, the read
// endpoints, the upload errors, the event for the notifier, and a worker killed mid-job.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <sstream>

#include "dq/common/partitions.h"
#include "job_wait.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

constexpr const char* kCsv =
    "Variant SKU,Title,Variant Price,Currency\r\n"
    "A1,Mug,12.50,EUR\r\n"
    ",Plate,abc,EUR\r\n"
    "A3,\"Bowl, large\",\"$1,299.00\",usd\r\n";

class JobsIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stack_ = new Stack(StackOptions{1, false,
                                    {{"DQ_RATE_LIMIT_GENERAL", "100000"},
                                     {"DQ_RATE_LIMIT_UPLOAD", "100000"},
                                     {"DQ_UPLOAD_MAX_BYTES", "1048576"}}});
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }
  void SetUp() override { std::tie(account_, key_) = stack_->NewAccount(); }

  HttpResult Upload(const std::string& body, const std::string& content_type,
                    const std::string& query = "") {
    return Http("POST", stack_->GatewayUrl() + "/v1/jobs" + query,
                {{"X-API-Key", key_}, {"Content-Type", content_type}}, body);
  }
  HttpResult Get(const std::string& path) {
    return Http("GET", stack_->GatewayUrl() + path, {{"X-API-Key", key_}});
  }
  json WaitDone(const std::string& id) { return WaitJobEnded(stack_->GatewayUrl(), key_, id); }
  static std::string Multipart(const std::string& file, const std::string& filename,
                               const std::string& type,
                               const std::vector<std::pair<std::string, std::string>>& fields) {
    std::string b = "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" +
                    filename + "\"\r\nContent-Type: " + type + "\r\n\r\n" + file + "\r\n";
    for (const auto& [name, value] : fields) {
      b += "--XyZ\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value +
           "\r\n";
    }
    return b + "--XyZ--\r\n";
  }
  static std::string Error(const HttpResult& r) { return json::parse(r.body)["error"]; }

  static Stack* stack_;
  std::string account_, key_;
};
Stack* JobsIntegrationTest::stack_ = nullptr;

TEST_F(JobsIntegrationTest, MultipartCsvUploadRunsToDone) {
  HttpResult r = Upload(Multipart(kCsv, "shop.csv", "text/csv", {{"check_types", "product"}}),
                        "multipart/form-data; boundary=XyZ");
  ASSERT_EQ(r.status, 202) << r.body;
  json summary = json::parse(r.body);
  EXPECT_EQ(summary["status"], "queued");
  EXPECT_EQ(summary["filename"], "shop.csv");
  EXPECT_EQ(summary["rows_total"], 3);
  EXPECT_EQ(r.Header("location"), "/v1/jobs/" + summary["id"].get<std::string>());
  json job = WaitDone(summary["id"]);
  ASSERT_EQ(job["status"], "done") << job.dump();
  EXPECT_EQ(job["rows_total"], 3);
  EXPECT_EQ(job["rows_error"], 1);    // row 2: MISSING_SKU, INVALID_PRICE
  EXPECT_EQ(job["rows_warning"], 1);  // row 3: fixes only
  EXPECT_EQ(job["rows_fixed"], 1);
  EXPECT_EQ(job["health_score"], 50);  // round(100 * (3 - 1 - 0.5) / 3)
  EXPECT_EQ(job["mapping"]["sku"], "Variant SKU");  // inferred from the export's headers
  EXPECT_EQ(job["mapping_inferred"], true);
  std::set<std::string> codes;
  int64_t last_id = 0;
  for (const auto& i : job["issues"]) {
    codes.insert(i["code"].get<std::string>() + "@" + std::to_string(i["issue_row"].get<int>()));
    EXPECT_EQ(i["id"].get<int64_t>(), last_id + 1);
    last_id = i["id"];
    for (const char* k : {"severity", "field", "message", "original_value"}) {
      EXPECT_TRUE(i[k].is_string()) << k;
    }
  }
  EXPECT_TRUE(codes.count("MISSING_SKU@2"));
  EXPECT_TRUE(codes.count("INVALID_PRICE@2"));
  EXPECT_TRUE(codes.count("PRICE_REFORMATTED@3"));
  EXPECT_TRUE(codes.count("CURRENCY_UPPERCASED@3"));

  // The cleaned file: same format, same columns in the same order, fixes in place; a fixed cell
  // keeps the quotes its original had.
  HttpResult cleaned = Get("/v1/jobs/" + summary["id"].get<std::string>() + "/cleaned");
  ASSERT_EQ(cleaned.status, 200);
  EXPECT_NE(cleaned.Header("content-type").find("text/csv"), std::string::npos);
  EXPECT_EQ(cleaned.body,
            "Variant SKU,Title,Variant Price,Currency\r\n"
            "A1,Mug,12.50,EUR\r\n"
            ",Plate,abc,EUR\r\n"
            "A3,\"Bowl, large\",\"1299.00\",USD\r\n");
}

TEST_F(JobsIntegrationTest, EveryFormatByRawBody) {
  struct Case {
    std::string type, body, query;
  };
  const std::string mapping = "&mapping=%7B%22sku%22%3A%22id%22%2C%22price%22%3A%22p%22%7D";
  const Case cases[] = {
      {"text/csv", "id,p\nA,1\nB,x\n", "?filename=a.csv" + mapping},
      {"text/tab-separated-values", "id\tp\nA\t1\nB\tx\n", "?filename=a.tsv" + mapping},
      {"application/json", R"([{"id":"A","p":1},{"id":"B","p":"x"}])", "?filename=a.json" + mapping},
      {"application/x-ndjson", "{\"id\":\"A\",\"p\":1}\n{\"id\":\"B\",\"p\":\"x\"}\n",
       "?filename=a.ndjson" + mapping},
      {"application/xml",
       "<rss version=\"2.0\"><channel><item><id>A</id><p>1</p></item>"
       "<item><id>B</id><p>x</p></item></channel></rss>",
       "?filename=a.xml" + mapping},
  };
  for (const Case& c : cases) {
    HttpResult r = Upload(c.body, c.type, c.query);
    ASSERT_EQ(r.status, 202) << c.type << ": " << r.body;
    json job = WaitDone(json::parse(r.body)["id"]);
    EXPECT_EQ(job["status"], "done") << c.type;
    EXPECT_EQ(job["rows_total"], 2) << c.type;
    EXPECT_EQ(job["rows_error"], 1) << c.type;
    EXPECT_EQ(job["mapping_inferred"], false);
    HttpResult cleaned = Get("/v1/jobs/" + job["id"].get<std::string>() + "/cleaned");
    EXPECT_EQ(cleaned.status, 200) << c.type;
    EXPECT_EQ(cleaned.body.empty(), false);
  }
  // JSON keeps its types in the cleaned file.
  HttpResult r = Upload(cases[2].body, cases[2].type, cases[2].query);
  json job = WaitDone(json::parse(r.body)["id"]);
  json cleaned = json::parse(Get("/v1/jobs/" + job["id"].get<std::string>() + "/cleaned").body);
  EXPECT_EQ(cleaned, json::parse(cases[2].body));
}

// The cleaned file keeps the file's column order, never sorted: JSON and NDJSON keys come back
// in the order of the upload (the first row's, then new keys as they appear), CSV columns too.
TEST_F(JobsIntegrationTest, CleanedKeepsTheFilesColumnOrder) {
  const std::string mapping = "&mapping=%7B%22sku%22%3A%22zsku%22%2C%22price%22%3A%22price%22%7D";
  struct Case {
    std::string type, body, query, expected;
  };
  const Case cases[] = {
      {"application/json", R"([{"zsku":"A","price":"1.00","beta":true,"alpha":null}])",
       "?filename=o.json" + mapping, R"([{"zsku":"A","price":"1.00","beta":true,"alpha":null}])"},
      {"application/x-ndjson", "{\"zsku\":\"B\",\"price\":\"2.00\",\"beta\":1}\n",
       "?filename=o.ndjson" + mapping, "{\"zsku\":\"B\",\"price\":\"2.00\",\"beta\":1}\n"},
      {"text/csv", "zsku,price,beta\nC,3.00,x\n", "?filename=o.csv" + mapping,
       "zsku,price,beta\nC,3.00,x\n"},
  };
  for (const Case& c : cases) {
    HttpResult r = Upload(c.body, c.type, c.query);
    ASSERT_EQ(r.status, 202) << c.type << ": " << r.body;
    json job = WaitDone(json::parse(r.body)["id"]);
    ASSERT_EQ(job["status"], "done") << c.type;
    HttpResult cleaned = Get("/v1/jobs/" + job["id"].get<std::string>() + "/cleaned");
    ASSERT_EQ(cleaned.status, 200) << c.type;
    std::string body = cleaned.body;
    const bool array = c.type == "application/json";  // its layout is free: compare keys only
    body.erase(std::remove_if(body.begin(), body.end(),
                              [&](char ch) { return ch == ' ' || (array && ch == '\n'); }),
               body.end());
    EXPECT_EQ(body, c.expected) << c.type;
  }
}

TEST_F(JobsIntegrationTest, UploadErrors) {
  struct Case {
    const char* name;
    std::string body, type, query;
    int status;
    const char* error;
  };
  const Case cases[] = {
      {"zero bytes", "", "text/csv", "", 400, "empty_file"},
      {"header only", "sku,price\n", "text/csv", "", 400, "empty_file"},
      {"binary", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), "image/png", "", 415,
       "unsupported_media_type"},
      {"pdf", "%PDF-1.4 ...", "application/pdf", "?filename=a.pdf", 415, "unsupported_media_type"},
      {"too large", std::string(1100000, 'a'), "text/csv", "", 413, "file_too_large"},
      {"latin-1", "sku,title\nA1,Caf\xe9\n", "text/csv", "", 400, "invalid_request"},
      {"unterminated quote", "sku,title\nA1,\"open\n", "text/csv", "", 400, "invalid_request"},
      {"bad mapping json", "sku\nA\n", "text/csv", "?mapping=%7Bnope", 400, "invalid_request"},
      {"mapped column missing", "sku\nA\n", "text/csv", "?mapping=%7B%22sku%22%3A%22SKU%22%7D",
       400, "invalid_request"},
      {"unknown check type", "sku\nA\n", "text/csv", "?check_types=tax", 400, "invalid_request"},
      {"unknown platform", "sku\nA\n", "text/csv", "?platform=x", 400, "invalid_request"},
      {"no inferable column", "shade\nred\n", "text/csv", "", 400, "invalid_request"},
      {"multipart without file", "--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n--B--\r\n",
       "multipart/form-data; boundary=B", "", 400, "invalid_request"},
  };
  for (const Case& c : cases) {
    HttpResult r = Upload(c.body, c.type, c.query);
    EXPECT_EQ(r.status, c.status) << c.name << ": " << r.body;
    ASSERT_NO_THROW(json::parse(r.body)) << c.name;
    EXPECT_EQ(Error(r), c.error) << c.name;
  }
  EXPECT_EQ(json::parse(Get("/v1/jobs").body).size(), 0u);  // nothing was accepted
}

TEST_F(JobsIntegrationTest, ListIsNewestFirstLimitedAndPrivate) {
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    ids.push_back(json::parse(Upload("sku\nA\n", "text/csv", "?filename=f" + std::to_string(i) +
                                                                 ".csv").body)["id"]);
  }
  json all = json::parse(Get("/v1/jobs").body);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0]["id"], ids[2]);
  EXPECT_EQ(all[2]["id"], ids[0]);
  for (const char* k : {"id", "filename", "status", "check_types", "rows_total", "rows_error",
                        "rows_warning", "rows_fixed", "health_score", "created_at"}) {
    EXPECT_TRUE(all[0].contains(k)) << k;
  }
  EXPECT_EQ(json::parse(Get("/v1/jobs?limit=1").body).size(), 1u);
  for (const char* bad : {"0", "21", "abc", "-1", ""}) {
    HttpResult r = Get(std::string("/v1/jobs?limit=") + bad);
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_EQ(Error(r), "invalid_request") << bad;
  }
  // Another account sees none of them, and gets 404 for each.
  auto [other, other_key] = stack_->NewAccount();
  EXPECT_EQ(json::parse(Http("GET", stack_->GatewayUrl() + "/v1/jobs", {{"X-API-Key", other_key}})
                            .body)
                .size(),
            0u);
  HttpResult foreign =
      Http("GET", stack_->GatewayUrl() + "/v1/jobs/" + ids[0], {{"X-API-Key", other_key}});
  EXPECT_EQ(foreign.status, 404);
  EXPECT_EQ(Error(foreign), "not_found");
  EXPECT_EQ(Get("/v1/jobs/00000000-0000-4000-8000-000000000000").status, 404);
}

TEST_F(JobsIntegrationTest, IssuesPagesInJsonAndCsv) {
  std::string csv = "sku,price\n";
  for (int i = 0; i < 30; ++i) csv += ",-1\n";  // two errors a row
  json job = WaitDone(json::parse(Upload(csv, "text/csv").body)["id"]);
  const std::string base = "/v1/jobs/" + job["id"].get<std::string>() + "/issues";
  json page = json::parse(Get(base + "?offset=10&limit=5").body);
  EXPECT_EQ(page["total"], 60);
  ASSERT_EQ(page["issues"].size(), 5u);
  EXPECT_EQ(page["issues"][0]["id"], 11);
  HttpResult csv_page = Get(base + "?format=csv&limit=2");
  EXPECT_NE(csv_page.Header("content-type").find("text/csv"), std::string::npos);
  std::istringstream lines(csv_page.body);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line,
            "id,issue_row,severity,field,code,message,original_value,fixed_value,sku,item_id,"
            "title\r");
  std::getline(lines, line);
  EXPECT_EQ(line.substr(0, 4), "1,1,");
  EXPECT_EQ(Get(base + "?format=xml").status, 400);
  EXPECT_EQ(Get(base + "?limit=0").status, 400);
}

TEST_F(JobsIntegrationTest, QuotaIsReservedForDataRows) {
  ASSERT_TRUE(stack_->accounts().SetQuota(account_, 4).ok());
  EXPECT_EQ(Upload("sku\nA\nB\nC\n", "text/csv").status, 202);
  HttpResult r = Upload("sku\nA\nB\n", "text/csv");
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(Error(r), "quota_exceeded");
  EXPECT_EQ(json::parse(Get("/v1/usage").body)["records_used"], 3);
}

TEST_F(JobsIntegrationTest, CompletionIsPublishedForTheNotifier) {
  json job = WaitDone(json::parse(Upload("sku,price\nA,1\n", "text/csv").body)["id"]);
  // On the account's partition of the event stream.
  const std::string entries = stack_->redis().Cli(
      {"XRANGE", PartitionKey("dq:events", PartitionOf(account_, DefaultPartitions(/*cluster=*/false))), "-", "+"});
  const size_t at = entries.find("\"jobId\":\"" + job["id"].get<std::string>() + "\"");
  ASSERT_NE(at, std::string::npos) << entries;
  const size_t start = entries.rfind('{', at);
  json payload = json::parse(entries.substr(start, entries.find('\n', at) - start));
  EXPECT_EQ(payload["event"], "job.complete");
  EXPECT_EQ(payload["status"], "done");
  EXPECT_EQ(payload["rows"], 1);
  EXPECT_EQ(payload["filename"], job["filename"]);
  for (const char* k : {"errors", "warnings", "fixes", "score"}) {
    EXPECT_TRUE(payload["stats"][k].is_number_integer()) << k;
  }
  EXPECT_EQ(payload["timestamp"].get<std::string>().size(), 24u);
  EXPECT_NE(entries.find(account_), std::string::npos);
}

// Before a job is done its cleaned file does not exist yet: 409 job_not_done, not 404 (which
// means "no such job"). A gateway with no workers leaves the job queued.
TEST(JobsNotDoneTest, CleanedBeforeDoneIs409JobNotDone) {
  Stack stack(StackOptions{1, false, {{"DQ_WORKERS", "0"}}});
  auto [account, key] = stack.NewAccount();
  HttpResult up = Http("POST", stack.GatewayUrl() + "/v1/jobs",
                       {{"X-API-Key", key}, {"Content-Type", "text/csv"}}, kCsv);
  ASSERT_EQ(up.status, 202) << up.body;
  const std::string id = json::parse(up.body)["id"];
  HttpResult r = Http("GET", stack.GatewayUrl() + "/v1/jobs/" + id + "/cleaned",
                      {{"X-API-Key", key}});
  EXPECT_EQ(r.status, 409) << r.body;
  json body = json::parse(r.body);
  EXPECT_EQ(body["error"], "job_not_done");
  EXPECT_NE(body["message"].get<std::string>().find("queued"), std::string::npos);
  // An unknown job is still 404.
  EXPECT_EQ(Http("GET", stack.GatewayUrl() + "/v1/jobs/00000000-0000-4000-8000-000000000000/cleaned",
                 {{"X-API-Key", key}})
                .status,
            404);
}

// A worker killed with SIGKILL mid-job leaves its queue entry pending; the replacement process
// takes it over after the claim timeout and the job still ends done.
TEST(JobsCrashTest, KilledWorkerMidJobStillEndsDone) {
  Stack stack(StackOptions{1, false,
                           {{"DQ_JOB_CLAIM_IDLE_MS", "1500"},
                            {"DQ_WORKERS", "1"},
                            // The test polls fast; the default 60/min would answer 429.
                            {"DQ_RATE_LIMIT_GENERAL", "100000"},
                            {"DQ_RATE_LIMIT_UPLOAD", "1000"}}});
  auto [id, key] = stack.NewAccount(Plan::kAgency);
  std::string csv = "sku,title,price,currency,gtin\n";
  csv.reserve(20 << 20);
  for (int i = 0; i < 200000; ++i) {
    csv += "SKU-" + std::to_string(i) + ",Mug " + std::to_string(i % 97) + "," +
           std::to_string(1 + i % 300) + ".99,EUR,4006381333931\n";
  }
  HttpResult up = Http("POST", stack.GatewayUrl() + "/v1/jobs",
                       {{"X-API-Key", key}, {"Content-Type", "text/csv"}}, csv);
  ASSERT_EQ(up.status, 202) << up.body;
  const std::string job_id = json::parse(up.body)["id"];
  auto status = [&] {
    HttpResult r = Http("GET", stack.GatewayUrl() + "/v1/jobs?limit=1", {{"X-API-Key", key}});
    return r.status == 200 ? json::parse(r.body)[0]["status"].get<std::string>() : "";
  };
  ASSERT_TRUE(WaitFor([&] { return status() == "processing"; }, std::chrono::seconds(20)));
  stack.gateway(0).Kill9();
  stack.RestartGateway(0);
  ASSERT_TRUE(WaitFor([&] { return status() == "done"; }, std::chrono::seconds(60)))
      << status();
  json job = json::parse(
      Http("GET", stack.GatewayUrl() + "/v1/jobs/" + job_id + "/issues?limit=1",
           {{"X-API-Key", key}})
          .body);
  EXPECT_EQ(job["status"], "done");
  HttpResult list = Http("GET", stack.GatewayUrl() + "/v1/jobs?limit=1", {{"X-API-Key", key}});
  EXPECT_EQ(json::parse(list.body)[0]["rows_total"], 200000);

  // Exactly one job.complete for it, whichever worker finished it.
  const std::string events = stack.redis().Cli(
      {"XRANGE", PartitionKey("dq:events", PartitionOf(id, DefaultPartitions(/*cluster=*/false))), "-", "+"});
  size_t count = 0;
  const std::string needle = "\"jobId\":\"" + job_id + "\"";
  for (size_t p = events.find(needle); p != std::string::npos; p = events.find(needle, p + 1)) {
    ++count;
  }
  EXPECT_EQ(count, 1u);
}

// A rolling restart under load: the gateway is told to stop (it drains: /readyz fails, requests
// in flight and arriving are still served for the grace period, workers stop taking jobs), a new
// process takes its place, and the clients keep uploading throughout. Every upload that got a
// 202 must end done; requests that got no answer while no process listened are the client's to
// retry, and none of them got a 2xx.
TEST(JobsRollingRestartTest, NoAcceptedJobIsLost) {
  Stack stack(StackOptions{1, false,
                           {{"DQ_SHUTDOWN_GRACE_MS", "1000"},
                            {"DQ_JOB_CLAIM_IDLE_MS", "1500"},
                            {"DQ_RATE_LIMIT_GENERAL", "100000"},
                            {"DQ_RATE_LIMIT_UPLOAD", "100000"}}});
  auto [id, key] = stack.NewAccount(Plan::kAgency);
  std::mutex mu;
  std::vector<std::string> accepted;
  std::atomic<int> failed_connections{0};
  std::atomic<int> server_errors{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> clients;
  for (int c = 0; c < 4; ++c) {
    clients.emplace_back([&, c] {
      for (int n = 0; !stop; ++n) {
        std::string csv = "sku,price\n";
        for (int r = 0; r < 50; ++r) {
          csv += 'C';
          csv += std::to_string(c * 1000 + r);
          csv += ",9.99\n";
        }
        HttpResult r = Http("POST", stack.GatewayUrl() + "/v1/jobs",
                            {{"X-API-Key", key}, {"Content-Type", "text/csv"}}, csv);
        if (r.status == 202) {
          std::lock_guard lock(mu);
          accepted.push_back(json::parse(r.body)["id"]);
        } else if (r.status == 0) {
          ++failed_connections;
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        } else {
          ++server_errors;
        }
      }
    });
  }
  // Uploads before the restart and after it, counted rather than timed (a loaded machine
  // accepts fewer in a given time).
  auto accepted_count = [&] {
    std::lock_guard lock(mu);
    return accepted.size();
  };
  EXPECT_TRUE(WaitFor([&] { return accepted_count() >= 15; }, std::chrono::seconds(60)));
  stack.GracefulRestartGateway(0);
  const size_t at_restart = accepted_count();
  EXPECT_TRUE(WaitFor([&] { return accepted_count() >= at_restart + 15; },
                      std::chrono::seconds(60)))
      << "the new gateway accepted no uploads";
  stop = true;
  for (auto& t : clients) t.join();
  ASSERT_GT(accepted.size(), 20u);
  EXPECT_EQ(server_errors, 0);
  std::set<std::string> pending(accepted.begin(), accepted.end());
  ASSERT_EQ(pending.size(), accepted.size());
  ASSERT_TRUE(WaitFor(
      [&] {
        for (auto it = pending.begin(); it != pending.end();) {
          HttpResult r = Http("GET", stack.GatewayUrl() + "/v1/jobs/" + *it + "/issues?limit=1",
                              {{"X-API-Key", key}});
          if (r.status == 200 && json::parse(r.body)["status"] == "done") {
            it = pending.erase(it);
          } else {
            ++it;
          }
        }
        return pending.empty();
      },
      std::chrono::seconds(60)))
      << pending.size() << " of " << accepted.size() << " accepted jobs never finished";
}

}  // namespace
}  // namespace dq::testing
