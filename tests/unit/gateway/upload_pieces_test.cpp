// An upload's pieces compressed ahead of the store (jobs/upload_pieces.h): every piece comes back
// as its own bytes whatever thread compressed it and in whatever order it is taken, each piece
// is compressed once, helpers never run further ahead than the lead allows, and an object whose
// pieces are never taken (a refused upload) goes away without waiting for the rest.
#include "jobs/upload_pieces.h"

#include <gtest/gtest.h>

#include <numeric>
#include <string>

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

}  // namespace
}  // namespace dq::gateway
