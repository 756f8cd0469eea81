// StreamValidation, the logic behind ValidateStream, driven with v1 messages and no server: the
// answers are byte-identical whatever the pool's size, chunks are checked before they are
// evaluated, and bad input is an error naming the row.
#include "rpc/stream_validation.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace dq::validator::rpc {
namespace {

v1::BatchSpec Spec() {
  v1::BatchSpec spec;
  for (const char* f : {"sku", "price", "category", "email", "phone", "expiry_date"}) {
    spec.add_fields(f);
  }
  for (const char* c : {"product", "price", "customer", "inventory"}) spec.add_check_types(c);
  return spec;
}

// Chunks of rows with duplicate SKUs and e-mails spread over the whole stream, price outliers
// and ambiguous dates.
std::vector<v1::RowChunk> Chunks(size_t rows, size_t per_chunk, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](size_t k) { return static_cast<size_t>(rng() % k); };
  std::vector<v1::RowChunk> chunks;
  for (size_t i = 0; i < rows; ++i) {
    if (i % per_chunk == 0) chunks.emplace_back();
    v1::Row* row = chunks.back().add_rows();
    row->add_values("SKU-" + std::to_string(pick(10) ? i : pick(i + 1)));
    row->add_values(pick(50) ? std::to_string(10 + pick(20)) + ".99" : "4999");
    row->add_values(pick(2) ? "Mugs" : "Lamps");
    std::string email;
    if (pick(3)) email.append("u").append(std::to_string(pick(rows))).append("@gmail.com");
    row->add_values(email);
    row->add_values(pick(2) ? "+49 30 9018" + std::to_string(10 + pick(80)) : "");
    row->add_values(pick(5) ? "" : (pick(2) ? "03/04/2027" : "2027-04-03"));
  }
  return chunks;
}

// Every message the call would write, serialized.
std::vector<std::string> Answers(const std::vector<v1::RowChunk>& chunks, WorkerPool* pool) {
  auto call = StreamValidation::Start(ReferenceData::Default(), Spec(), pool);
  EXPECT_TRUE(call.ok());
  std::vector<std::string> out;
  v1::IssueChunk answer;
  for (const v1::RowChunk& chunk : chunks) {
    EXPECT_TRUE((*call)->Begin(chunk).ok());
    (*call)->End(&answer);
    out.push_back(answer.SerializeAsString());
  }
  v1::Stats stats;
  (*call)->Finish(&answer, &stats);
  out.push_back(answer.SerializeAsString());
  out.push_back(stats.SerializeAsString());
  return out;
}

TEST(StreamValidation, AnswersAreByteIdenticalOnAnyNumberOfThreads) {
  const auto chunks = Chunks(30000, 4096, 17);
  const auto one = Answers(chunks, nullptr);
  v1::IssueChunk first;
  ASSERT_TRUE(first.ParseFromString(one[1]));
  ASSERT_GT(first.issues_size(), 100);  // the second chunk has duplicates of the first
  bool reaches_back = false;            // a duplicate in chunk 2 of a row in chunk 1
  const std::string prefix = "SKU is already used by row ";
  for (const v1::Issue& i : first.issues()) {
    if (i.code() == "DUPLICATE_SKU" && i.message().rfind(prefix, 0) == 0) {
      reaches_back |= std::stoull(i.message().substr(prefix.size())) <= 4096;
    }
  }
  EXPECT_TRUE(reaches_back);
  v1::IssueChunk tail;
  ASSERT_TRUE(tail.ParseFromString(one[one.size() - 2]));
  EXPECT_GT(tail.issues_size(), 100);  // price outliers
  for (size_t threads : {1u, 2u, 4u}) {
    WorkerPool pool(threads);
    EXPECT_EQ(Answers(chunks, &pool), one) << threads << " threads";
  }
}

TEST(StreamValidation, RowsDoneCountsEveryChunk) {
  WorkerPool pool(2);
  auto call = StreamValidation::Start(ReferenceData::Default(), Spec(), &pool);
  ASSERT_TRUE(call.ok());
  v1::IssueChunk answer;
  uint64_t done = 0;
  for (const auto& chunk : Chunks(1000, 300, 3)) {
    ASSERT_TRUE((*call)->Begin(chunk).ok());
    (*call)->End(&answer);
    done += static_cast<uint64_t>(chunk.rows_size());
    EXPECT_EQ(answer.rows_done(), done);
  }
}

TEST(StreamValidation, AWrongValueCountIsAnErrorNamingTheRowAcrossChunks) {
  WorkerPool pool(2);
  auto call = StreamValidation::Start(ReferenceData::Default(), Spec(), &pool);
  ASSERT_TRUE(call.ok());
  auto chunks = Chunks(250, 100, 5);
  chunks[2].mutable_rows(7)->add_values("extra");
  v1::IssueChunk answer;
  for (int k = 0; k < 2; ++k) {
    ASSERT_TRUE((*call)->Begin(chunks[static_cast<size_t>(k)]).ok());
    (*call)->End(&answer);
  }
  const Status s = (*call)->Begin(chunks[2]);
  EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(s.message(), "row 208 has 7 values for 6 fields");
}

TEST(StreamValidation, AValueIndexPastTheRowIsAnError) {
  v1::BatchSpec spec;
  spec.add_fields("sku");
  spec.add_fields("price");
  spec.add_value_index(0);
  spec.add_value_index(5);
  auto call = StreamValidation::Start(ReferenceData::Default(), spec, nullptr);
  ASSERT_TRUE(call.ok());
  v1::RowChunk chunk;
  for (int i = 0; i < 6; ++i) chunk.add_rows()->add_values(std::string("A"));
  const Status s = (*call)->Begin(chunk);
  EXPECT_EQ(s.message(), "row 1 has 1 values for 6 indexed values");
}

TEST(StreamValidation, AnUnknownFieldIsRejectedAtStart) {
  v1::BatchSpec spec;
  spec.add_fields("skew");
  auto call = StreamValidation::Start(ReferenceData::Default(), spec, nullptr);
  ASSERT_FALSE(call.ok());
  EXPECT_EQ(call.status().code(), ErrorCode::kInvalidRequest);
}

TEST(StreamValidation, ValidateBatchOrdersIssuesByRowWithOutliersInPlace) {
  v1::ValidateRequest request;
  *request.mutable_spec() = Spec();
  request.mutable_spec()->clear_check_types();
  request.mutable_spec()->add_check_types("price");
  for (int i = 0; i < 40; ++i) {
    v1::Row* row = request.add_rows();
    for (const char* v : {"S", i == 3 ? "9999" : "10.00", "", "", "", ""}) row->add_values(v);
  }
  v1::ValidateResponse response;
  ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), request, &response).ok());
  ASSERT_EQ(response.issues_size(), 1);
  EXPECT_EQ(response.issues(0).row(), 4u);
  EXPECT_EQ(response.issues(0).code(), "PRICE_OUTLIER_HIGH");
  EXPECT_EQ(response.stats().rows(), 40u);
}

}  // namespace
}  // namespace dq::validator::rpc
