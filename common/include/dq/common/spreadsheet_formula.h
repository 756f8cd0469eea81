// Cells a spreadsheet would run as a formula (CSV injection, OWASP's "CSV Injection" page): one
// definition for the writers of CSV files (dq_ingest's RowWriter, the issues CSV) and for the
// rules that must never fix a value into one (the validator). See docs/api.md, "Safe
// spreadsheets".
#pragma once

#include <string_view>

namespace dq {

// True when `cell` starts with '=', '+', '-', '@', TAB or CR. A plain signed number ("-5",
// "+1.50", "-0,25": a sign, digits, at most one '.' or ',') is not one: it cannot carry a
// formula, and a leading ' would turn a negative stock into text.
inline bool StartsLikeAFormula(std::string_view cell) {
  if (cell.empty()) return false;
  const char c = cell[0];
  if (c == '=' || c == '@' || c == '\t' || c == '\r') return true;
  if (c != '+' && c != '-') return false;
  size_t digits = 0, points = 0;
  for (char d : cell.substr(1)) {
    if (d >= '0' && d <= '9') {
      ++digits;
    } else if ((d == '.' || d == ',') && points == 0) {
      ++points;
    } else {
      return true;
    }
  }
  return digits == 0;
}

}  // namespace dq
