// RunValidateStream against an in-memory stream that behaves like a client: it sends a chunk
// only while fewer than `window` of its chunks are unanswered, and half-closes only after every
// answer (as the gateway's job runner does). A reader that waited for the next chunk before
// answering the current one would deadlock here with window 1.
#include "rpc/stream_call.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

namespace dq::validator::rpc {
namespace {

class FakeClient final : public StreamIo {
 public:
  FakeClient(std::vector<v1::ValidateStreamRequest> requests, size_t window)
      : requests_(std::move(requests)), window_(window) {}

  bool Read(v1::ValidateStreamRequest* msg) override {
    std::unique_lock lock(mu_);
    // requests_[0] is the spec; chunk k (from 1) goes out once answers >= k - window. The wait
    // is bounded only so that a deadlock fails the test instead of hanging it.
    const size_t next = sent_;
    const bool ok = changed_.wait_for(lock, std::chrono::seconds(60), [&] {
      return next == 0 || next >= requests_.size() || answers_.size() + window_ >= next;
    });
    if (!ok) {
      stuck_ = true;
      return false;
    }
    if (next >= requests_.size()) return false;  // half-close after the last chunk
    *msg = requests_[next];
    ++sent_;
    return true;
  }
  bool Write(const v1::ValidateStreamResponse& msg, grpc::WriteOptions) override {
    {
      std::lock_guard lock(mu_);
      if (answers_.size() >= fail_after_) return false;  // the peer has gone
      answers_.push_back(msg.SerializeAsString());
    }
    changed_.notify_all();
    return true;
  }
  void SendInitialMetadata() override {}
  bool NextMessageSize(uint32_t* sz) override {
    *sz = 1 << 26;
    return true;
  }

  std::vector<std::string> answers() {
    std::lock_guard lock(mu_);
    return answers_;
  }
  bool stuck() {
    std::lock_guard lock(mu_);
    return stuck_;
  }
  void FailWritesAfter(size_t answers) { fail_after_ = answers; }

 private:
  std::vector<v1::ValidateStreamRequest> requests_;
  size_t window_;
  std::mutex mu_;
  std::condition_variable changed_;
  size_t sent_ = 0;
  std::vector<std::string> answers_;
  bool stuck_ = false;
  size_t fail_after_ = SIZE_MAX;
};

std::vector<v1::ValidateStreamRequest> Requests(size_t rows, size_t per_chunk) {
  std::vector<v1::ValidateStreamRequest> out(1);
  v1::BatchSpec* spec = out[0].mutable_spec();
  spec->add_fields("sku");
  spec->add_fields("price");
  for (size_t i = 0; i < rows; ++i) {
    if (i % per_chunk == 0) out.emplace_back();
    v1::Row* row = out.back().mutable_chunk()->add_rows();
    row->add_values(std::string("SKU-").append(std::to_string(i % 700)));  // repeats from chunk 2
    row->add_values(i % 97 == 0 ? "9999" : "12.50");
  }
  return out;
}

std::vector<std::string> Serve(std::vector<v1::ValidateStreamRequest> requests, size_t window,
                               WorkerPool* pool, grpc::Status* status) {
  FakeClient client(std::move(requests), window);
  uint64_t rows = 0;
  *status = RunValidateStream(
      ReferenceData::Default(), pool, &client, [] { return false; }, &rows);
  EXPECT_FALSE(client.stuck()) << "the call waited for a chunk the client holds back";
  return client.answers();
}

TEST(StreamCall, ClientsThatWaitForEachAnswerAreServedOnAnyThreadCount) {
  const auto requests = Requests(5000, 512);
  grpc::Status status;
  const auto want = Serve(requests, 1, nullptr, &status);
  ASSERT_TRUE(status.ok());
  ASSERT_EQ(want.size(), requests.size() - 1 + 2);  // one per chunk, batch issues, stats
  for (size_t threads : {1u, 2u, 3u}) {
    for (size_t window : {1u, 2u, 4u, 100u}) {
      WorkerPool pool(threads);
      EXPECT_EQ(Serve(requests, window, &pool, &status), want)
          << threads << " threads, window " << window;
      EXPECT_TRUE(status.ok());
    }
  }
}

// Expiry dates whose day/month order only a later chunk shows: the reading thread works out what
// each chunk shows while the answering one evaluates the one before, and the answers must be
// those of one thread doing everything in order.
TEST(StreamCall, DatesObservedOnTheReadingThreadGiveTheSameAnswers) {
  auto with_dates = [](bool revealing) {
    auto requests = Requests(3000, 512);
    requests[0].mutable_spec()->add_fields("expiry_date");
    requests[0].mutable_spec()->add_check_types("product");
    requests[0].mutable_spec()->add_check_types("inventory");
    size_t row = 0;
    for (size_t k = 1; k < requests.size(); ++k) {
      for (auto& r : *requests[k].mutable_chunk()->mutable_rows()) {
        r.add_values(revealing && row == 1500 ? "31/12/2028"
                     : row % 50 == 0          ? "03/04/2028"
                                              : "2028-04-01");
        ++row;
      }
    }
    return requests;
  };
  const auto requests = with_dates(true);
  grpc::Status status;
  const auto want = Serve(requests, 1, nullptr, &status);
  ASSERT_TRUE(status.ok()) << status.error_message();
  // The order shown in chunk 3 changes the answers from there on.
  ASSERT_NE(Serve(with_dates(false), 1, nullptr, &status), want);
  for (size_t threads : {2u, 3u}) {
    for (size_t window : {1u, 3u, 100u}) {
      WorkerPool pool(threads);
      EXPECT_EQ(Serve(requests, window, &pool, &status), want)
          << threads << " threads, window " << window;
      EXPECT_TRUE(status.ok());
    }
  }
}

// The peer goes away while the next chunk is already being evaluated (the answering thread
// begins it before it writes): the call ends CANCELLED, after that chunk's evaluation.
TEST(StreamCall, APeerThatGoesAwayMidStreamCancelsTheCall) {
  for (size_t fail_after : {0u, 1u, 3u}) {
    WorkerPool pool(2);
    FakeClient client(Requests(5000, 512), 100);
    client.FailWritesAfter(fail_after);
    uint64_t rows = 0;
    const grpc::Status status = RunValidateStream(
        ReferenceData::Default(), &pool, &client, [] { return false; }, &rows);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::CANCELLED) << fail_after;
    EXPECT_EQ(client.answers().size(), fail_after);
  }
}

TEST(StreamCall, ChunksBeforeABadOneAreAnsweredThenTheErrorNamesTheRow) {
  auto requests = Requests(2000, 512);
  requests[3].mutable_chunk()->mutable_rows(4)->add_values(std::string("x"));  // row 1029
  for (size_t threads : {1u, 2u}) {
    WorkerPool pool(threads);
    grpc::Status status;
    const auto answers = Serve(requests, 4, &pool, &status);
    EXPECT_EQ(answers.size(), 2u) << threads;
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(status.error_message(), "row 1029 has 3 values for 2 fields");
  }
}

TEST(StreamCall, ASecondSpecIsRefused) {
  auto requests = Requests(600, 512);
  requests[2] = requests[0];
  WorkerPool pool(2);
  grpc::Status status;
  const auto answers = Serve(requests, 1, &pool, &status);
  EXPECT_EQ(answers.size(), 1u);
  EXPECT_EQ(status.error_message(), "only RowChunk messages may follow the BatchSpec");
}

}  // namespace
}  // namespace dq::validator::rpc
