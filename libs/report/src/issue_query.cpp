#include "dq/report/issue_query.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "dq/catalog/issue_catalog.h"
#include "dq/common/json_escape.h"
#include "dq/common/vocabulary.h"

namespace dq::report {
namespace {

constexpr std::string_view kNames[] = {"format", "offset", "limit",    "cursor",
                                       "code",   "field",  "severity", "sku"};

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

Status Invalid(const std::string& name, const std::string& message) {
  return Status(ErrorCode::kInvalidRequest, name + ": " + message, {{name, message}});
}

// Appends the comma-separated values of `text`, skipping empty ones.
void AddValues(std::vector<std::string>& to, std::string_view text) {
  while (true) {
    const size_t comma = text.find(',');
    std::string_view v = text.substr(0, comma);
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
    if (!v.empty() && std::find(to.begin(), to.end(), v) == to.end()) to.emplace_back(v);
    if (comma == std::string_view::npos) return;
    text.remove_prefix(comma + 1);
  }
}

std::optional<int64_t> Number(std::string_view text, int64_t min, int64_t max) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v < min || v > max) return std::nullopt;
  return v;
}

bool In(const std::vector<std::string>& values, const nlohmann::json& member) {
  if (values.empty()) return true;
  if (!member.is_string()) return false;
  const auto& s = member.get_ref<const std::string&>();
  return std::find(values.begin(), values.end(), s) != values.end();
}

