// The issue catalogue as the product serves it: for every code the engine reports, its title,
// severity, what it means, how to fix it, an example before and after, the fields it applies to
// and the anchor of its section in docs/issue-codes.md. Built from the validator's
// issue_codes.def and issue_guidance.def (copied in by the build; see CMakeLists.txt), so it
// always lists exactly the engine's codes, in the engine's order. Pure data; thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dq::catalog {

// A channel's own name for the problem a code predicts (channel_issues.def).
struct ChannelIssue {
  std::string_view code, channel, name, source;
};

struct IssueCodeInfo {
  std::string_view code;
  std::string_view severity;  // "error" or "warning"
  bool fixable;               // an auto-fix: reported with fixed_value
  std::string_view check;     // check type that reports it (product, ..., platform, any)
  std::string_view fields;    // field(s) it is reported on, ", "-separated ("any": every field)
  std::string_view message;   // the default message of its issues
  std::string_view meaning;   // what it means, exactly
  std::string_view title;
  std::string_view how_to_fix;
  std::string_view example_before;  // "(empty)" stands for an empty cell
  std::string_view example_after;
};

// Every code, in the engine's declaration order.
std::span<const IssueCodeInfo> IssueCodes();
// Every channel issue, in channel_issues.def's order; a code may have several or none.
std::span<const ChannelIssue> ChannelIssues();
// nullptr for a code the engine does not have.
const IssueCodeInfo* FindIssueCode(std::string_view code);

// The fields, split: "price, cost_price" -> {"price", "cost_price"}.
std::vector<std::string> FieldList(const IssueCodeInfo& info);
// The anchor of the code's section in docs/issue-codes.md, as GitHub writes a heading's:
// "MISSING_SKU" -> "missing_sku".
std::string DocsAnchor(std::string_view code);
// "docs/issue-codes.md#missing_sku": the path in the repository, with the anchor.
std::string DocsLink(std::string_view code);

// GET /v1/issue-codes: {"issue_codes":[{code, title, severity, fixable, check_type, fields,
// message, meaning, how_to_fix, example: {before, after}, docs_url, channel_issues:
// [{channel, name, source}]}]}. Built once.
const std::string& IssueCodesJson();

// docs/issue-codes.md: `head` (the hand-written introduction, up to and including
// kGeneratedMarker) followed by the generated index table and one section per code.
inline constexpr std::string_view kGeneratedMarker =
    "<!-- Everything below is generated from the catalogue: do not edit by hand. -->";
std::string IssueCodesMarkdown(std::string_view head);

}  // namespace dq::catalog
