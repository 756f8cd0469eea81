#include "issue_catalogue.h"

namespace dq::validator {
namespace {

constexpr IssueDef kCatalogue[] = {
#define DQ_ISSUE(code, severity, fixable, check, fields, message, description) \
  {IssueCode::code, #code, Severity::severity, fixable, check, fields, message, description},
#include "issue_codes.def"
#undef DQ_ISSUE
};

}  // namespace

std::span<const IssueDef> Catalogue() { return kCatalogue; }

const IssueDef& Def(IssueCode code) { return kCatalogue[static_cast<size_t>(code)]; }

std::string_view SeverityName(Severity s) { return s == Severity::kError ? "error" : "warning"; }

}  // namespace dq::validator
