// Every state change of the JobRunner, with the in-memory fakes: claim, heartbeat, stale claim,
// validator failure mid-stream, store failure at each step, publish failure, max attempts,
// cancellation; then every step of a run failed once, before and after it takes effect.
#include "jobs/job_runner.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dq/testing/fake_clock.h"
#include "dq/testing/job_fakes.h"
#include "dq/testing/gateway_fakes.h"
#include "dq/ingest/row_writer.h"
#include "dq/report/cleaned_file.h"
#include "jobs/job_heartbeat.h"
#include "jobs/jobs_api.h"

namespace dq::gateway {
namespace {

using testing::FakeClock;
using testing::FakeValidatorStreamFactory;
using testing::FaultPlan;
using testing::InMemoryJobQueue;
using testing::InMemoryJobStore;
using testing::RecordingEventPublisher;

constexpr int kRows = 10;

// Row r: sku "" is an error; a lower-case sku is a warning fixed to upper case.
std::vector<validator::v1::Issue> IssuesFor(uint64_t row, const validator::v1::Row& values) {
  std::vector<validator::v1::Issue> out;
  const std::string& sku = values.values(0);
  validator::v1::Issue i;
  i.set_row(row);
  i.set_field("sku");
  i.set_original_value(sku);
  if (sku.empty()) {
    i.set_severity(validator::v1::SEVERITY_ERROR);
    i.set_code("sku_missing");
    i.set_message("SKU is missing.");
    out.push_back(i);
  } else if (sku[0] == 'x') {
    i.set_severity(validator::v1::SEVERITY_WARNING);
    i.set_code("sku_case");
    i.set_message("SKU is lower case.");
    std::string fixed = sku;
    for (char& c : fixed) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    i.set_fixed_value(fixed);
    out.push_back(i);
  }
  return out;
}

std::string File() {
  std::string csv = "sku,title\n";
  for (int r = 1; r <= kRows; ++r) {
    csv += (r % 3 == 0 ? std::string() : (r % 3 == 1 ? "x" : "A") + std::to_string(r)) +
           ",Item " + std::to_string(r) + "\n";
  }
  return csv;
}

// The rows of File() as an XLSX workbook with its own sheet name.
std::string Workbook() {
  auto csv = ingest::MakeRowReader(ingest::FileFormat::kCsv);
  const std::string file = File();
  csv->Feed(file);
  csv->Finish();
  ingest::RowWriter book(ingest::FileFormat::kXlsx, {}, {"sku", "title"});
  book.set_sheet_name("Produkte");
  while (*csv->Next() == ingest::ReadState::kRow) book.WriteRow(csv->row());
  EXPECT_TRUE(book.Finish().ok());
  return book.out();
}

struct Fixture {
  explicit Fixture(FaultPlan* plan = nullptr, RunnerOptions options = Defaults(),
                   ingest::FileFormat format = ingest::FileFormat::kCsv)
      : store(plan), queue(plan), validator(IssuesFor, plan), events(plan),
        runner(store, queue, validator, events, clock, options, metrics) {
    job.id = "0b6f7a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b";
    job.account_id = "acct_1";
    job.filename = "shop.csv";
    job.feed = "shop.csv (product)";
    job.status = JobStatus::kQueued;
    job.check_types = CheckTypeList::FromText("product");
    job.mapping = {{"sku", "sku"}};
    job.header = {"sku", "title"};
    job.rows_total = kRows;
    job.quota_month = "202611";
    job.created_ms = UnixMillis(clock.Now());
    job.format = format;
    const std::string file = format == ingest::FileFormat::kXlsx ? Workbook() : File();
    // Three pieces, cut mid-row: the reader must join them.
    const size_t cut = format == ingest::FileFormat::kXlsx ? file.size() / 3 : 25;
    std::vector<std::string_view> pieces = {std::string_view(file).substr(0, cut),
                                            std::string_view(file).substr(cut, cut + 15),
                                            std::string_view(file).substr(2 * cut + 15)};
    job.file_bytes = static_cast<int64_t>(file.size());
    job.file_pieces = 3;
    file_ = file;
    // Set up without faults: the plan counts only the run.
    FaultPlan* saved = plan ? new FaultPlan(*plan) : nullptr;
    if (plan) plan->fail_at = 0;
    gateway::UploadPieces upload(pieces, /*helpers=*/0);
    EXPECT_TRUE(store.Create(job, upload).ok());
    EXPECT_TRUE(queue.Enqueue(job.account_id, job.id).ok());
    EXPECT_TRUE(store.Accept(job).ok());
    entry = **queue.Next("w1", std::chrono::milliseconds(0));
    if (plan) {
      *plan = *saved;
      plan->steps = 0;
      plan->log.clear();
      delete saved;
    }
  }
  static RunnerOptions Defaults() {
    RunnerOptions o;
    o.chunk_rows = 3;  // several chunks, so failures land mid-stream
    o.chunks_in_flight = 2;  // the tests below count on rows 1-3 being stored when row 8 is checked
    o.output.fix_piece_bytes = 16;
    o.output.write_rows = 3;  // a write after every chunk
    return o;
  }
  RunOutcome Run() { return runner.Run(entry, lost); }
  // Runs until the job reaches an end the runner reports as final.
  RunOutcome RunToEnd(int max_runs = 10) {
    RunOutcome o = RunOutcome::kRetryLater;
    for (int i = 0; i < max_runs; ++i) {
      o = Run();
      if (o != RunOutcome::kRetryLater && o != RunOutcome::kSuperseded) return o;
    }
    return o;
  }
  Job Stored() { return *store.job(job.id); }
  std::vector<std::string> Issues() { return *store.Issues(Stored(), 0, -1); }
  // The cleaned file as a download gets it: written from the kept upload and the stored fixes,
  // or, for a workbook, the pieces stored whole.
  std::string Cleaned() {
    const Job done = Stored();
    if (done.status != JobStatus::kDone) return "<" + std::string(JobStatusName(done.status)) + ">";
    if (done.cleaned_from != kCleanedFromFixes) {
      std::string whole;
      for (int64_t i = 0;; ++i) {
        auto piece = store.CleanedPiece(done, i);
        if (!piece.ok()) return "<" + piece.status().message() + ">";
        if (!piece->has_value()) return whole;
        whole += **piece;
      }
    }
    report::CleanedFile file(done, [&](int64_t i) { return store.FilePiece(done, i); },
                     [&](int64_t i) { return store.FixesPiece(done, i); });
    std::string all;
    while (true) {
      auto more = file.Next(&all, 1 << 20);
      if (!more.ok()) return "<" + more.status().message() + ">";
      if (!*more) return all;
    }
  }

