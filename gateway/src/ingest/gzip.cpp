#include "ingest/gzip.h"

#include <zlib.h>

#include <algorithm>

namespace dq::ingest {
namespace {

constexpr size_t kStep = 256 * 1024;  // output grown per inflate() call

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
  std::string out;
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
    // zlib counts in uInt; feed at most 1 GiB at a time.
    const size_t in_now = std::min<size_t>(compressed.size() - pos, 1u << 30);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data() + pos));
    z.avail_in = static_cast<uInt>(in_now);
    const size_t room = std::min(kStep, max_bytes + 1 - std::min(out.size(), max_bytes));
    const size_t before = out.size();
    out.resize(before + room);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + before);
    z.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&z, Z_NO_FLUSH);
    pos += in_now - z.avail_in;
    out.resize(before + (room - z.avail_out));
    if (out.size() > max_bytes) {
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
  return out;
}

}  // namespace dq::ingest
