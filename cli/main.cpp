// dq: the offline CLI. Wires the real file system, terminal and CPU count to the logic in
// app.h (docs/cli.md); no settings, no server, no network.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

#include "app.h"
#include "dq/common/available_cpus.h"

namespace {

dq::Result<std::string> ReadAll(const std::string& path) {
  if (path == "-") {
    std::string bytes((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (std::cin.bad()) return dq::Status(dq::ErrorCode::kInvalidRequest, "cannot read standard input");
    return bytes;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return dq::Status(dq::ErrorCode::kNotFound, path + ": cannot be opened");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return dq::Status(dq::ErrorCode::kInvalidRequest, path + ": cannot be read");
  return std::move(bytes).str();
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::unique_ptr<std::ofstream> cleaned;
  dq::offline::Io io;
  io.out = &std::cout;
  io.err = &std::cerr;
  io.read = ReadAll;
  io.open_out = [&cleaned](const std::string& path, std::string* error) -> std::ostream* {
    cleaned = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
    if (!*cleaned) {
      *error = path + ": cannot be written";
      return nullptr;
    }
    return cleaned.get();
  };
  io.err_is_terminal = isatty(STDERR_FILENO) == 1;
  io.cpus = dq::AvailableCpus();
  return dq::offline::Run(std::vector<std::string>(argv + 1, argv + argc), io);
}
