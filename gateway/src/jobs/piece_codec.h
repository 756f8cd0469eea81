// How a job's file pieces (the upload, and a cleaned file stored whole by an earlier version) are
// kept in Redis: each piece is one zstd frame (level 1), a fifth of a CSV's size. Redis keeps
// everything in memory and appends every byte to its fsynced AOF, so a job's bytes are what its
// store costs (docs/PERFORMANCE.md, "Where the time goes in a job"). Pure: no Redis here;
// RedisJobStore uses it.
//
// A job records its codec in its hash (`pieces`): "zstd", or "" for raw pieces, which jobs stored
// before compression have. Readers accept both; the account's storage ceiling counts the
// uncompressed bytes either way.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "dq/common/status.h"

namespace dq::gateway {

inline constexpr std::string_view kPiecesZstd = "zstd";
inline constexpr std::string_view kPiecesRaw = "";

// The largest piece DecompressPiece gives back. Pieces are about 1 MiB (an upload piece, or a
// cleaned piece whose fixes made it longer); anything near this bound is damage, not data.
inline constexpr size_t kMaxPieceBytes = size_t{64} << 20;

// One zstd frame holding `raw`, its size recorded in the frame. Each thread that compresses keeps
// one context (~0.6 MB at this level; the gateway has DQ_GATEWAY_THREADS + DQ_WORKERS of them).
std::string CompressPiece(std::string_view raw);

// The bytes of a CompressPiece frame. kInternal (naming what is wrong) when `stored` is not one
// whole frame that records its size, or holds more than kMaxPieceBytes.
Result<std::string> DecompressPiece(std::string_view stored);

// `stored` as its codec (a job's `pieces` field) keeps it: decompressed for "zstd", as it is for
// "". kInternal for a codec this build does not know.
Result<std::string> DecodePiece(std::string_view codec, std::string stored);

}  // namespace dq::gateway
