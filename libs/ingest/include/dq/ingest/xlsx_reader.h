// XlsxReader: the first worksheet of an Office Open XML workbook (.xlsx, .xlsm) as rows, read
// with libzip (the container) and expat (the XML). See docs/ingest.md ("XLSX").
//
// - The whole file is buffered by Feed() (a zip needs its central directory, at the end); rows
//   are produced after Finish(). The sheet itself is streamed: it is inflated and parsed 64 KiB
//   at a time, so memory is the file, the shared strings and one row.
// - "First sheet" is the first <sheet> of xl/workbook.xml, found through its relationship.
// - Cells come out as Excel shows them: shared and inline strings as text; numbers without
//   exponent or trailing ".0" when they are whole (a 13-digit GTIN stays 13 digits), else with
//   up to 15 significant digits; numbers whose style is a date format as YYYY-MM-DD (with
//   " HH:MM:SS" when the format shows a time); booleans as TRUE / FALSE; error values (#N/A) as
//   written; formulas by their cached value.
// - The header is the first row with a non-empty cell; trailing empty header cells are dropped;
//   rows with no value are skipped; a value right of the last header column is an error naming
//   the cell.
// - Limits (XlsxLimits): rows, shared strings (count and bytes), the expanded size of each part
//   read. Over a limit: kFileTooLarge (expanded size) or kInvalidRequest (rows, strings).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dq/ingest/row_reader.h"

namespace dq::ingest {

class XlsxReader final : public RowReader {
 public:
  explicit XlsxReader(const ReaderLimits& limits);
  ~XlsxReader() override;

  void Feed(std::string_view bytes) override;
  void Finish() override;
  Result<ReadState> Next() override;

  const std::vector<std::string>& header() const override { return header_; }
  std::span<const std::string_view> row() const override { return row_views_; }
  std::span<const CellKind> cell_kinds() const override { return row_kinds_; }
  uint64_t rows_read() const override { return rows_read_; }
  uint64_t record_offset() const override { return sheet_row_; }
  std::string sheet_name() const override { return sheet_name_; }

  struct Impl;

 private:
  Status Open();
  Result<ReadState> Pump();

  ReaderLimits limits_;
  std::string file_;
  bool finished_ = false;
  bool opened_ = false;
  Status error_;
  std::unique_ptr<Impl> impl_;
  std::vector<std::string> header_;
  std::vector<std::string> row_cells_;
  std::vector<std::string_view> row_views_;
  std::vector<CellKind> row_kinds_;
  uint64_t rows_read_ = 0;
  uint64_t sheet_row_ = 0;  // the spreadsheet row number of the current row
  std::string sheet_name_;
};

// The Excel "General" display of a number cell's stored text ("4006381333931", "19.99", "1E+20"
// stays as Excel shows it: "1E+20"). Exposed for tests.
std::string ExcelNumberText(std::string_view stored);
namespace internal {
// ExcelNumberText without its shortcut for text that is already in that form (strtod, then
// printf): the reference the shortcut is tested against.
std::string FormatExcelNumber(std::string_view stored);
}  // namespace internal
// An Excel serial day number as YYYY-MM-DD (with " HH:MM:SS" when with_time), for the 1900
// (default) or 1904 date system. "" when the serial is out of range.
std::string ExcelSerialDate(double serial, bool date1904, bool with_time);

}  // namespace dq::ingest