  FakeClock clock;
  InMemoryJobStore store;
  InMemoryJobQueue queue;
  FakeValidatorStreamFactory validator;
  RecordingEventPublisher events;
  Metrics registry;  // the runner's own, so that a test reads only its counts
  JobRunnerMetrics metrics{registry};
  JobRunner runner;
  Job job;
  QueueEntry entry;
  std::atomic<bool> lost{false};
  std::string file_;
};

// A later job of the same feed: File() with row 1's SKU fixed ("X1") and row 2's broken ("x2").
RunOutcome RunSecondJob(Fixture& f, Job& second, int64_t max_rows = 0) {
  std::string csv = "sku,title\n";
  for (int r = 1; r <= kRows; ++r) {
    std::string sku = r % 3 == 0 ? "" : (r % 3 == 1 ? "x" : "A") + std::to_string(r);
    if (r == 1) sku = "X1";
    if (r == 2) sku = "x2";
    csv += sku + ",Item " + std::to_string(r) + "\n";
  }
  second = f.job;
  second.id = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
  f.clock.Advance(std::chrono::seconds(60));
  second.created_ms = UnixMillis(f.clock.Now());
  second.file_bytes = static_cast<int64_t>(csv.size());
  second.file_pieces = 1;
  second.max_rows = max_rows;
  second.rows_in_file = kRows;
  second.rows_total = max_rows > 0 ? max_rows : kRows;
  std::vector<std::string_view> pieces = {csv};
  gateway::UploadPieces upload(pieces, /*helpers=*/0);
  EXPECT_TRUE(f.store.Create(second, upload).ok());
  EXPECT_TRUE(f.queue.Enqueue(second.account_id, second.id).ok());
  EXPECT_TRUE(f.store.Accept(second).ok());
  QueueEntry entry = **f.queue.Next("w1", std::chrono::milliseconds(0));
  return f.runner.Run(entry, f.lost);
}

TEST(JobRunnerTest, ASecondJobOfTheFeedSaysWhatIsNewResolvedAndStillOpen) {
  Fixture f;
  ASSERT_EQ(f.Run(), RunOutcome::kDone);
  EXPECT_EQ(f.Stored().previous_job_id, "");  // the feed's first job
  EXPECT_EQ(f.Stored().changes, "");
  Job second;
  ASSERT_EQ(RunSecondJob(f, second), RunOutcome::kDone);
  const Job done = *f.store.job(second.id);
  EXPECT_EQ(done.previous_job_id, f.job.id);
  auto changes = nlohmann::json::parse(done.changes);
  EXPECT_EQ(changes["previous_job_id"], f.job.id);
  EXPECT_EQ(changes["resolved"], 1);  // x1 is X1 now
  EXPECT_EQ(changes["new"], 1);       // x2
  EXPECT_EQ(changes["open"], 6);      // rows 3, 6, 9 have no SKU; x4, x7, x10
  EXPECT_EQ(changes["keyed_by"], "sku_or_row");
  EXPECT_EQ(changes["complete"], true);
  EXPECT_EQ(changes["partial_rows"], false);
  // As the API shows it, with the job.
  EXPECT_EQ(JobDetailJson(done)["changes"]["resolved"], 1);
  EXPECT_EQ(JobSummaryJson(done)["previous_job_id"], f.job.id);
}

TEST(JobRunnerTest, TheNextJobOfAFeedComparesWithTheKeysKeptAsWithTheStoredIssues) {
  // The same two jobs of a feed on a runner that keeps the keys of the jobs it finished, and on
  // one that reads the previous job's issues back from the store: the same changes, and the
  // first reads no issue of the store for them.
  auto changes = [](size_t kept_jobs, std::vector<std::string>* steps) {
    FaultPlan plan;  // never fails; counts the steps
    RunnerOptions options = Fixture::Defaults();
    options.recent_keys_jobs = kept_jobs;
    Fixture f(&plan, options);
    EXPECT_EQ(f.Run(), RunOutcome::kDone);
    EXPECT_EQ(f.runner.recent_keys().jobs(), kept_jobs > 0 ? 1u : 0u);
    plan.log.clear();
    Job second;
    EXPECT_EQ(RunSecondJob(f, second), RunOutcome::kDone);
    *steps = plan.log;
    const Job done = *f.store.job(second.id);
    EXPECT_EQ(done.previous_job_id, f.job.id);
    return done.changes;
  };
  std::vector<std::string> kept_steps, read_steps;
  const std::string kept = changes(8, &kept_steps);
  const std::string read = changes(0, &read_steps);
  EXPECT_EQ(kept, read);
  EXPECT_EQ(nlohmann::json::parse(kept)["resolved"], 1);
  EXPECT_EQ(nlohmann::json::parse(kept)["new"], 1);
  EXPECT_EQ(nlohmann::json::parse(kept)["open"], 6);
  auto reads = [](const std::vector<std::string>& steps) {
    return std::count(steps.begin(), steps.end(), "store.issues");
  };
  EXPECT_EQ(reads(kept_steps), 0);
  EXPECT_GT(reads(read_steps), 0);
}

TEST(JobRunnerTest, RecentIssueKeysHandsEachJobOutOnceAndDropsTheOldestPastItsBounds) {
  auto keys = [](int n) {
    IssueKeys k;
    for (int i = 0; i < n; ++i) {
      EXPECT_TRUE(k.Add(R"({"row":)" + std::to_string(i + 1) +
                        R"(,"field":"sku","code":"MISSING_SKU","severity":"error"})"));
    }
    return k;
  };
  RecentIssueKeys recent(/*max_jobs=*/2, /*max_entries=*/10);
  recent.Keep("a", "j1", keys(3));
  recent.Keep("a", "j2", keys(3));
  recent.Keep("a", "j3", keys(3));  // j1 goes: two jobs at most
  EXPECT_EQ(recent.jobs(), 2u);
  EXPECT_FALSE(recent.Take("a", "j1"));
  EXPECT_FALSE(recent.Take("b", "j2"));  // another account's job of that id: not this one
  auto j2 = recent.Take("a", "j2");
  ASSERT_TRUE(j2);
  EXPECT_EQ(j2->size(), 3u);
  EXPECT_FALSE(recent.Take("a", "j2"));  // handed out once
  recent.Keep("a", "j4", keys(8));  // 3 + 8 keys: past 10, j3 goes
  EXPECT_FALSE(recent.Take("a", "j3"));
  recent.Keep("a", "j5", keys(11));  // more than all the room: not kept
  EXPECT_FALSE(recent.Take("a", "j5"));
  EXPECT_TRUE(recent.Take("a", "j4"));
  EXPECT_EQ(recent.jobs(), 0u);
}

TEST(JobRunnerTest, AJobOfAnotherFeedIsNotCompared) {
  Fixture f;
  ASSERT_EQ(f.Run(), RunOutcome::kDone);
  f.job.feed = "another feed";
  Job second;
  ASSERT_EQ(RunSecondJob(f, second), RunOutcome::kDone);
  EXPECT_EQ(f.store.job(second.id)->previous_job_id, "");
  EXPECT_EQ(f.store.job(second.id)->changes, "");
}

TEST(JobRunnerTest, MaxRowsChecksOnlyTheFirstRows) {
  Fixture f;
  ASSERT_EQ(f.Run(), RunOutcome::kDone);
  Job second;
  ASSERT_EQ(RunSecondJob(f, second, /*max_rows=*/4), RunOutcome::kDone);
  const Job done = *f.store.job(second.id);
  EXPECT_EQ(done.rows_total, 4);
  EXPECT_EQ(done.rows_in_file, kRows);
  EXPECT_EQ(done.issues, 3);  // x2, row 3 (no SKU) and x4; rows 5 to 10 are not checked
  EXPECT_EQ(JobSummaryJson(done)["max_rows"], 4);
  // Compared with the whole first job, and says only part of this one was checked.
  EXPECT_EQ(nlohmann::json::parse(done.changes)["partial_rows"], true);
  EXPECT_EQ(JobSummaryJson(done)["rows_in_file"], kRows);
}

TEST(JobRunnerTest, PiecesLeftByTheUploadAreReadThereAndTheOutcomeIsTheSame) {
  // One run reading the pieces from the store, one given them by the upload (the same three
  // pieces, raw): the same issues, fixes and summary; the second reads no piece of the store.
  struct Outcome {
    Job job;
    std::vector<std::string> issues, steps;
    std::string summary, fixes;
  };
  auto run = [](bool handoff) {
    FaultPlan plan;  // never fails; counts the steps
    Fixture f(&plan);
    FakeClock clock;
    UploadHandoff left(1 << 20, std::chrono::seconds(30), clock);
    if (handoff) {
      std::vector<std::string> pieces;
      for (int64_t i = 0; i < f.job.file_pieces; ++i) pieces.push_back(*f.store.FilePiece(f.job, i));
      plan.log.clear();
      EXPECT_TRUE(left.Keep(f.job.account_id, f.job.id, pieces));
      f.runner.SetUploadHandoff(&left);
    }
    EXPECT_EQ(f.Run(), RunOutcome::kDone);
    const Job done = f.Stored();
    Outcome o{done, *f.store.Issues(done, 0, 1000), plan.log, *f.store.Summary(done), ""};
    for (int64_t i = 0;; ++i) {
      auto piece = f.store.FixesPiece(done, i);
      if (!piece.ok() || !piece->has_value()) break;
      o.fixes += **piece;
    }
    if (handoff) { EXPECT_EQ(left.bytes(), 0u); }  // every piece taken
    return o;
  };
  const Outcome store = run(false), left = run(true);
  EXPECT_EQ(left.issues, store.issues);
  EXPECT_EQ(left.summary, store.summary);
  EXPECT_EQ(left.fixes, store.fixes);
  EXPECT_FALSE(store.fixes.empty());
  EXPECT_EQ(left.job.issues, store.job.issues);
  EXPECT_EQ(left.job.fixes, store.job.fixes);
  auto file_reads = [](const std::vector<std::string>& steps) {
    return std::count(steps.begin(), steps.end(), "store.file");
  };
  EXPECT_EQ(file_reads(left.steps), 0);
  EXPECT_EQ(file_reads(store.steps), 3);
}

TEST(JobRunnerTest, ClaimRunsToDoneAndPublishesOnce) {
  Fixture f;
  EXPECT_EQ(f.Run(), RunOutcome::kDone);
  const Job j = f.Stored();
  EXPECT_EQ(JobStatusName(j.status), "done");
  EXPECT_EQ(j.attempts, 1);
  EXPECT_EQ(j.issues, 7);  // rows 3, 6, 9 missing; 1, 4, 7, 10 lower case
  EXPECT_EQ(j.issues_found, 7);
  EXPECT_TRUE(j.event_published);
  EXPECT_EQ(f.queue.pending(), 0u);
  ASSERT_EQ(f.events.records.size(), 1u);
  EXPECT_EQ(f.events.records[0].delivery_id, j.id);
  auto payload = events::DecodeJobComplete(f.events.records[0].payload);
  ASSERT_TRUE(payload.ok());
  EXPECT_EQ(payload->status, "done");
  EXPECT_EQ(payload->rows, kRows);
  EXPECT_EQ(f.Cleaned().substr(0, 22), "sku,title\nX1,Item 1\nA2");
  EXPECT_EQ(f.store.refunded_records(), 0);
  // The job, its upload (kept for the cleaned file), issues, fixes and summary.
  EXPECT_EQ(f.store.keys_of(j.id), 5u);
}

// An XLSX job writes its cleaned workbook once and keeps it whole (a download would otherwise
// hold the whole upload and sheet in memory each time): the stored pieces are the workbook, with
// the fixes and the sheet's name, the upload goes with the finish, and the download sends them.
TEST(JobRunnerTest, AnXlsxJobStoresItsWorkbookOnceAndDropsItsUpload) {
  RunnerOptions o = Fixture::Defaults();
  o.workbook_piece_bytes = 500;  // several pieces
  Fixture f(nullptr, o, ingest::FileFormat::kXlsx);
  ASSERT_EQ(f.Run(), RunOutcome::kDone);
  const Job j = f.Stored();
  EXPECT_EQ(j.cleaned_from, "");  // stored whole
  EXPECT_EQ(j.issues, 7);
  std::string book;
  for (int64_t i = 0;; ++i) {
    auto piece = f.store.CleanedPiece(j, i);
    ASSERT_TRUE(piece.ok());
    if (!piece->has_value()) break;
    EXPECT_LE((*piece)->size(), 500u);
    book += **piece;
  }
  ASSERT_GT(book.size(), 1000u);
  auto read = ingest::ScanFile(ingest::FileFormat::kXlsx, book);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->sheet_name, "Produkte");
  EXPECT_EQ(read->data_rows, static_cast<uint64_t>(kRows));
  auto reader = ingest::MakeRowReader(ingest::FileFormat::kXlsx);
  reader->Feed(book);
  reader->Finish();
  std::vector<std::string> skus;
  while (*reader->Next() == ingest::ReadState::kRow) skus.emplace_back(reader->row()[0]);
  EXPECT_EQ(skus, (std::vector<std::string>{"X1", "A2", "", "X4", "A5", "", "X7", "A8", "",
                                            "X10"}));
  // The job, its issues, workbook and summary; the upload and the fixes are gone.
  EXPECT_EQ(f.store.keys_of(j.id), 4u);
  EXPECT_EQ(f.store.FilePiece(j, 0).status().code(), ErrorCode::kInternal);
  EXPECT_EQ(f.store.FilePiece(j, 0).status().message(), "piece 0 of the upload is missing");

