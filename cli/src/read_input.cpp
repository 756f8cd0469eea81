#include "read_input.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace dq::offline {

Result<std::string> ReadInput(const std::string& path) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status(ErrorCode::kNotFound,
                      path + ": cannot be opened (" + std::strerror(errno) + ")");
  }
  std::string bytes;
  size_t used = 0;
  while (true) {
    if (bytes.size() - used < (1u << 20)) bytes.resize(std::max<size_t>(2 * bytes.size(), 1u << 20));
    const size_t n = std::fread(bytes.data() + used, 1, bytes.size() - used, f);
    used += n;
    if (n == 0) break;
  }
  const bool failed = std::ferror(f) != 0;
  const int error = errno;
  if (f != stdin) std::fclose(f);
  if (failed) {
    return Status(ErrorCode::kInvalidRequest,
                      (path == "-" ? std::string("standard input") : path) + ": cannot be read (" +
                          std::strerror(error) + ")");
  }
  bytes.resize(used);
  return bytes;
}

}  // namespace dq::offline
