// RowReader: one interface over every accepted upload format, fed in chunks, producing rows of
// cells that point into the reader's buffer (no allocation per cell).
//
//   std::unique_ptr<RowReader> reader = MakeRowReader(FileFormat::kCsv, ReaderLimits{});
//   for (std::string_view chunk : chunks) {
//     reader->Feed(chunk);
//     while (true) {
//       Result<ReadState> s = reader->Next();
//       if (!s.ok()) return s.status();            // kInvalidRequest / kEmptyFile
//       if (*s != ReadState::kRow) break;          // kNeedMore: feed the next chunk
//       Use(reader->header(), reader->row());
//     }
//   }
//   reader->Finish();
//   ... drain with Next() the same way until kEnd ...
//
// Contract shared by all readers:
// - Bytes passed to Feed() must stay valid until Next() next returns kNeedMore, kEnd or an error
//   (the reader reads them in place and copies only an unfinished record's tail).
// - row() and cell_kinds() are valid until the next call of Feed(), Finish() or Next().
// - Every row has exactly header().size() cells when it is returned. For JSON input the header
//   is the union of keys in first-seen order, so it can grow as rows are read; an earlier row is
//   not revisited. After kEnd, header() is final.
// - Memory is bounded by ReaderLimits::max_record_bytes plus the chunk being read.
// - Errors are sticky: once Next() fails it returns the same Status forever. Messages name the
//   data row (1-based, header excluded) or "header", and the byte offset in the file.
// - At the end of input, a file with no data rows yields kEmptyFile (0 bytes, only blank lines, or
//   only a header / "[]").
// Not thread-safe; one reader per file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/date_order.h"

#include "dq/common/status.h"
#include "dq/ingest/file_format.h"

namespace dq::ingest {

struct ReaderLimits {
  // Longest record (a CSV line with its embedded newlines, one JSON object). A single 1 MB line
  // is fine with the default.
  size_t max_record_bytes = 4 * 1024 * 1024;
  // Most cells per record, and most columns in the header (for JSON: distinct keys).
  size_t max_cells = 1024;
  // Deepest nesting inside a JSON value (objects and arrays inside a record's values).
  size_t max_json_depth = 64;
  // JSON: a nested object's members are columns named by their path ("meta.barcode"), down to
  // this many levels of objects inside a record; an object deeper than that is an error (400).
  // Member counts are bounded by max_cells: every path is a column.
  size_t max_json_path_depth = 8;
  // XLSX (see xlsx_reader.h): data rows of the sheet (Excel's own maximum by default), shared
  // strings (count and total bytes), and the expanded size of any one part of the zip
  // (the sheet XML, shared strings, styles).
  uint64_t max_xlsx_rows = 1048576;
  uint64_t max_shared_strings = 2000000;
  uint64_t max_shared_string_bytes = 128 * 1024 * 1024;
  uint64_t max_xlsx_part_bytes = 512 * 1024 * 1024;
  // XML feeds (see xml_reader.h): the deepest nesting of elements in the document.
  size_t max_xml_depth = 64;
};

struct XmlRowSource;  // xml_reader.h

enum class ReadState {
  kRow,       // row() holds the next data row
  kNeedMore,  // feed more bytes (or call Finish())
  kEnd,       // the input is finished and every row has been returned
};

// What a cell was in the input. CSV cells are all kString. JSON readers report the JSON type so a
// writer can give numbers back as numbers.
enum class CellKind : uint8_t {
  kString,
  kNumber,   // text is the JSON number exactly as written
  kBool,     // "true" / "false"
  kNull,     // text is ""
  kJson,     // a nested object or array, as compact JSON text
  kMissing,  // the key was absent from this object; text is ""
};

// The CSV dialect found in (or chosen for) a file; the writer uses it to answer in kind.
struct CsvDialect {
  char delimiter = ',';
  bool crlf = false;  // the first record ended with CRLF
  bool bom = false;   // the file started with a UTF-8 BOM
  bool operator==(const CsvDialect&) const = default;
};

class RowReader {
 public:
  virtual ~RowReader() = default;