  testing::InMemoryQuotaService quota{QuotaPolicy{}};
  JobsApi api(f.store, f.queue, quota, f.clock, JobsOptions{});
  Principal owner;
  owner.account.id = "acct_1";
  http::HttpResponse r = api.Cleaned(owner, j.id);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.FullBody(), book);
}

TEST(JobRunnerTest, SummaryCountsEqualTheIssues) {
  Fixture f;
  ASSERT_EQ(f.Run(), RunOutcome::kDone);
  auto summary = nlohmann::json::parse(*f.store.Summary(f.Stored()));
  ASSERT_EQ(summary["by_code"].size(), 2u);
  // Errors first (issue 33), then by count.
  EXPECT_EQ(summary["by_code"][0]["code"], "sku_missing");
  EXPECT_EQ(summary["by_code"][0]["severity"], "error");
  EXPECT_EQ(summary["by_code"][0]["count"], 3);
  EXPECT_EQ(summary["by_code"][0]["examples"].size(), 3u);
  EXPECT_EQ(summary["by_code"][1]["code"], "sku_case");
  EXPECT_EQ(summary["by_code"][1]["count"], 4);
  EXPECT_EQ(summary["by_code"][1]["examples"].size(), 4u);
  EXPECT_EQ(summary["by_field"][0],
            (nlohmann::json{{"field", "sku"}, {"errors", 3}, {"warnings", 4}, {"fixes", 4}}));
}

