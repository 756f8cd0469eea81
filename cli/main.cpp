// dq: the offline CLI. Wires the real file system, terminal and CPU count to the logic in
// app.h (docs/cli.md); no settings, no server, no network.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include "app.h"
#include "read_input.h"
#include "dq/common/available_cpus.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::unique_ptr<std::ofstream> cleaned;
  dq::offline::Io io;
  io.out = &std::cout;
  io.err = &std::cerr;
  io.read = dq::offline::ReadInput;
  io.open_out = [&cleaned](const std::string& path, std::string* error) -> std::ostream* {
    cleaned = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
    if (!*cleaned) {
      *error = path + ": cannot be written (" + std::strerror(errno) + ")";
      return nullptr;
    }
    return cleaned.get();
  };
  io.err_is_terminal = isatty(STDERR_FILENO) == 1;
  io.cpus = dq::AvailableCpus();
  return dq::offline::Run(std::vector<std::string>(argv + 1, argv + argc), io);
}
