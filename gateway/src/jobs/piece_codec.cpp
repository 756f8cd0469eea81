#include "piece_codec.h"

#include <zstd.h>

#include <cstdlib>
#include <memory>

namespace dq::gateway {
namespace {

constexpr int kLevel = 1;  // ~450 MB/s and 4.9x on a products CSV; higher levels cost more CPU
                           // than they save Redis (docs/performance-log.md)

struct CctxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DctxFree {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

Status Damaged(const std::string& what) {
  return Status(ErrorCode::kInternal, "a stored job piece is damaged: " + what);
}

}  // namespace

std::string CompressPiece(std::string_view raw) {
  thread_local std::unique_ptr<ZSTD_CCtx, CctxFree> cctx(ZSTD_createCCtx());
  // Compressed into this thread's scratch, then copied at its size: a string sized for the worst
  // case would be zeroed first and keep that capacity while it waits to be stored.
  thread_local std::unique_ptr<char[]> scratch;
  thread_local size_t scratch_size = 0;
  const size_t bound = ZSTD_compressBound(raw.size());
  if (scratch_size < bound) {
    scratch = std::make_unique_for_overwrite<char[]>(bound);
    scratch_size = bound;
  }
  // ZSTD_compressCCtx writes the content size into the frame header, which DecompressPiece
  // needs to size its output.
  const size_t n =
      ZSTD_compressCCtx(cctx.get(), scratch.get(), bound, raw.data(), raw.size(), kLevel);
  if (ZSTD_isError(n)) std::abort();  // only a too-small buffer fails, and compressBound is not
  return std::string(scratch.get(), n);
}

Result<std::string> DecompressPiece(std::string_view stored) {
  const unsigned long long size = ZSTD_getFrameContentSize(stored.data(), stored.size());
  if (size == ZSTD_CONTENTSIZE_ERROR) return Damaged("not a zstd frame");
  if (size == ZSTD_CONTENTSIZE_UNKNOWN) return Damaged("the frame does not record its size");
  if (size > kMaxPieceBytes) {
    return Damaged("the frame says it holds " + std::to_string(size) + " bytes, more than " +
                   std::to_string(kMaxPieceBytes));
  }
  if (ZSTD_findFrameCompressedSize(stored.data(), stored.size()) != stored.size()) {
    return Damaged("it is not exactly one zstd frame");
  }
  thread_local std::unique_ptr<ZSTD_DCtx, DctxFree> dctx(ZSTD_createDCtx());
  std::string out(static_cast<size_t>(size), '\0');
  const size_t n =
      ZSTD_decompressDCtx(dctx.get(), out.data(), out.size(), stored.data(), stored.size());
  if (ZSTD_isError(n)) return Damaged(ZSTD_getErrorName(n));
  if (n != out.size()) return Damaged("the frame holds fewer bytes than it says");
  return out;
}

Result<std::string> DecodePiece(std::string_view codec, std::string stored) {
  if (codec == kPiecesRaw) return stored;
  if (codec == kPiecesZstd) return DecompressPiece(stored);
  return Status(ErrorCode::kInternal,
                "the job's pieces are stored as \"" + std::string(codec) +
                    "\", which this gateway cannot read (a newer version wrote them)");
}

}  // namespace dq::gateway
