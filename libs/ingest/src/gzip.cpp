#include "dq/ingest/gzip.h"

#include <sys/mman.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>

namespace dq::ingest {
namespace {

// The output buffer grows geometrically from this (or from the trailer's size hint): zlib's
// inflate is fastest writing into one large buffer, and each growth is one copy.
constexpr size_t kMinStep = 256 * 1024;

// A gzip member ends with ISIZE, its uncompressed size mod 2^32 (RFC 1952). It sizes the first
// allocation only: it is never trusted, since it wraps at 4 GiB and a crafted file can lie.
size_t TrailerSizeHint(std::string_view compressed) {
  if (compressed.size() < 18) return 0;  // smaller than any gzip member
  const auto* p = reinterpret_cast<const unsigned char*>(compressed.data() + compressed.size() - 4);
  return static_cast<size_t>(p[0]) | static_cast<size_t>(p[1]) << 8 |
         static_cast<size_t>(p[2]) << 16 | static_cast<size_t>(p[3]) << 24;
}

// Makes `out` n bytes long. A large buffer is first reserved and marked for transparent huge
// pages, so filling it costs one page fault per 2 MiB instead of one per 4 KiB: on the project's
// virtual machines those faults, not inflate, were half of the decompression time
// (docs/PERFORMANCE.md). The advice is only a hint; without THP nothing changes.
void GrowTo(std::string& out, size_t n) {
  constexpr size_t kHuge = 2 * 1024 * 1024;
  if (n >= 2 * kHuge && n > out.capacity()) {
    out.reserve(n);
    const auto begin = reinterpret_cast<uintptr_t>(out.data());
    const uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t last = (begin + n) & ~(kHuge - 1);
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
  out.resize(n);
}

Status Corrupt(uint64_t at, std::string_view why) {
  return Status(ErrorCode::kInvalidRequest,
                "gzip data is corrupt at compressed byte " + std::to_string(at) + " (" +
                    std::string(why) + "); compress the file again with gzip");
}

class Inflater {
 public:
  Inflater() { ok_ = inflateInit2(&z_, 15 + 16) == Z_OK; }  // 16: gzip wrapper only
  ~Inflater() {
    if (ok_) inflateEnd(&z_);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  bool ok() const { return ok_; }
  z_stream& z() { return z_; }

 private:
  z_stream z_{};
  bool ok_ = false;
};

}  // namespace

bool LooksGzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

Result<std::string> Gunzip(std::string_view compressed, size_t max_bytes) {
  Inflater inflater;
  if (!inflater.ok()) return Status(ErrorCode::kInternal, "zlib could not be initialised");
  z_stream& z = inflater.z();
  // The limit is checked by giving zlib room for at most max_bytes + 1 bytes: one byte more
  // than allowed means the file is too large, and nothing past it is ever decompressed.
  const size_t cap = max_bytes + 1;
  std::string out;
  // Deflate expands at most ~1032:1, so a hint beyond that is a lie and is not allocated.
  const size_t plausible = std::min(TrailerSizeHint(compressed), compressed.size() * 1032);
  GrowTo(out, std::min(std::max(plausible, kMinStep), cap));
  size_t filled = 0;
  size_t pos = 0;  // input consumed
  bool member_done = false;
  while (true) {
    if (member_done) {
      // Another member may follow (concatenated .gz files); trailing zero padding is ignored.
      const std::string_view rest = compressed.substr(pos);
      if (rest.find_first_not_of('\0') == std::string_view::npos) break;
      if (!LooksGzip(rest)) return Corrupt(pos, "unexpected bytes after the end of the data");
      if (inflateReset(&z) != Z_OK) return Status(ErrorCode::kInternal, "zlib reset failed");
      member_done = false;
    }
    if (filled == out.size() && out.size() < cap) {
      GrowTo(out, std::min(cap, std::max(out.size() * 2, out.size() + kMinStep)));
    }
    // zlib counts in uInt; feed and fill at most 1 GiB at a time.
    const size_t in_now = std::min<size_t>(compressed.size() - pos, 1u << 30);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data() + pos));
    z.avail_in = static_cast<uInt>(in_now);
    const size_t room = std::min<size_t>(out.size() - filled, 1u << 30);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + filled);
    z.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&z, Z_NO_FLUSH);
    pos += in_now - z.avail_in;
    filled += room - z.avail_out;
    if (filled > max_bytes) {
      return Status(ErrorCode::kFileTooLarge,
                    "The decompressed file is larger than " + std::to_string(max_bytes) +
                        " bytes, the most an upload may hold; decompression was stopped there.");
    }
    if (rc == Z_STREAM_END) {
      member_done = true;
      if (pos >= compressed.size()) break;
      continue;
    }
    if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR) {
      return Corrupt(pos, z.msg ? z.msg : "invalid deflate data");
    }
    if (rc == Z_MEM_ERROR) return Status(ErrorCode::kInternal, "zlib ran out of memory");
    if (rc == Z_BUF_ERROR) {
      return Corrupt(pos, pos >= compressed.size() ? "the data is truncated" : "no progress");
    }
    if (z.avail_out != 0) return Corrupt(pos, "the data is truncated");  // input used up
  }
  out.resize(filled);
  return out;
}

}  // namespace dq::ingest
