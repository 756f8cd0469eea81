// The catalogue of issue codes: code, severity, whether it is a fix, check type, message.
// The data lives in issue_codes.def; this header turns it into an enum and a table.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace dq::validator {

enum class Severity : uint8_t { kError, kWarning };

enum class IssueCode : uint16_t {
#define DQ_ISSUE(code, severity, fixable, check, fields, message, description) code,
#include "issue_codes.def"
#undef DQ_ISSUE
};

struct IssueDef {
  IssueCode id;
  std::string_view code;
  Severity severity;
  bool fixable;
  std::string_view check;   // check type that reports it (product, customer, ..., platform, any)
  std::string_view fields;  // standard field(s) it is reported on, comma-separated
  std::string_view message;
  std::string_view description;
};

inline constexpr size_t kIssueCodeCount = 0
#define DQ_ISSUE(code, severity, fixable, check, fields, message, description) +1
#include "issue_codes.def"
#undef DQ_ISSUE
    ;

// Every code, in declaration order.
std::span<const IssueDef> Catalogue();
const IssueDef& Def(IssueCode code);

std::string_view SeverityName(Severity s);

}  // namespace dq::validator