TEST(JobRunnerTest, StoredIssuesAreCappedButCountsStayExact) {
  RunnerOptions o = Fixture::Defaults();
  o.output.max_stored_issues = 2;
  Fixture f(nullptr, o);
  ASSERT_EQ(f.Run(), RunOutcome::kDone);
  EXPECT_EQ(f.Issues().size(), 2u);
  EXPECT_EQ(f.Stored().issues, 2);
  EXPECT_EQ(f.Stored().issues_found, 7);
  EXPECT_EQ(JobDetailJson(f.Stored())["issues_truncated"], true);
  EXPECT_EQ(JobDetailJson(f.Stored())["issues_total"], 7);
  auto summary = nlohmann::json::parse(*f.store.Summary(f.Stored()));
  EXPECT_EQ(summary["by_code"][0]["count"], 3);
  EXPECT_EQ(summary["by_code"][1]["count"], 4);
}

// A job run to `done` and the jobs API over its store, as the account that owns it.
struct ApiFixture {
  explicit ApiFixture(JobsOptions options = {}) : api(f.store, f.queue, quota, f.clock, options) {
    EXPECT_EQ(f.Run(), RunOutcome::kDone);
    owner.account.id = "acct_1";
  }
  static JobsOptions IssuesPage(int64_t issues_page) {
    JobsOptions o;
    o.issues_page = issues_page;
    return o;
  }
  // Reads a streamed answer's remaining pieces into *got; how the body ended.
  static http::BodyStep ReadRest(http::HttpResponse& r, std::string* got) {
    http::BodyStep step = http::BodyStep::kMore;
    while (step == http::BodyStep::kMore) step = r.body_producer(got);
    return step;
  }

  Fixture f;
  testing::InMemoryQuotaService quota{QuotaPolicy{}};
  JobsApi api;
  Principal owner;
};

// A job deleted after the detail's first page: the answer is cut off, never closed as a shorter
// list that looks whole.
TEST(JobsApiTest, DetailOfAJobDeletedMidwayIsCutOff) {
  ApiFixture a(ApiFixture::IssuesPage(3));
  http::HttpResponse cut = a.api.Get(a.owner, a.f.job.id);
  std::string got = cut.body;
  ASSERT_EQ(cut.body_producer(&got), http::BodyStep::kMore);
  ASSERT_TRUE(*a.f.store.Delete(a.owner.account.id, a.f.job.id));
  EXPECT_EQ(ApiFixture::ReadRest(cut, &got), http::BodyStep::kFailed);
  EXPECT_TRUE(nlohmann::json::parse(got, nullptr, false).is_discarded());
}

// The cleaned file is written from the kept upload and the fixes, and sent in parts (here of
// about 16 bytes); it reads back whole. A job deleted during the download cuts it off instead of
// ending it as if the file were complete.
TEST(JobsApiTest, CleanedFileIsWrittenInPartsAndADeletionMidwayCutsIt) {
  JobsOptions o;
  o.cleaned_part_bytes = 16;
  ApiFixture a(o);
  ASSERT_EQ(a.f.Stored().cleaned_from, kCleanedFromFixes);
  const std::string file = a.f.Cleaned();
  ASSERT_EQ(file.substr(0, 22), "sku,title\nX1,Item 1\nA2");
  http::HttpResponse whole = a.api.Cleaned(a.owner, a.f.job.id);
  ASSERT_EQ(whole.status, 200);
  ASSERT_TRUE(static_cast<bool>(whole.body_producer));
  // The first part comes as the body; the rest follow.
  EXPECT_GE(whole.body.size(), 16u);
  EXPECT_LT(whole.body.size(), file.size());
  EXPECT_EQ(whole.FullBody(), file);

  http::HttpResponse cut = a.api.Cleaned(a.owner, a.f.job.id);
  std::string got = cut.body;
  ASSERT_EQ(cut.body_producer(&got), http::BodyStep::kMore);
  ASSERT_TRUE(*a.f.store.Delete(a.owner.account.id, a.f.job.id));
  EXPECT_EQ(ApiFixture::ReadRest(cut, &got), http::BodyStep::kFailed);
  EXPECT_LT(got.size(), file.size());
  EXPECT_EQ(got, file.substr(0, got.size()));
}

// With the default part size the small file is one part, sent whole with its length.
TEST(JobsApiTest, ACleanedFileOfOnePartIsSentWhole) {
  ApiFixture a;
  http::HttpResponse r = a.api.Cleaned(a.owner, a.f.job.id);
  ASSERT_EQ(r.status, 200);
  EXPECT_FALSE(static_cast<bool>(r.body_producer));
  EXPECT_EQ(r.body, a.f.Cleaned());
}

// A job finished by an earlier version kept its cleaned file whole, in pieces: that file is what
// the download sends, piece by piece, until the job expires.
TEST(JobsApiTest, ACleanedFileStoredWholeByAnEarlierVersionIsSentAsStored) {
  ApiFixture a;
  a.f.store.add_stored_cleaned_piece(a.f.job.id, "sku,title\r\n");
  a.f.store.add_stored_cleaned_piece(a.f.job.id, "OLD1,Item 1\r\n");
  a.f.store.add_stored_cleaned_piece(a.f.job.id, "OLD2,Item 2\r\n");
  http::HttpResponse r = a.api.Cleaned(a.owner, a.f.job.id);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "sku,title\r\n");
  EXPECT_EQ(r.FullBody(), "sku,title\r\nOLD1,Item 1\r\nOLD2,Item 2\r\n");
}

