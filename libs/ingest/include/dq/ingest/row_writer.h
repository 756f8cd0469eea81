// RowWriter: serialises rows back into an upload's format and column order, for the cleaned
// download. Output accumulates in out(); the caller sends it and clears it as it likes, so memory
// stays bounded by what the caller lets pile up.
//
//   RowWriter w(summary.format, summary.dialect, summary.header);   // header written now
//   for (...) w.WriteRow(cells, kinds);
//   w.Finish();                                                     // closes a JSON array
//   Send(w.out());
//
// CSV/TSV: the dialect's delimiter and line ending (and BOM when the input had one); a cell is
// quoted when it contains the delimiter, a quote, CR or LF, or starts or ends with a space (so it
// reads back identically); quotes are doubled.
// JSON array / NDJSON: one object per row with the header's names as keys. Cells are strings,
// except where `kinds` says otherwise: kNumber / kBool are written bare when they are valid JSON
// numbers / booleans (else as strings), kNull as null, kJson bare (it came from our parser),
// kMissing omits the key. When the source reader (set_source) read nested objects as columns
// (RowReader::json_paths()), each such value is written back inside its object: the objects
// keep their place among the keys (where their first member with a value is) and their members'
// order, so a file in this writer's layout comes back byte for byte with only fixed values
// changed.
// XLSX: one sheet (named with set_sheet_name(), default "Sheet1"), built in memory; out() stays
// empty until Finish() puts the whole workbook there. See xlsx_writer.h.
// XML: the file is the upload itself with the changed values written in place (xml_writer.h),
// so the writer needs the reader the rows come from: set_source(reader) before the first row,
// and call WriteRow() while that reader's row is current, Finish() after it returned kEnd.
// Without a source nothing is written.
// Rows with fewer cells than the header are padded (CSV) or have the keys omitted (JSON); cells
// beyond the header are ignored.
// Formulas (CSV/TSV): with FormulaCells::kNeutralise, a cell a spreadsheet would run as a formula
// (StartsLikeAFormula) is written with a leading ' (OWASP's rule against CSV injection); the
// header too. The default, kKeep, writes cells as they are (a file for machines). XLSX cells are
// always written as values (inline strings, numbers, booleans), never as formulas.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/spreadsheet_formula.h"
#include "dq/ingest/file_format.h"
#include "dq/ingest/row_reader.h"
#include "dq/ingest/xlsx_writer.h"
#include "dq/ingest/xml_writer.h"

namespace dq::ingest {

// What a CSV/TSV writer does with a cell that starts like a formula.
enum class FormulaCells { kKeep, kNeutralise };

// Appends `cell` to `out`, after a ' when it starts like a formula (dq::StartsLikeAFormula in
// dq/common/spreadsheet_formula.h: '=', '+', '-', '@', TAB or CR, not a plain signed number).
void AppendNeutralised(std::string& out, std::string_view cell);

class RowWriter {
 public:
  RowWriter(FileFormat format, CsvDialect dialect, std::vector<std::string> header,
            FormulaCells formulas = FormulaCells::kKeep);

  void WriteRow(std::span<const std::string_view> cells, std::span<const CellKind> kinds = {});
  // Ends the output (the closing ']' of a JSON array; the whole workbook for XLSX). Call once,
  // after the last row. kInternal when libzip cannot build the workbook in memory (out() then
  // holds none of it); the text formats cannot fail.
  Status Finish();

  std::string& out() { return out_; }
  const std::string& out() const { return out_; }
  // XLSX: the name of the sheet in the written workbook (call before Finish()).
  void set_sheet_name(std::string name) { sheet_name_ = std::move(name); }
  // XML: the reader whose rows are written (see above); ignored for the other formats.
  void set_source(const RowReader* reader) { source_ = reader; }
  // JSON: every header column's path of keys (RowReader::json_paths() of a reader that read the
  // whole file), used instead of the source reader's, which knows only the columns it has met:
  // a value for a column the reader has not met yet then goes inside its object too. Must
  // outlive the writer's rows; nullptr: the source's again.
  void set_json_paths(const std::vector<std::vector<std::string>>* paths) { paths_ = paths; }
  // XML: fixes that could not be written into the feed (xml_writer.h); 0 for other formats.
  uint64_t unplaced_fixes() const { return xml_.unplaced(); }
  uint64_t rows_written() const { return rows_; }

 private:
  void WriteCsvCell(std::string_view cell);
  void WriteJsonValue(std::string_view v, CellKind kind);
  // A JSON row whose columns are paths into nested objects.
  void WriteNestedRow(std::span<const std::string_view> cells, std::span<const CellKind> kinds,
                      const std::vector<std::vector<std::string>>& paths);
  struct JsonNode {
    std::string_view key;
    size_t column = SIZE_MAX;  // a value's column; SIZE_MAX for an object
    std::vector<size_t> kids;
  };
  void WriteJsonNode(size_t node, std::span<const std::string_view> cells,
                     std::span<const CellKind> kinds);
  std::vector<JsonNode> nodes_;  // the current row's objects and values, nodes_[0] the row

  FileFormat format_;
  CsvDialect dialect_;
  FormulaCells formulas_;
  std::string neutralised_;  // scratch for a cell with its leading '
  std::vector<std::string> header_;
  std::vector<std::string> json_keys_;  // header names, already escaped and quoted, with ':'
  std::string out_;
  uint64_t rows_ = 0;
  std::unique_ptr<XlsxWriter> xlsx_;
  std::string sheet_name_;
  const RowReader* source_ = nullptr;
  const std::vector<std::vector<std::string>>* paths_ = nullptr;
  XmlFeedWriter xml_;
};


}  // namespace dq::ingest
