// Internal to the XLSX reader: how a sheet writes its cells (xlsx_cells.cpp). Column references
// ("B" of "B7"), the number formats that show a date or a time, and Excel's _xHHHH_ escapes, for
// xlsx_reader.cpp (ColumnLetters for xlsx_writer.cpp too); the text of a number or a date cell
// (ExcelNumberText, ExcelSerialDate) is declared in dq/ingest/xlsx_reader.h and defined beside
// these.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dq::ingest::internal {

inline constexpr uint64_t kMaxColumns = 16384;  // XFD, Excel's last column

// "B" -> 1; 0 when `ref` does not start with column letters.
uint64_t ColumnOfRef(std::string_view ref);
std::string ColumnLetters(uint64_t index);  // 0 -> "A"

// Does an Excel number format code show a date, a time?
struct DateKind {
  bool date = false;
  bool time = false;
};

// The kind that a custom number format's code shows (styles.xml <numFmt formatCode>), and that
// a built-in format shows (its numFmtId).
DateKind KindOfFormatCode(std::string_view code);
DateKind KindOfBuiltinFormat(int id);

// True when `s` holds nothing but spaces, tabs and line breaks.
bool IsBlank(std::string_view s);

// Excel writes characters XML cannot hold as _xHHHH_ (and a literal "_x" as _x005F_x): decode.
void DecodeExcelEscapes(std::string& s);

}  // namespace dq::ingest::internal
