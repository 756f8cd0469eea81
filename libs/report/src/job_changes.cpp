#include "dq/report/job_changes.h"

#include <algorithm>
#include <map>

namespace dq::report {
namespace {

using nlohmann::json;

constexpr size_t kMaxItemBytes = 64;

void SkipSpace(std::string_view s, size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
}

// At an opening quote: the string's raw text (escapes kept); i ends after the closing quote.
std::optional<std::string_view> RawString(std::string_view s, size_t& i) {
  if (i >= s.size() || s[i] != '"') return std::nullopt;
  const size_t begin = ++i;
  while (i < s.size() && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
  if (i >= s.size()) return std::nullopt;
  return s.substr(begin, i++ - begin);
}

// Skips an array or object (strings inside may hold brackets).
bool SkipNested(std::string_view s, size_t& i) {
  int depth = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '"') {
      if (!RawString(s, i)) return false;
      continue;
    }
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') {
      if (--depth == 0) {
        ++i;
        return true;
      }
    }
    ++i;
  }
  return false;
}

uint64_t Fnv1a(uint64_t h, std::string_view s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h ^= 0xff;  // a separator no UTF-8 text holds
  return h * 1099511628211ull;
}

// The SKU as text: its JSON escapes decoded, cut to kMaxItemBytes on a character boundary.
std::string DecodeItem(std::string_view raw) {
  std::string out;
  if (raw.find('\\') == std::string_view::npos) {
    out.assign(raw);
  } else {
    json decoded = json::parse("\"" + std::string(raw) + "\"", nullptr, false);
    if (decoded.is_string()) out = decoded.get<std::string>();
  }
  if (out.size() > kMaxItemBytes) {
    size_t cut = kMaxItemBytes;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
  }
  return out;
}

}  // namespace

std::optional<IssueRecordKey> ReadIssueRecordKey(std::string_view s) {
  IssueRecordKey key;
  size_t i = 0;
  SkipSpace(s, i);
  if (i >= s.size() || s[i] != '{') return std::nullopt;
  ++i;
  bool have_code = false;
  while (true) {
    SkipSpace(s, i);
    if (i < s.size() && s[i] == '}') break;
    auto name = RawString(s, i);
    if (!name) return std::nullopt;
    SkipSpace(s, i);
    if (i >= s.size() || s[i] != ':') return std::nullopt;
    ++i;
    SkipSpace(s, i);
    if (i >= s.size()) return std::nullopt;
    std::string_view value;
    bool is_string = false;
    if (s[i] == '"') {
      auto v = RawString(s, i);
      if (!v) return std::nullopt;
      value = *v;
      is_string = true;
    } else if (s[i] == '[' || s[i] == '{') {
      if (!SkipNested(s, i)) return std::nullopt;
    } else {
      const size_t begin = i;
      while (i < s.size() && s[i] != ',' && s[i] != '}') ++i;
      value = s.substr(begin, i - begin);
      while (!value.empty() && (value.back() == ' ' || value.back() == '\n')) value.remove_suffix(1);
      if (value == "null") value = {};
    }
    if (*name == "code" && is_string) {
      key.code = value;
      have_code = !value.empty();
    } else if (*name == "severity") {
      key.severity = value;
    } else if (*name == "field") {
      key.field = value;
    } else if (*name == "sku") {
      key.sku = value;
    } else if (*name == "issue_row" || (*name == "row" && key.issue_row.empty())) {
      key.issue_row = value;
    }
    SkipSpace(s, i);
    if (i < s.size() && s[i] == ',') {
      ++i;
      continue;
    }
    if (i < s.size() && s[i] == '}') break;
    return std::nullopt;
  }
  if (!have_code) return std::nullopt;
  return key;
}

uint32_t IssueKeys::CodeIndex(std::string_view code, std::string_view severity) {
  for (size_t k = codes_.size(); k-- > 0;) {
    if (codes_[k].first == code) return static_cast<uint32_t>(k);
  }
  codes_.emplace_back(std::string(code), std::string(severity));
  return static_cast<uint32_t>(codes_.size() - 1);
}

