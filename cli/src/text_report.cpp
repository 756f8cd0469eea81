#include "text_report.h"

#include <algorithm>
#include <string>
#include <vector>

namespace dq::offline {
namespace {

// 1234567 -> "1,234,567".
std::string Count(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// A value as the report shows it: quoted, control characters escaped, cut after kMaxChars
// characters (never inside a UTF-8 sequence).
std::string Shown(std::string_view v) {
  constexpr size_t kMaxChars = 60;
  std::string out = "\"";
  size_t chars = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const auto c = static_cast<unsigned char>(v[i]);
    if ((c & 0xC0) != 0x80 && ++chars > kMaxChars) {
      out += "...";
      break;
    }
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c == '"') out += "\\\"";
    else if (c < 0x20 || c == 0x7f) out += "?";
    else out.push_back(static_cast<char>(c));
  }
  out.push_back('"');
  return out;
}

std::string Pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string PadLeft(const std::string& s, size_t width) {
  return s.size() < width ? std::string(width - s.size(), ' ') + s : s;
}

}  // namespace

void WriteTextReport(const CheckOutcome& o, std::string_view name, std::ostream& out) {
  const report::FileCheck& c = o.check;
  const auto& st = o.stats;
  out << (name.empty() ? "(standard input)" : name) << ": " << ingest::FormatName(c.format)
      << ", " << c.encoding << ", " << Count(st.rows()) << (st.rows() == 1 ? " row" : " rows")
      << "; checks " << c.check_types.Text();
  if (!c.platform.empty()) out << "; platform " << c.platform;
  out << "\n";
  if (!c.source.empty() && c.source != "generic") {
    out << "Source: " << c.source;
    if (!c.source_reason.empty()) out << " (" << c.source_reason << ")";
    out << "\n";
  }
  out << "Mapping" << (c.mapping_inferred ? " (inferred)" : "") << ":";
  for (size_t i = 0; i < c.mapping.size(); ++i) {
    out << (i ? ", " : " ") << c.mapping[i].first << " = " << Shown(c.mapping[i].second);
  }
  out << "\n";
  for (const std::string& note : c.notes) out << "Note: " << note << "\n";
  if (!c.unit_note.empty()) out << "Note: " << c.unit_note << "\n";
  out << "\n";
  out << "  Health score  " << st.score() << " / 100\n";
  out << "  Rows          " << Count(st.rows_error()) << " with errors, "
      << Count(st.rows_warning()) << " with warnings only, " << Count(st.rows_fixed())
      << " with fixes\n";
  out << "  Issues        " << Count(st.errors()) << (st.errors() == 1 ? " error, " : " errors, ")
      << Count(st.warnings()) << (st.warnings() == 1 ? " warning, " : " warnings, ")
      << Count(st.fixes()) << (st.fixes() == 1 ? " fix\n" : " fixes\n");
  if (o.codes.empty()) {
    out << "\nNo issues.\n";
    return;
  }
  // Errors first, then the most frequent.
  std::vector<const std::pair<const std::tuple<std::string, std::string, std::string>,
                              CodeTally>*>
      order;
  for (const auto& e : o.codes) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) {
    const bool ea = std::get<0>(a->first) == "error", eb = std::get<0>(b->first) == "error";
    if (ea != eb) return ea;
    return a->second.count > b->second.count;
  });
  out << "\nTop issues\n";
  for (size_t k = 0; k < order.size() && k < kTopCodes; ++k) {
    const auto& [key, tally] = *order[k];
    const auto& [severity, code, field] = key;
    out << "  " << Pad(severity, 8) << Pad(code, 28) << Pad(field, 18)
        << PadLeft(Count(static_cast<uint64_t>(tally.count)), 9) << "\n";
    for (const auto& e : tally.examples) {
      out << "      row " << Pad(Count(e.row), 9) << Shown(e.original);
      if (e.fixed) out << " -> " << Shown(*e.fixed);
      out << "\n";
    }
  }
  if (order.size() > kTopCodes) {
    out << "  ... and " << order.size() - kTopCodes << " more codes (--format json lists every "
        << "issue)\n";
  }
  if (o.issues_found > static_cast<int64_t>(o.issues.size())) {
    out << "\nOnly the first " << Count(o.issues.size()) << " of " << Count(o.issues_found)
        << " issues are listed by --format json|csv (--max-issues); the counts are exact.\n";
  }
}

}  // namespace dq::offline
