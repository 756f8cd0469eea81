// The `dq` command line: the offline CLI on the service's own readers and engine, with no
// server, Redis or network (docs/cli.md).
//
//   dq check FILE|- [--checks product,price] [--platform NAME] [--source NAME]
//                   [--mapping JSON|@FILE] [--format text|json|csv] [--cleaned OUT]
//                   [--fail-on error|warning|none] [--name NAME] [--threads N]
//                   [--max-issues N] [--no-progress]
//   dq --version | --help | check --help
//
// Exit codes, for CI pipelines (as `frictionless validate` and `soda scan` have them):
//   0  the check ran and found nothing at or above --fail-on (default error);
//   1  the check ran and found issues at or above --fail-on;
//   2  the command line is wrong, or the file cannot be read (missing, empty, not a format the
//      service reads, a mapped column it lacks); nothing was checked.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "dq/common/status.h"

namespace dq::offline {

inline constexpr int kExitClean = 0;
inline constexpr int kExitIssues = 1;
inline constexpr int kExitUsage = 2;

struct Io {
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;
  // The bytes of a path, or of standard input for "-".
  std::function<Result<std::string>(const std::string& path)> read;
  // Opens OUT for --cleaned; nullptr with a message when it cannot be written.
  std::function<std::ostream*(const std::string& path, std::string* error)> open_out;
  bool err_is_terminal = false;  // progress is shown only on a terminal
  size_t cpus = 1;               // evaluation threads when --threads is not given
};

// Runs one command line (without the program name) and returns the exit code.
int Run(const std::vector<std::string>& args, const Io& io);

}  // namespace dq::offline
