// XlsxWriter: rows out as a one-sheet Office Open XML workbook (the cleaned download of an XLSX
// upload), written with libzip. Strings are inline strings, numbers numbers (whole numbers of
// 12 digits or more with the "0" format, so a GTIN shows all its digits), booleans booleans.
// Characters XML 1.0 cannot hold are written as Excel's _xHHHH_ escapes.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/status.h"
#include "dq/ingest/row_reader.h"

namespace dq::ingest {

class XlsxWriter {
 public:
  explicit XlsxWriter(const std::vector<std::string>& header);
  void WriteRow(std::span<const std::string_view> cells, std::span<const CellKind> kinds);
  // The workbook's bytes, with the sheet named `sheet_name` ("Sheet1" when empty).
  Result<std::string> Finish(std::string_view sheet_name);

 private:
  void Cell(size_t col, std::string_view text, CellKind kind);
  std::string sheet_;  // the <sheetData> rows so far
  size_t width_ = 0;
  uint64_t row_ = 0;
};

}  // namespace dq::ingest
