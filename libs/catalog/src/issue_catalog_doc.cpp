// docs/issue-codes.md, written from the catalogue (IssueCodesMarkdown in issue_catalog.h).
#include "dq/catalog/issue_catalog.h"

namespace dq::catalog {
namespace {

void AppendCode(std::string& out, std::string_view value) {
  out += '`';
  out += value;
  out += '`';
}

}  // namespace

std::string IssueCodesMarkdown(std::string_view head) {
  std::string out(head);
  if (!out.empty() && out.back() != '\n') out += '\n';
  out +=
      "\n## Index\n\n| Code | Title | Severity | Fixable | Check type | Field(s) |\n"
      "|---|---|---|---|---|---|\n";
  for (const IssueCodeInfo& i : IssueCodes()) {
    out += "| [";
    AppendCode(out, i.code);
    out += "](#" + DocsAnchor(i.code) + ") | ";
    out += i.title;
    out += " | ";
    out += i.severity;
    out += i.fixable ? " | yes | " : " | no | ";
    out += i.check;
    out += " | ";
    out += i.fields;
    out += " |\n";
  }
  out +=
      "\n## Channel issues each code predicts\n\n"
      "The name a channel gives, in its own diagnostics, to the problem a dq code predicts: a "
      "merchant\ncan match dq's report with a disapproval they already have. Only names read on "
      "the channels'\npublic pages are listed (the page is in the last column); codes without a "
      "row have no published\nname that dq could confirm. The rows come from\n"
      "`validator/src/engine/channel_issues.def`.\n\n"
      "| Channel | Code | The channel's issue | Source |\n|---|---|---|---|\n";
  for (const ChannelIssue& c : ChannelIssues()) {
    out += "| ";
    out += c.channel;
    out += " | ";
    AppendCode(out, c.code);
    out += " | ";
    out += c.name;
    out += " | ";
    out += c.source;
    out += " |\n";
  }
  out += "\n## Codes\n";
  for (const IssueCodeInfo& i : IssueCodes()) {
    out += "\n### ";
    out += i.code;
    out += "\n\n**";
    out += i.title;
    out += ".** ";
    out += i.severity;
    out += i.fixable ? ", fixed automatically" : "";
    out += "; check type ";
    out += i.check;
    out += "; field(s) ";
    out += i.fields;
    out += ".\n\n- **Message:** ";
    out += i.message;
    out += "\n- **What it means:** ";
    out += i.meaning;
    out += "\n- **How to fix:** ";
    out += i.how_to_fix;
    out += "\n- **Example:** ";
    AppendCode(out, i.example_before);
    out += " → ";
    AppendCode(out, i.example_after);
    out += "\n";
    for (const ChannelIssue& c : ChannelIssues()) {
      if (c.code != i.code) continue;
      out += "- **Channel issue:** ";
      out += c.channel;
      out += ", ";
      out += c.name;
      out += " (";
      out += c.source;
      out += ")\n";
    }
  }
  return out;
}

}  // namespace dq::catalog
