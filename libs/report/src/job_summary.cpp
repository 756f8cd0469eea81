#include "dq/report/job_summary.h"

#include <algorithm>

#include "dq/common/json_escape.h"

namespace dq::report {
namespace {

// Cuts s to at most n bytes without splitting a UTF-8 sequence.
std::string Cut(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  size_t end = n;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

}  // namespace

void JobSummaryBuilder::Add(const validator::v1::Issue& i) {
  const bool error = i.severity() == validator::v1::SEVERITY_ERROR;
  FieldCounts& f = fields_[i.field()];
  (error ? f.errors : f.warnings) += 1;
  if (i.has_fixed_value()) f.fixes += 1;
  CodeCounts& c = codes_[{i.code(), i.field(), error ? "error" : "warning"}];
  c.count += 1;
  if (c.examples.size() < kMaxExamples) {
    c.examples.emplace_back(i.row(), Cut(i.original_value(), kMaxExampleBytes));
  }
}

std::string JobSummaryBuilder::Json() const {
  std::string out = "{\"by_field\":[";
  bool first = true;
  for (const auto& [field, c] : fields_) {
    if (!first) out += ',';
    first = false;
    out += "{\"field\":";
    AppendJsonString(out, field);
    out += ",\"errors\":" + std::to_string(c.errors) + ",\"warnings\":" +
           std::to_string(c.warnings) + ",\"fixes\":" + std::to_string(c.fixes) + "}";
  }
  out += "],\"by_code\":[";
  std::vector<const decltype(codes_)::value_type*> order;
  for (const auto& e : codes_) order.push_back(&e);
  // Errors before warnings (what stops a row comes first), then most frequent first; ties keep
  // the map's order (code, field).
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) {
    const bool a_error = std::get<2>(a->first) == "error";
    const bool b_error = std::get<2>(b->first) == "error";
    if (a_error != b_error) return a_error;
    return a->second.count > b->second.count;
  });
  first = true;
  for (const auto* e : order) {
    const auto& [key, c] = *e;
    if (!first) out += ',';
    first = false;
    out += "{\"code\":";
    AppendJsonString(out, std::get<0>(key));
    out += ",\"field\":";
    AppendJsonString(out, std::get<1>(key));
    out += ",\"severity\":\"" + std::get<2>(key) + "\",\"count\":" + std::to_string(c.count) +
           ",\"examples\":[";
    for (size_t k = 0; k < c.examples.size(); ++k) {
      if (k) out += ',';
      out += "{\"row\":" + std::to_string(c.examples[k].first) + ",\"original_value\":";
      AppendJsonString(out, c.examples[k].second);
      out += '}';
    }
    out += "]}";
  }
  out += "]}";
  return out;
}

}  // namespace dq::report