bool IssueKeys::Add(std::string_view record) {
  auto key = ReadIssueRecordKey(record);
  if (!key) return false;
  Entry e;
  e.code = CodeIndex(key->code, key->severity);
  if (!key->sku.empty()) {
    e.item = DecodeItem(key->sku);
    e.hash = Fnv1a(Fnv1a(Fnv1a(14695981039346656037ull, key->code), key->field), key->sku);
    by_sku_ = true;
  } else {
    e.item = "row " + std::string(key->issue_row);
    // "\x01" keeps a row number apart from a SKU that reads the same.
    e.hash = Fnv1a(Fnv1a(Fnv1a(Fnv1a(14695981039346656037ull, key->code), key->field), "\x01"),
                   key->issue_row);
    by_row_ = true;
  }
  entries_.push_back(std::move(e));
  return true;
}

json CompareIssues(IssueKeys& previous, IssueKeys& current, const CompareOptions& options) {
  struct Counts {
    std::string severity;
    int64_t added = 0, resolved = 0, open = 0;
    json new_items = json::array(), resolved_items = json::array();
  };
  std::map<std::string, Counts> by_code;
  auto sort_unique = [](std::vector<IssueKeys::Entry>& v) {
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.hash < b.hash; });
    v.erase(std::unique(v.begin(), v.end(),
                        [](const auto& a, const auto& b) { return a.hash == b.hash; }),
            v.end());
  };
  sort_unique(previous.entries_);
  sort_unique(current.entries_);
  auto counts = [&](const IssueKeys& keys, uint32_t code) -> Counts& {
    const auto& [name, severity] = keys.codes_[code];
    Counts& c = by_code[name];
    if (c.severity.empty()) c.severity = severity;
    return c;
  };
  auto list = [&](json& items, const std::string& item) {
    if (items.size() < options.items_per_code) items.push_back(item);
  };
  int64_t added = 0, resolved = 0, open = 0;
  const auto& p = previous.entries_;
  const auto& c = current.entries_;
  size_t i = 0, j = 0;
  while (i < p.size() || j < c.size()) {
    if (j == c.size() || (i < p.size() && p[i].hash < c[j].hash)) {
      Counts& k = counts(previous, p[i].code);
      ++k.resolved;
      ++resolved;
      list(k.resolved_items, p[i].item);
      ++i;
    } else if (i == p.size() || c[j].hash < p[i].hash) {
      Counts& k = counts(current, c[j].code);
      ++k.added;
      ++added;
      list(k.new_items, c[j].item);
      ++j;
    } else {
      ++counts(current, c[j].code).open;
      ++open;
      ++i;
      ++j;
    }
  }
  std::vector<std::pair<std::string, Counts*>> order;
  for (auto& [code, k] : by_code) order.emplace_back(code, &k);
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    const bool ea = a.second->severity == "error", eb = b.second->severity == "error";
    if (ea != eb) return ea;
    const int64_t ta = a.second->added + a.second->resolved + a.second->open;
    const int64_t tb = b.second->added + b.second->resolved + b.second->open;
    return ta > tb;
  });
  json codes = json::array();
  auto sorted = [](json items) {
    std::sort(items.begin(), items.end());
    return items;
  };
  for (auto& [code, k] : order) {
    codes.push_back({{"code", code},
                     {"severity", k->severity},
                     {"new", k->added},
                     {"resolved", k->resolved},
                     {"open", k->open},
                     {"new_items", sorted(std::move(k->new_items))},
                     {"resolved_items", sorted(std::move(k->resolved_items))}});
  }
  const bool by_row = previous.by_row() || current.by_row();
  const bool by_sku = previous.by_sku() || current.by_sku();
  return {{"previous_job_id", options.previous_job_id},
          {"keyed_by", by_sku && by_row ? "sku_or_row" : by_row ? "row" : "sku"},
          {"complete", options.complete},
          {"partial_rows", options.partial_rows},
          {"new", added},
          {"resolved", resolved},
          {"open", open},
          {"by_code", std::move(codes)}};
}

}  // namespace dq::report