// False when `record` cannot pass the filter on `member`: none of the values appears as
// "member":"value", written as the encoder writes it (issue_json.cpp: AppendJsonString). A quote
// inside a string value is escaped, so the text can only be the member itself. Only ever rules a
// record out, so most records of a narrow filter are never parsed.
bool MayMatch(std::string_view record, std::string_view member,
              const std::vector<std::string>& values) {
  if (values.empty()) return true;
  std::string needle;
  for (const auto& v : values) {
    needle.assign("\"").append(member).append("\":");
    AppendJsonString(needle, v);
    if (record.find(needle) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

std::string EncodeCursor(int64_t position) { return "p" + std::to_string(position); }

std::optional<int64_t> DecodeCursor(std::string_view cursor) {
  if (cursor.size() < 2 || cursor[0] != 'p') return std::nullopt;
  return Number(cursor.substr(1), 0, INT64_MAX / 2);
}

Result<IssueQuery> ParseIssueQuery(const std::vector<std::pair<std::string, std::string>>& params,
                                   int64_t default_limit, int64_t max_limit) {
  IssueQuery q;
  q.limit = default_limit;
  std::vector<std::string> unknown;
  bool has_offset = false;
  for (const auto& [name, value] : params) {
    if (std::find(std::begin(kNames), std::end(kNames), name) == std::end(kNames)) {
      if (std::find(unknown.begin(), unknown.end(), name) == unknown.end()) {
        unknown.push_back(name);
      }
    }
  }
  if (!unknown.empty()) {
    std::vector<ErrorDetail> details;
    for (const auto& n : unknown) details.push_back({n, "is not a parameter of this endpoint"});
    return Status(ErrorCode::kInvalidRequest,
                  std::string(unknown.size() == 1 ? "Unknown parameter " : "Unknown parameters ") +
                      Join(unknown) +
                      "; the issues take format, offset, limit, cursor, code, field, severity "
                      "and sku.",
                  std::move(details));
  }
  for (const auto& [name, value] : params) {
    if (name == "offset") {
      auto v = Number(value, 0, INT64_MAX / 2);
      if (!v)
        return Invalid("offset", "must be an integer from 0 to " + std::to_string(INT64_MAX / 2));
      q.offset = *v;
      has_offset = true;
    } else if (name == "limit") {
      auto v = Number(value, 1, max_limit);
      if (!v) return Invalid("limit", "must be an integer from 1 to " + std::to_string(max_limit));
      q.limit = *v;
    } else if (name == "cursor") {
      q.cursor = DecodeCursor(value);
      if (!q.cursor) {
        return Invalid("cursor", "is not a next_cursor this endpoint gave; start again without it");
      }
    } else if (name == "code") {
      AddValues(q.codes, value);
    } else if (name == "field") {
      AddValues(q.fields, value);
    } else if (name == "severity") {
      AddValues(q.severities, value);
    } else if (name == "sku") {
      AddValues(q.skus, value);
    }
  }
  if (q.cursor && has_offset) return Invalid("cursor", "give either cursor or offset, not both");
  std::vector<std::string> bad;
  for (const auto& c : q.codes) {
    if (catalog::FindIssueCode(c) == nullptr) bad.push_back(c);
  }
  if (!bad.empty()) {
    return Invalid("code",
                   std::string(bad.size() == 1 ? "unknown issue code " : "unknown issue codes ") +
                       Join(bad) + "; GET /v1/issue-codes lists them");
  }
  for (const auto& f : q.fields) {
    if (!IndexOf(kStandardFields, f)) bad.push_back(f);
  }
  if (!bad.empty()) {
    return Invalid("field", std::string(bad.size() == 1 ? "unknown field " : "unknown fields ") +
                                Join(bad) + "; use the standard field names");
  }
  for (const auto& s : q.severities) {
    if (s != "error" && s != "warning") bad.push_back(s);
  }
  if (!bad.empty()) return Invalid("severity", "must be error or warning, not " + Join(bad));
  return q;
}

bool Matches(const IssueQuery& q, std::string_view record) {
  if (!q.Filtered()) return true;
  if (!MayMatch(record, "code", q.codes) || !MayMatch(record, "severity", q.severities) ||
      !MayMatch(record, "field", q.fields) || !MayMatch(record, "sku", q.skus)) {
    return false;
  }
  const nlohmann::json i = nlohmann::json::parse(record, nullptr, false);
  if (!i.is_object()) return false;
  auto member = [&i](const char* name) {
    const auto it = i.find(name);
    return it == i.end() ? nlohmann::json() : *it;
  };
  return In(q.codes, member("code")) && In(q.fields, member("field")) &&
         In(q.severities, member("severity")) && In(q.skus, member("sku"));
}

Result<IssuePage> CollectIssues(const IssueQuery& q, int64_t stored, const IssueReader& read,
                                int64_t batch, int64_t max_scanned) {
  IssuePage page;
  batch = std::max<int64_t>(1, batch);
  if (!q.Filtered()) {  // positions are offsets: one read
    const int64_t from = q.cursor.value_or(q.offset);
    if (from < stored) {
      auto got = read(from, q.limit);
      if (!got.ok()) return got.status();
      page.issues = std::move(*got);
    }
    const int64_t end = from + static_cast<int64_t>(page.issues.size());
    if (end < stored && !page.issues.empty()) page.next = end;
    return page;
  }
  int64_t pos = q.cursor.value_or(0);
  int64_t skip = q.cursor ? 0 : q.offset;
  int64_t scanned = 0;
  while (pos < stored && static_cast<int64_t>(page.issues.size()) < q.limit) {
    if (scanned >= max_scanned) break;
    const int64_t want = std::min({batch, stored - pos, max_scanned - scanned});
    auto got = read(pos, want);
    if (!got.ok()) return got.status();
    if (got->empty()) {  // fewer stored than counted (deleted meanwhile): the end
      pos = stored;
      break;
    }
    int64_t used = 0;
    for (auto& record : *got) {
      ++used;
      if (Matches(q, record)) {
        if (skip > 0) {
          --skip;
        } else {
          page.issues.push_back(std::move(record));
          if (static_cast<int64_t>(page.issues.size()) == q.limit) break;
        }
      }
    }
    pos += used;
    scanned += used;
  }
  if (pos < stored) page.next = pos;
  return page;
}

}  // namespace dq::report