// The detail is written page by page (here 3 issues a page) and reads back whole; the summary and
// delete answer from the same store.
TEST(JobsApiTest, DetailStreamsInPagesSummaryAndDelete) {
  ApiFixture a(ApiFixture::IssuesPage(3));
  http::HttpResponse r = a.api.Get(a.owner, a.f.job.id);
  ASSERT_EQ(r.status, 200);
  EXPECT_TRUE(static_cast<bool>(r.body_producer));
  auto detail = nlohmann::json::parse(r.FullBody());
  ASSERT_EQ(detail["issues"].size(), 7u);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(detail["issues"][i]["id"], i + 1);
  EXPECT_EQ(detail["issues_truncated"], false);
  auto summary = nlohmann::json::parse(a.api.Summary(a.owner, a.f.job.id).body);
  EXPECT_EQ(summary["rows_total"], kRows);
  EXPECT_EQ(summary["by_code"].size(), 2u);
  EXPECT_EQ(a.api.Get(a.owner, "not-a-job").status, 404);
  Principal other;
  other.account.id = "acct_2";
  EXPECT_EQ(a.api.Delete(other, a.f.job.id).status, 404);
  EXPECT_EQ(a.api.Delete(a.owner, a.f.job.id).status, 204);
  EXPECT_EQ(a.api.Get(a.owner, a.f.job.id).status, 404);
  EXPECT_EQ(a.f.store.keys_of(a.f.job.id), 0u);
}

// While the downloads in progress hold their memory bound (DQ_DOWNLOAD_MEMORY_BYTES), a new
// download is refused with 503 and Retry-After before any of it is read or built: the job is
// looked up, nothing else. A detail of one page is no download and is served. Once the
// downloads hold less, the same requests are served.
TEST(JobsApiTest, ADownloadIsRefusedBeforeAnythingIsBuiltWhileDownloadsAreFull) {
  FaultPlan plan;
  Fixture f(&plan);
  ASSERT_EQ(f.Run(), RunOutcome::kDone);
  http::DownloadLedger ledger(
      http::DownloadLimits{std::chrono::milliseconds(30000), /*memory_bytes=*/100});
  testing::InMemoryQuotaService quota{QuotaPolicy{}};
  JobsOptions o;
  o.issues_page = 3;  // the job's 7 issues take three pages: its detail is streamed
  JobsApi api(f.store, f.queue, quota, f.clock, o, &ledger);
  Principal owner;
  owner.account.id = "acct_1";
  http::HttpRequest csv_all;
  csv_all.query = {{"format", "csv"}, {"limit", "all"}};

  auto full = ledger.Open(/*now_ms=*/0, /*held_bytes=*/100, [] {});
  ASSERT_TRUE(full.has_value());
  ASSERT_TRUE(ledger.Full());
  plan.log.clear();
  for (http::HttpResponse r : {api.Cleaned(owner, f.job.id), api.Get(owner, f.job.id),
                               api.IssuesPage(csv_all, owner, f.job.id)}) {
    EXPECT_EQ(r.status, 503);
    auto body = nlohmann::json::parse(r.body);
    EXPECT_EQ(body["error"], "service_unavailable");
    EXPECT_EQ(body["message"], "Too many downloads are in progress; try again in a moment.");
    ASSERT_NE(r.FindHeader("Retry-After"), nullptr);
    EXPECT_FALSE(static_cast<bool>(r.body_producer));
  }
  EXPECT_EQ(plan.log, (std::vector<std::string>{"store.get", "store.get", "store.get"}));

  ledger.Close(*full);
  EXPECT_FALSE(ledger.Full());
  EXPECT_EQ(api.Cleaned(owner, f.job.id).FullBody(), f.Cleaned());
  http::HttpResponse detail = api.Get(owner, f.job.id);
  ASSERT_EQ(detail.status, 200);
  EXPECT_EQ(nlohmann::json::parse(detail.FullBody())["issues"].size(), 7u);
  EXPECT_EQ(api.IssuesPage(csv_all, owner, f.job.id).status, 200);
}

TEST(JobRunnerTest, HeartbeatTouchesOwnEntriesAndNeverStealsOthers) {
  Fixture f;
  Heartbeats mine(f.queue);
  auto lost = mine.Add("w1", f.entry.entry_id);
  EXPECT_EQ(mine.Beat(), 1);
  EXPECT_FALSE(lost->load());
  f.queue.TakeOver(f.entry.entry_id, "w2");  // w1 went silent; w2 reclaimed the entry
  EXPECT_EQ(mine.Beat(), 0);
  EXPECT_TRUE(lost->load());
  // The entry stays w2's: w1's heartbeat did not take it back.
  Heartbeats theirs(f.queue);
  auto still = theirs.Add("w2", f.entry.entry_id);
  EXPECT_EQ(theirs.Beat(), 1);
  EXPECT_FALSE(still->load());
}

TEST(JobRunnerTest, LostEntryStopsTheAttemptWithoutWriting) {
  Fixture f;
  f.lost = true;
  EXPECT_EQ(f.Run(), RunOutcome::kSuperseded);
  EXPECT_EQ(JobStatusName(f.Stored().status), "processing");
  EXPECT_TRUE(f.Issues().empty());
  EXPECT_TRUE(f.events.records.empty());
  EXPECT_EQ(f.queue.pending(), 1u);  // not acknowledged: the new owner finishes it
}

TEST(JobRunnerTest, StaleClaimIsFencedOut) {
  Fixture f;
  // Mid-stream, another worker claims the job (this one was presumed dead).
  bool claimed = false;
  f.validator = FakeValidatorStreamFactory([&](uint64_t row, const validator::v1::Row& v) {
    if (row == 5 && !claimed) {
      claimed = true;
      EXPECT_EQ(f.store.ClaimJob("acct_1", f.job.id, "now")->kind, ClaimKind::kRun);
    }
    return IssuesFor(row, v);
  });
  EXPECT_EQ(f.Run(), RunOutcome::kSuperseded);
  EXPECT_TRUE(f.events.records.empty());
  EXPECT_EQ(f.Stored().attempts, 2);
  EXPECT_TRUE(f.Issues().empty());  // the newer claim dropped the output; the stale one wrote none
  EXPECT_EQ(f.queue.pending(), 1u);
}

