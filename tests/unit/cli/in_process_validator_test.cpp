// The in-process validator stream against StreamValidation driven one chunk at a time (what the
// validator's RPC answers): the same messages byte for byte, with several chunks in flight and
// any pool size; the tail in the validator's order; bad input a sticky kInvalidRequest.
#include "in_process_validator.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace dq::offline {
namespace {

namespace v1 = validator::v1;

v1::BatchSpec Spec() {
  v1::BatchSpec spec;
  for (const char* f : {"sku", "price", "email", "expiry_date"}) spec.add_fields(f);
  for (const char* c : {"product", "price", "customer", "inventory"}) spec.add_check_types(c);
  return spec;
}

// Chunks with duplicate SKUs, price outliers (found over the whole batch), fixes and dates.
std::vector<v1::RowChunk> Chunks(size_t rows, size_t per_chunk) {
  std::mt19937_64 rng(7);
  auto pick = [&](size_t k) { return static_cast<size_t>(rng() % k); };
  std::vector<v1::RowChunk> chunks;
  for (size_t i = 0; i < rows; ++i) {
    if (i % per_chunk == 0) chunks.emplace_back();
    v1::Row* row = chunks.back().add_rows();
    row->add_values("SKU-" + std::to_string(pick(10) ? i : pick(i + 1)));
    row->add_values(pick(4) ? std::to_string(10 + pick(20)) + ".99"
                            : (pick(10) ? " 12,50 " : "4999"));  // outliers: batch-level
    row->add_values(pick(3) ? "u" + std::to_string(pick(rows)) + "@Example.com" : "");
    row->add_values(pick(5) ? "" : (pick(2) ? "03/04/2027" : "2027-04-03"));
  }
  return chunks;
}

// What the validator's call answers: each chunk ended before the next begins, then the tail.
std::vector<std::string> Reference(const std::vector<v1::RowChunk>& chunks) {
  auto call = validator::rpc::StreamValidation::Start(validator::ReferenceData::Default(), Spec(),
                                                      nullptr);
  EXPECT_TRUE(call.ok());
  std::vector<std::string> out;
  v1::IssueChunk answer;
  for (const v1::RowChunk& chunk : chunks) {
    EXPECT_TRUE((*call)->Begin(chunk).ok());
    (*call)->End(&answer);
    out.push_back(answer.SerializeAsString());
  }
  v1::ValidateStreamResponse issues, stats;
  (*call)->Finish(issues.mutable_issues(), stats.mutable_stats());
  out.push_back(issues.SerializeAsString());
  out.push_back(stats.SerializeAsString());
  return out;
}

// The same through the stream, `in_flight` chunks sent before the first is received, the message
// reused between sends as the job runner does.
std::vector<std::string> Streamed(const std::vector<v1::RowChunk>& chunks, size_t in_flight,
                                  validator::WorkerPool* pool, size_t* observed = nullptr) {
  StreamObserver observer;
  size_t seen = 0;
  observer.issue = [&](const v1::Issue&) { ++seen; };
  InProcessValidatorFactory factory(pool, observer);
  auto stream = factory.Open();
  EXPECT_TRUE(stream->Start(Spec()).ok());
  std::vector<std::string> out;
  v1::RowChunk reused;
  v1::IssueChunk answer;
  size_t sent = 0, received = 0;
  while (received < chunks.size()) {
    while (sent < chunks.size() && sent - received < in_flight) {
      reused = chunks[sent++];
      EXPECT_TRUE(stream->Send(reused).ok());
      reused.Clear();  // the stream must not read the caller's message after Send
    }
    EXPECT_TRUE(stream->Receive(&answer).ok());
    out.push_back(answer.SerializeAsString());
    ++received;
  }
  EXPECT_TRUE(stream->WritesDone().ok());
  v1::ValidateStreamResponse tail;
  for (int k = 0; k < 2; ++k) {
    auto more = stream->Tail(&tail);
    EXPECT_TRUE(more.ok() && *more);
    out.push_back(tail.SerializeAsString());
  }
  auto end = stream->Tail(&tail);
  EXPECT_TRUE(end.ok() && !*end);
  if (observed != nullptr) *observed = seen;
  return out;
}

TEST(InProcessValidatorTest, AnswersAreTheValidatorsWhateverTheChunksInFlightAndThePool) {
  const auto chunks = Chunks(3000, 257);
  const auto reference = Reference(chunks);
  ASSERT_EQ(reference.size(), chunks.size() + 2);
  validator::WorkerPool three(3);
  for (size_t in_flight : {1u, 2u, 4u, 20u}) {
    for (validator::WorkerPool* pool : {static_cast<validator::WorkerPool*>(nullptr), &three}) {
      EXPECT_EQ(Streamed(chunks, in_flight, pool), reference)
          << in_flight << " in flight, " << (pool ? 3 : 1) << " threads";
    }
  }
}

TEST(InProcessValidatorTest, TheTailIsTheBatchIssuesThenTheStatsAndTheObserverSeesEveryIssue) {
  const auto chunks = Chunks(600, 100);
  size_t observed = 0;
  const auto answers = Streamed(chunks, 4, nullptr, &observed);
  v1::ValidateStreamResponse issues, stats;
  ASSERT_TRUE(issues.ParseFromString(answers[answers.size() - 2]));
  ASSERT_TRUE(stats.ParseFromString(answers.back()));
  ASSERT_TRUE(issues.has_issues());
  EXPECT_GT(issues.issues().issues_size(), 0);  // price outliers are found over the batch
  ASSERT_TRUE(stats.has_stats());
  EXPECT_EQ(stats.stats().rows(), 600u);
  EXPECT_EQ(observed, stats.stats().errors() + stats.stats().warnings());
}

TEST(InProcessValidatorTest, ABadChunkIsTheValidatorsErrorAndStaysSo) {
  InProcessValidatorFactory factory(nullptr);
  auto stream = factory.Open();
  ASSERT_TRUE(stream->Start(Spec()).ok());
  v1::RowChunk bad;
  bad.add_rows()->add_values("only one value");
  Status s = stream->Send(bad);
  EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(s.message(), "row 1 has 1 values for 4 fields");
  v1::IssueChunk answer;
  EXPECT_EQ(stream->Receive(&answer).message(), s.message());
  EXPECT_EQ(stream->WritesDone().message(), s.message());
  stream->Cancel();
}

TEST(InProcessValidatorTest, ASpecTheValidatorRefusesIsRefusedAtStart) {
  InProcessValidatorFactory factory(nullptr);
  auto stream = factory.Open();
  v1::BatchSpec spec = Spec();
  spec.set_weight_unit("stone");
  EXPECT_EQ(stream->Start(spec).code(), ErrorCode::kInvalidRequest);
}

TEST(InProcessValidatorTest, CancellingWithChunksInFlightEndsThemFirst) {
  const auto chunks = Chunks(2000, 500);
  validator::WorkerPool pool(3);
  InProcessValidatorFactory factory(&pool);
  auto stream = factory.Open();
  ASSERT_TRUE(stream->Start(Spec()).ok());
  for (const auto& c : chunks) ASSERT_TRUE(stream->Send(c).ok());
  stream->Cancel();  // with chunks begun on the pool: must not leave them reading freed rows
  stream.reset();
}

}  // namespace
}  // namespace dq::offline
