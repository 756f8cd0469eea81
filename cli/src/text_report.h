// The readable report `dq check` prints by default: the file as it was read, the score and the
// counts, and the most frequent issue codes, each with its first examples (row, value, and the
// fix when one was made). Written for a person at a terminal; --format json|csv are for programs.
#pragma once

#include <ostream>
#include <string_view>

#include "check.h"

namespace dq::offline {

// At most this many codes are shown; the last line says how many more there are.
inline constexpr size_t kTopCodes = 10;

void WriteTextReport(const CheckOutcome& outcome, std::string_view name, std::ostream& out);

}  // namespace dq::offline
