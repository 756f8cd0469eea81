// The bytes `dq check` reads: a file, or standard input for "-", whole (the readers, like the
// service's upload, take the file at once), read in blocks of at least 1 MiB.
#pragma once

#include <string>

#include "dq/common/status.h"

namespace dq::offline {

// Errors: kNotFound when the path cannot be opened, kInvalidRequest when it cannot be read (a
// directory, an I/O error); the message names the path and the system's reason.
Result<std::string> ReadInput(const std::string& path);

}  // namespace dq::offline
