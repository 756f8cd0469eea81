// An upload's pieces compressed ahead of the store (jobs/upload_pieces.h): every piece comes back
// as its own bytes whatever thread compressed it and in whatever order it is taken, each piece
// is compressed once, helpers never run further ahead than the lead allows, and an object whose
// pieces are never taken (a refused upload) goes away without waiting for the rest.
#include "jobs/upload_pieces.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "jobs/piece_codec.h"

namespace dq::gateway {
namespace {

std::string Csv(size_t rows) {
  std::string csv = "sku,title,price\n";
  for (size_t r = 0; r < rows; ++r) {
    csv += "SKU-" + std::to_string(r) + ",Mug " + std::to_string(r * 7919 % 1000) + "," +
           std::to_string(r % 300) + ".50\n";
  }
  return csv;
}

size_t Sum(const std::vector<size_t>& v) { return std::accumulate(v.begin(), v.end(), size_t{0}); }

std::string Decompressed(const std::string& stored) {
  auto back = DecompressPiece(stored);
  EXPECT_TRUE(back.ok()) << back.status().message();
  return back.ok() ? *back : std::string();
}

TEST(UploadPiecesTest, CutsTheFileIntoPiecesOfTheGivenSize) {
  const std::string file = Csv(3000);
  UploadPieces pieces(file, 4096, /*helpers=*/0);
  ASSERT_EQ(pieces.size(), (file.size() + 4095) / 4096);
  std::string joined;
  for (size_t i = 0; i < pieces.size(); ++i) {
    EXPECT_LE(pieces.raw(i).size(), 4096u);
    joined += pieces.raw(i);
  }
  EXPECT_EQ(joined, file);
  EXPECT_EQ(UploadPieces(std::string_view(), 4096, 2).size(), 0u);
}

TEST(UploadPiecesTest, EveryPieceComesBackAsItsBytesWithAnyNumberOfHelpers) {
  const std::string file = Csv(20000);
  for (size_t helpers : {0, 1, 3}) {
    UploadPieces pieces(file, 16 * 1024, helpers);
    ASSERT_GT(pieces.size(), 20u);
    EXPECT_EQ(pieces.helpers(), helpers);
    for (size_t i = 0; i < pieces.size(); ++i) {
      EXPECT_EQ(Decompressed(pieces.TakeCompressed(i)), pieces.raw(i)) << "piece " << i;
    }
    EXPECT_EQ(Sum(pieces.CompressedBy()), pieces.size()) << helpers << " helpers";
  }
}

TEST(UploadPiecesTest, PiecesMayBeTakenInAnyOrder) {
  const std::string file = Csv(8000);
  UploadPieces pieces(file, 8 * 1024, /*helpers=*/2);
  for (size_t i = pieces.size(); i-- > 0;) {
    EXPECT_EQ(Decompressed(pieces.TakeCompressed(i)), pieces.raw(i)) << "piece " << i;
  }
  EXPECT_EQ(Sum(pieces.CompressedBy()), pieces.size());
}

TEST(UploadPiecesTest, HelpersStayWithinTheLeadOfWhatWasTaken) {
  // Nothing is taken until the last piece is asked for, so a helper may claim only the first
  // kLead pieces; the caller compresses everything after them.
  const std::string file = Csv(12000);
  UploadPieces pieces(file, 4096, /*helpers=*/1);
  const size_t n = pieces.size();
  ASSERT_GT(n, 3 * UploadPieces::kLead);
  EXPECT_EQ(Decompressed(pieces.TakeCompressed(n - 1)), pieces.raw(n - 1));
  const std::vector<size_t> by = pieces.CompressedBy();
  ASSERT_EQ(by.size(), 2u);
  EXPECT_LE(by[1], UploadPieces::kLead);
  EXPECT_GE(by[0], n - UploadPieces::kLead);
  EXPECT_EQ(by[0] + by[1], n);
}

TEST(UploadPiecesTest, OnePieceStartsNoHelper) {
  const std::string file = Csv(10);
  UploadPieces pieces(file, 1 << 20, /*helpers=*/2);
  EXPECT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces.helpers(), 0u);
  EXPECT_EQ(Decompressed(pieces.TakeCompressed(0)), pieces.raw(0));
}

TEST(UploadPiecesTest, PiecesNeverTakenDoNotHoldUpTheEnd) {
  // A refused upload drops its pieces unstored: the helpers stop after the piece in hand.
  const std::string file = Csv(40000);
  for (int round = 0; round < 20; ++round) {
    UploadPieces pieces(file, 2048, /*helpers=*/2);
    ASSERT_GT(pieces.size(), 200u);
  }
}

TEST(UploadPiecesTest, StoreEachPutsEveryPieceOnceOnSeveralThreadsAtOnce) {
  const std::string file = Csv(20000);
  for (size_t writers : {1, 4}) {
    UploadPieces pieces(file, 8 * 1024, /*helpers=*/1);
    ASSERT_GT(pieces.size(), 40u);
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::string> stored(pieces.size());
    std::vector<int> puts(pieces.size(), 0);
    std::set<std::thread::id> threads;
    int in_put = 0, most_in_put = 0;
    bool first = true;
    Status s = pieces.StoreEach(writers, [&](size_t i, std::string piece) {
      std::unique_lock lock(mu);
      ++puts[i];
      stored[i] = std::move(piece);
      threads.insert(std::this_thread::get_id());
      most_in_put = std::max(most_in_put, ++in_put);
      cv.notify_all();
      // The first put to start (whichever piece it is: a loaded machine may let a writer store
      // piece 1 before piece 0's) waits, as one waits on an fsync, until another is under way
      // beside it: with several writers that comes at once, the rest of the pieces being
      // theirs; with one it never would.
      const bool wait = std::exchange(first, false) && writers > 1;
      if (wait) {
        cv.wait_for(lock, std::chrono::seconds(30), [&] { return most_in_put > 1; });
      }
      --in_put;
      return Status::Ok();
    });
    ASSERT_TRUE(s.ok()) << s.message();
    for (size_t i = 0; i < pieces.size(); ++i) {
      EXPECT_EQ(puts[i], 1) << "piece " << i;
      EXPECT_EQ(Decompressed(stored[i]), pieces.raw(i)) << "piece " << i;
    }
    EXPECT_EQ(Sum(pieces.CompressedBy()), pieces.size());
    EXPECT_LE(threads.size(), writers);
    if (writers == 1) { EXPECT_EQ(most_in_put, 1); }
    if (writers > 1) { EXPECT_GT(most_in_put, 1) << "the puts never overlapped"; }
  }
}

TEST(UploadPiecesTest, StoreEachStopsClaimingAfterTheFirstErrorAndReturnsIt) {
  const std::string file = Csv(20000);
  UploadPieces pieces(file, 4 * 1024, /*helpers=*/2);
  ASSERT_GT(pieces.size(), 80u);
  std::atomic<size_t> calls{0};
  Status s = pieces.StoreEach(4, [&](size_t i, std::string) {
    ++calls;
    return i == 5 ? Status(ErrorCode::kUnavailable, "the disk went away at piece 5")
                  : Status::Ok();
  });
  EXPECT_EQ(s.code(), ErrorCode::kUnavailable);
  EXPECT_EQ(s.message(), "the disk went away at piece 5");
  // How many others are claimed before the failure is seen depends on the scheduler (the thread
  // putting piece 5 may be descheduled while the rest go on); on one thread it is exact.
  UploadPieces alone(file, 4 * 1024, /*helpers=*/2);
  calls = 0;
  s = alone.StoreEach(1, [&](size_t i, std::string) {
    ++calls;
    return i == 5 ? Status(ErrorCode::kUnavailable, "the disk went away at piece 5")
                  : Status::Ok();
  });
  EXPECT_EQ(s.message(), "the disk went away at piece 5");
  EXPECT_EQ(calls.load(), 6u);
}

TEST(UploadPiecesTest, RawCopiesAreEveryPieceOnceAllAreTakenAndNoneOtherwise) {
  const std::string file = Csv(5000);
  UploadPieces pieces(file, 4096, /*helpers=*/1);
  pieces.KeepRawCopies();
  ASSERT_TRUE(pieces.StoreEach(4, [](size_t, std::string) { return Status::Ok(); }).ok());
  const std::vector<std::string> copies = pieces.TakeRawCopies();
  ASSERT_EQ(copies.size(), pieces.size());
  for (size_t i = 0; i < copies.size(); ++i) EXPECT_EQ(copies[i], pieces.raw(i));

  UploadPieces partly(file, 4096, /*helpers=*/1);
  partly.KeepRawCopies();
  partly.TakeCompressed(0);
  EXPECT_TRUE(partly.TakeRawCopies().empty());  // not every piece was taken
  UploadPieces never(file, 4096, /*helpers=*/0);
  for (size_t i = 0; i < never.size(); ++i) never.TakeCompressed(i);
  EXPECT_TRUE(never.TakeRawCopies().empty());  // KeepRawCopies was not called
}

TEST(UploadPiecesTest, StoreEachOfNoPiecesPutsNothing) {
  UploadPieces pieces(std::string_view(), 4096, 2);
  int calls = 0;
  EXPECT_TRUE(pieces.StoreEach(4, [&](size_t, std::string) {
                ++calls;
                return Status::Ok();
              }).ok());
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace dq::gateway
