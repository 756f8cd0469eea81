// A job's pieces as Redis keeps them (jobs/piece_codec.h): what goes in comes back byte for byte,
// a CSV shrinks, and a damaged piece is an error that says so, never a crash or wrong bytes.
#include "jobs/piece_codec.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <random>
#include <string>

namespace dq::gateway {
namespace {

std::string Csv(size_t rows) {
  std::string csv = "sku,title,price,currency,gtin\n";
  for (size_t r = 0; r < rows; ++r) {
    csv += "SKU-" + std::to_string(r) + ",Blue mug no. " + std::to_string(r % 97) + "," +
           std::to_string(r % 500) + ".99,EUR,400638133393" + std::to_string(r % 10) + "\n";
  }
  return csv;
}

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(gen() & 0xff);
  return s;
}

TEST(PieceCodecTest, WhatGoesInComesBackByteForByte) {
  for (const std::string& raw :
       {std::string(), std::string("a"), Csv(20000), RandomBytes(1 << 20, 7),
        std::string("\0\xff\xfe\x28\xb5\x2f\xfd", 7)}) {
    const std::string stored = CompressPiece(raw);
    auto back = DecompressPiece(stored);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(*back, raw);
    auto decoded = DecodePiece(kPiecesZstd, stored);
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(*decoded, raw);
  }
}

TEST(PieceCodecTest, ACsvPieceIsStoredInAFractionOfItsSize) {
  const std::string raw = Csv(20000);
  ASSERT_GT(raw.size(), 900000u);
  EXPECT_LT(CompressPiece(raw).size() * 3, raw.size());
}

TEST(PieceCodecTest, RawPiecesOfOlderJobsAreReadAsTheyAre) {
  const std::string raw = Csv(10);
  auto decoded = DecodePiece(kPiecesRaw, raw);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, raw);
}

TEST(PieceCodecTest, AnUnknownCodecIsAnErrorThatNamesIt) {
  auto decoded = DecodePiece("lz9", "abc");
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), ErrorCode::kInternal);
  EXPECT_NE(decoded.status().message().find("\"lz9\""), std::string::npos);
}

TEST(PieceCodecTest, DamagedPiecesAreErrorsThatSayWhatIsWrong) {
  const std::string good = CompressPiece(Csv(2000));
  const std::string other = CompressPiece("x");
  std::string flipped = good;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x5a);
  struct Case {
    std::string stored;
    std::string says;
  } cases[] = {
      {"", "not a zstd frame"},
      {"sku,title\nA1,Mug\n", "not a zstd frame"},
      {good.substr(0, good.size() - 10), "not exactly one zstd frame"},
      {good + other, "not exactly one zstd frame"},
      {good + "trailing", "not exactly one zstd frame"},
  };
  for (const Case& c : cases) {
    auto back = DecompressPiece(c.stored);
    ASSERT_FALSE(back.ok()) << c.says;
    EXPECT_EQ(back.status().code(), ErrorCode::kInternal);
    EXPECT_NE(back.status().message().find("damaged"), std::string::npos);
    EXPECT_NE(back.status().message().find(c.says), std::string::npos)
        << back.status().message();
  }
  // A flipped byte inside the data: zstd's checks catch most, and whatever it gives back is never
  // more than the frame said, nor a crash.
  auto back = DecompressPiece(flipped);
  if (back.ok()) {
    EXPECT_EQ(back->size(), Csv(2000).size());
  }
}

TEST(PieceCodecTest, AFrameThatDoesNotRecordItsSizeIsRefused) {
  // A valid frame whose header leaves the content size out, as streaming compressors write.
  const std::string raw = Csv(100);
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ASSERT_FALSE(ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0)));
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  ZSTD_outBuffer o{out.data(), out.size(), 0};
  ZSTD_inBuffer i{raw.data(), raw.size(), 0};
  ASSERT_EQ(ZSTD_compressStream2(cctx, &o, &i, ZSTD_e_end), 0u);
  ZSTD_freeCCtx(cctx);
  out.resize(o.pos);
  auto back = DecompressPiece(out);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("does not record its size"), std::string::npos);
}

TEST(PieceCodecTest, AFrameThatClaimsMoreThanTheBoundIsRefusedBeforeAnyAllocation) {
  const std::string zeros(kMaxPieceBytes + 1, '\0');
  const std::string stored = CompressPiece(zeros);
  EXPECT_LT(stored.size(), 1u << 16);
  auto back = DecompressPiece(stored);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("more than " + std::to_string(kMaxPieceBytes)),
            std::string::npos);
}

}  // namespace
}  // namespace dq::gateway