// A failover loses worker A's claim (replication is asynchronous), so worker B's claim on the
// new master counts the same attempt number. The claim id, not the number, is the token: A's
// writes are refused, B's run ends done with the output of one attempt.
TEST(JobRunnerTest, AReissuedAttemptNumberIsFencedOut) {
  Fixture f;
  bool failed_over = false;
  std::string b_claim;
  f.validator = FakeValidatorStreamFactory([&](uint64_t row, const validator::v1::Row& v) {
    if (row == 5 && !failed_over) {
      failed_over = true;
      EXPECT_EQ(f.Stored().attempts, 1);
      f.store.LoseLastClaim(f.job.id);
      auto b = f.store.ClaimJob("acct_1", f.job.id, "now");
      EXPECT_EQ(b->kind, ClaimKind::kRun);
      EXPECT_EQ(b->job.attempts, 1);  // the number A holds
      b_claim = b->job.claim_id;
    }
    return IssuesFor(row, v);
  });
  EXPECT_EQ(f.Run(), RunOutcome::kSuperseded);
  EXPECT_TRUE(f.events.records.empty());
  const Job after_a = f.Stored();
  EXPECT_EQ(JobStatusName(after_a.status), "processing");
  EXPECT_EQ(after_a.claim_id, b_claim);
  EXPECT_EQ(after_a.rows_done, 0);
  EXPECT_TRUE(f.Issues().empty());  // A wrote nothing after B's claim

  // B (a fresh run of the same entry) ends the job as a run without the failover would.
  Fixture clean;
  ASSERT_EQ(clean.Run(), RunOutcome::kDone);
  EXPECT_EQ(f.Run(), RunOutcome::kDone);
  EXPECT_EQ(f.Issues(), clean.Issues());
  EXPECT_EQ(f.Cleaned(), clean.Cleaned());
  EXPECT_EQ(f.events.records.size(), 1u);
}

TEST(JobRunnerTest, ValidatorFailureMidStreamPostponesThenCompletes) {
  FaultPlan plan;
  Fixture clean;
  ASSERT_EQ(clean.Run(), RunOutcome::kDone);
  FaultPlan count;
  Fixture counted(&count);
  ASSERT_EQ(counted.Run(), RunOutcome::kDone);
  // The second answer of the stream: rows 1-3 are stored, rows 4-6 are lost.
  int receives = 0;
  for (size_t i = 0; i < count.log.size() && plan.fail_at == 0; ++i) {
    if (count.log[i] == "validator.receive" && ++receives == 2) plan.fail_at = static_cast<int>(i) + 1;
  }
  ASSERT_GT(plan.fail_at, 0);
  Fixture f(&plan);
  EXPECT_EQ(f.Run(), RunOutcome::kRetryLater);
  EXPECT_EQ(JobStatusName(f.Stored().status), "queued");
  EXPECT_EQ(f.validator.cancelled, 1);
  EXPECT_EQ(f.Run(), RunOutcome::kDone);
  EXPECT_EQ(f.Stored().attempts, 2);
  EXPECT_EQ(f.Issues(), clean.Issues());
  EXPECT_EQ(f.Cleaned(), clean.Cleaned());
  EXPECT_EQ(f.events.records.size(), 1u);
}

TEST(JobRunnerTest, ValidatorRefusalFailsTheJobAndRefundsOnce) {
  Fixture f;
  f.validator.refuse = true;
  EXPECT_EQ(f.Run(), RunOutcome::kFailed);
  EXPECT_EQ(JobStatusName(f.Stored().status), "failed");
  EXPECT_EQ(f.Stored().error, "validator refused the chunk");
  EXPECT_EQ(f.store.refunded_records(), kRows);
  ASSERT_EQ(f.events.records.size(), 1u);
  EXPECT_EQ(events::DecodeJobComplete(f.events.records[0].payload)->status, "failed");
  EXPECT_EQ(f.Run(), RunOutcome::kAlreadyFinished);  // a stray redelivery changes nothing
  EXPECT_EQ(f.store.refunded_records(), kRows);
}

TEST(JobRunnerTest, AValidatorThatCheckedFewerRowsFailsTheJobInsteadOfHidingIt) {
  Fixture f;
  f.validator.lose_rows = 1;
  EXPECT_EQ(f.Run(), RunOutcome::kFailed);
  EXPECT_EQ(JobStatusName(f.Stored().status), "failed");
  EXPECT_NE(f.Stored().error.find("checked " + std::to_string(kRows - 1) + " of the file's " +
                                  std::to_string(kRows) + " rows"),
            std::string::npos)
      << f.Stored().error;
  EXPECT_EQ(f.store.refunded_records(), kRows);
}

TEST(JobRunnerTest, PublishFailureIsRepairedByTheNextAttempt) {
  FaultPlan plan;
  Fixture f(&plan);
  // Find the publish step of a clean run.
  FaultPlan count;
  Fixture counted(&count);
  ASSERT_EQ(counted.Run(), RunOutcome::kDone);
  const auto at = std::find(count.log.begin(), count.log.end(), "events.publish");
  ASSERT_NE(at, count.log.end());
  plan.fail_at = static_cast<int>(at - count.log.begin()) + 1;
  EXPECT_EQ(f.Run(), RunOutcome::kRetryLater);
  EXPECT_EQ(JobStatusName(f.Stored().status), "done");
  EXPECT_FALSE(f.Stored().event_published);
  EXPECT_TRUE(f.events.records.empty());
  EXPECT_EQ(f.Run(), RunOutcome::kAlreadyFinished);
  EXPECT_EQ(f.events.records.size(), 1u);
  EXPECT_TRUE(f.Stored().event_published);
  EXPECT_EQ(f.Stored().attempts, 1);  // not run again, only published
}

// The acknowledgement and the published mark are bookkeeping: a failed one costs nothing now (a
// later claim redoes it), but each is logged and counted, never dropped silently.
TEST(JobRunnerTest, FailedAckAndPublishedMarkAreCountedAndRedoneByTheNextClaim) {
  FaultPlan count;
  Fixture counted(&count);
  ASSERT_EQ(counted.Run(), RunOutcome::kDone);
  EXPECT_NE(counted.registry.Render().find("dq_jobs_total{status=\"done\"} 1\n"),
            std::string::npos);
  EXPECT_EQ(counted.registry.Render().find("dq_job_bookkeeping_errors_total"), std::string::npos);
  for (const std::string step : {"mark_published", "queue.ack"}) {
    SCOPED_TRACE(step);
    const auto at = std::find_if(count.log.begin(), count.log.end(),
                                 [&](const std::string& s) { return s.ends_with(step); });
    ASSERT_NE(at, count.log.end());
    FaultPlan plan;
    plan.fail_at = static_cast<int>(at - count.log.begin()) + 1;
    Fixture f(&plan);
    EXPECT_EQ(f.Run(), RunOutcome::kDone);
    const std::string label = step == "queue.ack" ? "ack" : "mark_published";
    EXPECT_NE(f.registry.Render().find("dq_job_bookkeeping_errors_total{step=\"" + label +
                                       "\"} 1\n"),
              std::string::npos)
        << f.registry.Render();
    // The entry stays pending (lost ack) or the job unmarked (lost mark): the next claim of the
    // entry finds the job finished, publishes again if unmarked, and acknowledges it.
    EXPECT_EQ(f.Run(), RunOutcome::kAlreadyFinished);
    EXPECT_TRUE(f.Stored().event_published);
    EXPECT_EQ(f.queue.pending(), 0u);
  }
}

