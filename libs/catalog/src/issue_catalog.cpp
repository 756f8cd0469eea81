#include "dq/catalog/issue_catalog.h"

#include <iterator>

#include <nlohmann/json.hpp>

namespace dq::catalog {
namespace {

// The engine's Severity enumerators, as the .def rows name them.
constexpr std::string_view kError = "error";
constexpr std::string_view kWarning = "warning";

struct Row {
  std::string_view code, severity;
  bool fixable;
  std::string_view check, fields, message, meaning;
};
struct Guidance {
  std::string_view code, title, how_to_fix, before, after;
};

constexpr Row kRows[] = {
#define DQ_ISSUE(code, severity, fixable, check, fields, message, description) \
  {#code, severity, fixable, check, fields, message, description},
#include "dq/catalog/issue_codes.def"
#undef DQ_ISSUE
};

constexpr Guidance kGuidance[] = {
#define DQ_GUIDANCE(code, title, how_to_fix, before, after) \
  {#code, title, how_to_fix, before, after},
#include "dq/catalog/issue_guidance.def"
#undef DQ_GUIDANCE
};

constexpr ChannelIssue kChannelIssues[] = {
#define DQ_PREDICTS(code, channel, name, source) {#code, channel, name, source},
#include "dq/catalog/channel_issues.def"
#undef DQ_PREDICTS
};

static_assert(std::size(kRows) == std::size(kGuidance),
              "issue_guidance.def needs one row per code of issue_codes.def");

constexpr bool SameCodesInOrder() {
  for (size_t i = 0; i < std::size(kRows); ++i) {
    if (kRows[i].code != kGuidance[i].code) return false;
  }
  return true;
}
static_assert(SameCodesInOrder(),
              "issue_guidance.def must list the codes of issue_codes.def in the same order");

struct Table {
  IssueCodeInfo items[std::size(kRows)];
  constexpr Table() : items{} {
    for (size_t i = 0; i < std::size(kRows); ++i) {
      const Row& r = kRows[i];
      const Guidance& g = kGuidance[i];
      items[i] = {r.code,    r.severity, r.fixable,    r.check,  r.fields, r.message,
                  r.meaning, g.title,    g.how_to_fix, g.before, g.after};
    }
  }
};

constexpr Table kTable;

}  // namespace

std::span<const IssueCodeInfo> IssueCodes() { return kTable.items; }

std::span<const ChannelIssue> ChannelIssues() { return kChannelIssues; }

const IssueCodeInfo* FindIssueCode(std::string_view code) {
  for (const IssueCodeInfo& i : kTable.items) {
    if (i.code == code) return &i;
  }
  return nullptr;
}

std::vector<std::string> FieldList(const IssueCodeInfo& info) {
  std::vector<std::string> out;
  std::string_view rest = info.fields;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view f = rest.substr(0, comma);
    while (!f.empty() && f.front() == ' ') f.remove_prefix(1);
    while (!f.empty() && f.back() == ' ') f.remove_suffix(1);
    if (!f.empty()) out.emplace_back(f);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

std::string DocsAnchor(std::string_view code) {
  std::string a(code);
  for (char& c : a) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return a;
}

std::string DocsLink(std::string_view code) { return "docs/issue-codes.md#" + DocsAnchor(code); }

const std::string& IssueCodesJson() {
  static const std::string json = [] {
    nlohmann::json list = nlohmann::json::array();
    for (const IssueCodeInfo& i : IssueCodes()) {
      nlohmann::json predicts = nlohmann::json::array();
      for (const ChannelIssue& c : ChannelIssues()) {
        if (c.code == i.code) {
          predicts.push_back({{"channel", c.channel}, {"name", c.name}, {"source", c.source}});
        }
      }
      list.push_back({{"code", i.code},
                      {"title", i.title},
                      {"severity", i.severity},
                      {"fixable", i.fixable},
                      {"check_type", i.check},
                      {"fields", FieldList(i)},
                      {"message", i.message},
                      {"meaning", i.meaning},
                      {"how_to_fix", i.how_to_fix},
                      {"example", {{"before", i.example_before}, {"after", i.example_after}}},
                      {"docs_url", DocsLink(i.code)},
                      {"channel_issues", std::move(predicts)}});
    }
    return nlohmann::json{{"issue_codes", std::move(list)}}.dump();
  }();
  return json;
}

}  // namespace dq::catalog