  // Appends input. Never fails; problems surface from Next().
  virtual void Feed(std::string_view bytes) = 0;
  // No more input will come.
  virtual void Finish() = 0;
  // Advances to the next data row. Errors: kInvalidRequest (malformed record, invalid UTF-8, a
  // limit exceeded), kEmptyFile (input finished without data rows).
  virtual Result<ReadState> Next() = 0;

  // Column names: for CSV the first non-blank record; for JSON the keys seen so far.
  virtual const std::vector<std::string>& header() const = 0;
  // The current row (after Next() returned kRow).
  virtual std::span<const std::string_view> row() const = 0;
  // Parallel to row() for JSON readers; empty for CSV (every cell is a string).
  virtual std::span<const CellKind> cell_kinds() const = 0;
  // Data rows returned so far.
  virtual uint64_t rows_read() const = 0;
  // Byte offset in the file of the start of the current (or failing) record.
  virtual uint64_t record_offset() const = 0;
  // CSV/TSV only: how many fields the current record had in the file, before it was padded or
  // its extra cells dropped to the header's width (row() always has the header's width). 0 for
  // the other formats, whose rows have no field count of their own.
  virtual uint64_t fields_read() const { return 0; }
  // The dialect in use (CSV/TSV only; defaults for JSON).
  virtual CsvDialect dialect() const { return {}; }
  // The name of the sheet read (XLSX only; "" for text formats), for the cleaned workbook.
  virtual std::string sheet_name() const { return {}; }
  // XML only: where the current row's values lie in the file, so that the writer can give the
  // file back with only the fixed values changed (see xml_reader.h); after kEnd, the file's end.
  // nullptr for the other formats.
  virtual const XmlRowSource* xml_source() const { return nullptr; }
  // JSON only: each column's path of keys, when some column is a nested object's member
  // ("meta.barcode" is {"meta", "barcode"}; a top-level key, even one with a dot, is {key}), so
  // that the writer puts each value back inside its object. Covers the columns of header() so
  // far. nullptr when no column is nested, and for the other formats.
  virtual const std::vector<std::vector<std::string>>* json_paths() const { return nullptr; }
  // XML only: the namespace URIs of the elements seen so far in items (an item's own children),
  // in first-seen order, at most 32: how a feed says which vocabulary it speaks (Google's
  // http://base.google.com/ns/1.0, WordPress's export namespace), for source detection.
  virtual std::span<const std::string> xml_namespaces() const { return {}; }
};

// A reader for `format`. TSV is CSV with the delimiter fixed to TAB.
std::unique_ptr<RowReader> MakeRowReader(FileFormat format, const ReaderLimits& limits = {});

// One full pass over a file held in memory: the final header, the data-row count and the CSV
// dialect, with every record checked. For the upload endpoint, which must count rows (quota) and
// reject bad files before answering 202.
struct FileSummary {
  FileFormat format = FileFormat::kCsv;
  CsvDialect dialect;
  std::vector<std::string> header;
  uint64_t data_rows = 0;
  std::string sheet_name;  // XLSX only
  // Per header column, when asked for: the day/month order its A/B/YYYY dates show over the
  // whole file (31/12/2026 shows day first). A job hands the expiry_date column's order to the
  // validator, so every chunk is read alike (docs/issue-codes.md, DATE_REFORMATTED).
  std::vector<dates::DateOrder> date_orders;
};
// Sees every data row of a scan, in order (the source scan of an upload: source_scan.h).
class RowObserver {
 public:
  virtual ~RowObserver() = default;
  // header: the columns so far (JSON: it may grow); row: valid during the call only.
  virtual void Row(const std::vector<std::string>& header,
                   std::span<const std::string_view> row) = 0;
  // Called once before the first row with the reader the rows come from (valid until the last
  // Row call; not after), for what a reader knows besides cells (RowReader::xml_namespaces).
  virtual void Reading(const RowReader& reader) { (void)reader; }
};

// With learn_date_orders, also fills FileSummary::date_orders (about a third more time, so only
// when an inventory check will read dates). With an observer, hands it every data row.
Result<FileSummary> ScanFile(FileFormat format, std::string_view bytes,
                             const ReaderLimits& limits = {}, bool learn_date_orders = false,
                             RowObserver* observer = nullptr);

}  // namespace dq::ingest