TEST(JobRunnerTest, MaxAttemptsFailsTheJob) {
  RunnerOptions o = Fixture::Defaults();
  o.max_attempts = 1;
  Fixture f(nullptr, o);
  // An attempt whose worker died: claimed, never heard of again.
  ASSERT_EQ(f.store.ClaimJob(f.job.account_id, f.job.id, "2026-11-23T00:00:00.000Z")->kind,
            ClaimKind::kRun);
  EXPECT_EQ(f.Run(), RunOutcome::kFailed);
  EXPECT_EQ(f.Stored().error, "The job could not be completed after 1 attempts.");
  EXPECT_EQ(f.store.refunded_records(), kRows);
  EXPECT_EQ(f.events.records.size(), 1u);
}

// A validator restart interrupts every job it was checking; none of them may lose an attempt
// to it (the chaos test once failed a job that way: three worker kills and one validator stop
// used up five attempts).
TEST(JobRunnerTest, PostponedAttemptsDoNotCountAgainstMaxAttempts) {
  RunnerOptions o = Fixture::Defaults();
  o.max_attempts = 1;
  Fixture f(nullptr, o);
  f.validator.down = true;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(f.Run(), RunOutcome::kRetryLater);
  EXPECT_EQ(JobStatusName(f.Stored().status), "queued");
  EXPECT_EQ(f.Stored().postponed, 3);
  f.validator.down = false;
  EXPECT_EQ(f.Run(), RunOutcome::kDone);
  EXPECT_EQ(f.Stored().attempts, 4);
  EXPECT_EQ(f.events.records.size(), 1u);
}

TEST(JobRunnerTest, AJobPostponedTooOftenFailsWithTheReason) {
  RunnerOptions o = Fixture::Defaults();
  o.max_postponed = 2;
  Fixture f(nullptr, o);
  f.validator.down = true;
  EXPECT_EQ(f.Run(), RunOutcome::kRetryLater);
  EXPECT_EQ(f.Run(), RunOutcome::kRetryLater);
  EXPECT_EQ(f.Run(), RunOutcome::kRetryLater);
  EXPECT_EQ(f.Run(), RunOutcome::kFailed);
  EXPECT_EQ(f.Stored().error,
            "The job could not be completed: the validator or the store was unavailable in 3 "
            "attempts.");
  EXPECT_EQ(f.store.refunded_records(), kRows);
  EXPECT_EQ(f.events.records.size(), 1u);
}

TEST(JobRunnerTest, DeletedWhileRunningStopsWritesNothingAndSendsNoEvent) {
  Fixture f;
  int64_t rows_done_then = -1;
  f.validator = FakeValidatorStreamFactory([&](uint64_t row, const validator::v1::Row& v) {
    if (row == 8) {
      rows_done_then = f.Stored().rows_done;
      EXPECT_TRUE(*f.store.Delete("acct_1", f.job.id));
    }
    return IssuesFor(row, v);
  });
  EXPECT_EQ(f.Run(), RunOutcome::kCancelled);
  EXPECT_FALSE(f.store.job(f.job.id).has_value());
  EXPECT_EQ(f.store.keys_of(f.job.id), 0u);
  EXPECT_TRUE(f.events.records.empty());
  EXPECT_EQ(f.queue.pending(), 0u);
  EXPECT_EQ(rows_done_then, 3);  // rows 1-3 were stored before the delete
  EXPECT_EQ(f.store.refunded_records(), kRows - 3);
}

TEST(JobRunnerTest, DeletedBeforeClaimIsAcknowledged) {
  Fixture f;
  ASSERT_TRUE(*f.store.Delete("acct_1", f.job.id));
  EXPECT_EQ(f.store.refunded_records(), kRows);
  EXPECT_EQ(f.Run(), RunOutcome::kGone);
  EXPECT_EQ(f.queue.pending(), 0u);
  EXPECT_TRUE(f.events.records.empty());
}

TEST(JobRunnerTest, UnacceptedJobWaitsThenIsAbandonedWithItsQuota) {
  Fixture f;
  Job other = f.job;
  other.id = "1b6f7a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b";
  const std::string file = File();
  gateway::UploadPieces upload({file}, /*helpers=*/0);
  ASSERT_TRUE(f.store.Create(other, upload).ok());
  ASSERT_TRUE(f.queue.Enqueue(other.account_id, other.id).ok());
  QueueEntry e = **f.queue.Next("w1", std::chrono::milliseconds(0));
  EXPECT_EQ(f.runner.Run(e, f.lost), RunOutcome::kNotAccepted);
  EXPECT_EQ(f.queue.pending(), 2u);
  f.clock.Advance(std::chrono::minutes(3));
  EXPECT_EQ(f.runner.Run(e, f.lost), RunOutcome::kAbandoned);
  EXPECT_FALSE(f.store.job(other.id).has_value());
  EXPECT_EQ(f.store.refunded_records(), kRows);
  EXPECT_EQ(f.queue.pending(), 1u);
  EXPECT_TRUE(f.events.records.empty());
}

// Every step of a clean run, failed once (before it acts, then after it acted with its answer
// lost): the job still ends done with the clean run's issues and cleaned file, its event is
// published (duplicates carry the same delivery id), nothing is refunded, the entry is acked.
// For CSV (the cleaned file written from the fixes) and XLSX (the workbook stored whole).
TEST(JobRunnerTest, EveryStepFailedOnceStillEndsDoneExactlyOnce) {
  for (auto format : {ingest::FileFormat::kCsv, ingest::FileFormat::kXlsx}) {
  SCOPED_TRACE(std::string(ingest::FormatName(format)));
  const RunnerOptions o = Fixture::Defaults();
  Fixture clean(nullptr, o, format);
  FaultPlan count;
  Fixture counted(&count, o, format);
  ASSERT_EQ(counted.Run(), RunOutcome::kDone);
  ASSERT_EQ(clean.Run(), RunOutcome::kDone);
  ASSERT_GT(clean.Cleaned().size(), 100u);
  if (format == ingest::FileFormat::kXlsx) {  // the workbook's own steps are in the sweep
    ASSERT_NE(std::find(count.log.begin(), count.log.end(), "store.write_cleaned"), count.log.end());
  }
  const int steps = count.steps;
  ASSERT_GT(steps, 15);
  for (bool after : {false, true}) {
    for (int n = 1; n <= steps; ++n) {
      SCOPED_TRACE("step " + std::to_string(n) + " (" + count.log[n - 1] + ")" +
                   (after ? " after" : " before"));
      FaultPlan plan;
      plan.fail_at = n;
      plan.after = after;
      Fixture f(&plan, o, format);
      RunOutcome end = f.RunToEnd();
      // An entry whose ack was lost is taken again after the claim timeout.
      if (f.queue.pending() != 0) end = f.RunToEnd();
      EXPECT_TRUE(end == RunOutcome::kDone || end == RunOutcome::kAlreadyFinished)
          << RunOutcomeName(end);
      EXPECT_EQ(plan.steps >= n, true);
      EXPECT_EQ(JobStatusName(f.Stored().status), "done");
      EXPECT_EQ(f.Issues(), clean.Issues());
      EXPECT_EQ(f.Cleaned(), clean.Cleaned());
      EXPECT_EQ(*f.store.Summary(f.Stored()), *clean.store.Summary(clean.Stored()));
      ASSERT_GE(f.events.records.size(), 1u);
      for (const auto& r : f.events.records) EXPECT_EQ(r.delivery_id, f.job.id);
      EXPECT_LE(f.events.records.size(), 2u);
      EXPECT_EQ(f.store.refunded_records(), 0);
      EXPECT_EQ(f.queue.pending(), 0u);
    }
  }
  }
}

// However many chunks are in flight and however the output is grouped into writes, the job ends
// with the same issues (same ids, same order), cleaned file and summary.
TEST(JobRunnerTest, DepthAndWriteGroupingDoNotChangeTheOutput) {
  Fixture reference;
  ASSERT_EQ(reference.Run(), RunOutcome::kDone);
  for (size_t depth : {1u, 3u, 4u, 8u}) {
    // Writes due by fix bytes, by rows, or only at the end.
    for (auto [fix_bytes, rows] : {std::pair<size_t, int64_t>{4, 1 << 20}, {16, 3},
                                   {1 << 20, 1 << 20}}) {
      SCOPED_TRACE("depth " + std::to_string(depth) + ", fix bytes " + std::to_string(fix_bytes) +
                   ", rows " + std::to_string(rows));
      RunnerOptions o = Fixture::Defaults();
      o.chunks_in_flight = depth;
      o.output.fix_piece_bytes = fix_bytes;
      o.output.write_rows = rows;
      Fixture f(nullptr, o);
      ASSERT_EQ(f.Run(), RunOutcome::kDone);
      EXPECT_EQ(f.Issues(), reference.Issues());
      EXPECT_EQ(f.Cleaned(), reference.Cleaned());
      EXPECT_EQ(*f.store.Summary(f.Stored()), *reference.store.Summary(reference.Stored()));
      EXPECT_EQ(f.Stored().rows_done, kRows);
      EXPECT_EQ(f.Stored().issues, 7);
    }
  }
}

// The batch-level issues (after the last chunk) name their rows' items: from the names kept as
// the rows were sent, or, past the budget for them, from the file read again; either way the
// same issues, in the same order, with the same names.
TEST(JobRunnerTest, TailIssuesAreNamedAlikeFromKeptNamesAndFromTheFileReadAgain) {
  auto run = [](size_t kept_names_bytes) {
    RunnerOptions o = Fixture::Defaults();
    o.output.kept_names_bytes = kept_names_bytes;
    Fixture f(nullptr, o);
    for (uint64_t row : {8, 2, 8}) {
      validator::v1::Issue i;
      i.set_row(row);
      i.set_severity(validator::v1::SEVERITY_WARNING);
      i.set_field("sku");
      i.set_code("sku_duplicate");
      f.validator.tail_issues.push_back(i);
    }
    EXPECT_EQ(f.Run(), RunOutcome::kDone);
    return f.Issues();
  };
  const std::vector<std::string> kept = run(OutputOptions{}.kept_names_bytes);
  const std::vector<std::string> read_again = run(0);
  EXPECT_EQ(kept, read_again);
  ASSERT_EQ(kept.size(), 10u);  // the chunks' 7, then the tail's 3 as the validator sent them
  EXPECT_NE(kept[7].find(R"("sku":"A8")"), std::string::npos) << kept[7];
  EXPECT_NE(kept[8].find(R"("sku":"A2")"), std::string::npos) << kept[8];
  EXPECT_NE(kept[9].find(R"("sku":"A8")"), std::string::npos) << kept[9];
}

// With large limits nothing is due before the end: the whole output goes in the final, fenced
// write, one store step instead of one per chunk.
TEST(JobRunnerTest, SmallOutputIsStoredInOneFinalWrite) {
  RunnerOptions o = Fixture::Defaults();
  o.output.fix_piece_bytes = 1 << 20;
  o.output.write_rows = 1 << 20;
  FaultPlan count;
  Fixture f(&count, o);
  ASSERT_EQ(f.Run(), RunOutcome::kDone);
  EXPECT_EQ(std::count(count.log.begin(), count.log.end(), "store.write"), 0);
  EXPECT_EQ(std::count(count.log.begin(), count.log.end(), "store.finish"), 1);
  EXPECT_EQ(f.Issues().size(), 7u);
  // Many issues make a write due even with large pieces.
  o.output.write_issues = 2;
  FaultPlan count2;
  Fixture g(&count2, o);
  ASSERT_EQ(g.Run(), RunOutcome::kDone);
  EXPECT_GT(std::count(count2.log.begin(), count2.log.end(), "store.write"), 0);
  EXPECT_EQ(g.Issues(), f.Issues());
}

// Four chunks in flight: the validator has seen rows of later chunks before the first answer is
// stored (the fake answers at Send).
TEST(JobRunnerTest, SeveralChunksAreInFlightBeforeTheFirstWrite) {
  RunnerOptions o = Fixture::Defaults();
  o.chunks_in_flight = 4;
  Fixture f(nullptr, o);
  int64_t rows_done_at_row_10 = -1;
  f.validator = FakeValidatorStreamFactory([&](uint64_t row, const validator::v1::Row& v) {
    if (row == 10) rows_done_at_row_10 = f.Stored().rows_done;
    return IssuesFor(row, v);
  });
  ASSERT_EQ(f.Run(), RunOutcome::kDone);
  EXPECT_EQ(rows_done_at_row_10, 0);  // chunks 1-4 (rows 1-10) all sent before any answer
  EXPECT_EQ(f.Stored().rows_done, kRows);
}

}  // namespace
}  // namespace dq::gateway
