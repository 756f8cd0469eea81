#include "ingest/row_reader.h"

#include "ingest/csv_reader.h"
#include "ingest/json_reader.h"
#include "ingest/xlsx_reader.h"

namespace dq::ingest {

std::unique_ptr<RowReader> MakeRowReader(FileFormat format, const ReaderLimits& limits) {
  switch (format) {
    case FileFormat::kCsv: return std::make_unique<CsvReader>(limits);
    case FileFormat::kTsv: return std::make_unique<CsvReader>(limits, '\t');
    case FileFormat::kJsonArray: return std::make_unique<JsonArrayReader>(limits);
    case FileFormat::kNdjson: return std::make_unique<NdjsonReader>(limits);
    case FileFormat::kXlsx: return std::make_unique<XlsxReader>(limits);
  }
  return std::make_unique<CsvReader>(limits);
}

Result<FileSummary> ScanFile(FileFormat format, std::string_view bytes,
                             const ReaderLimits& limits) {
  std::unique_ptr<RowReader> reader = MakeRowReader(format, limits);
  reader->Feed(bytes);
  reader->Finish();
  while (true) {
    Result<ReadState> s = reader->Next();
    if (!s.ok()) return s.status();
    if (*s == ReadState::kEnd) break;
    if (*s == ReadState::kNeedMore) {  // cannot happen after Finish(); a reader bug
      return Status(ErrorCode::kInternal, "reader asked for more input after the end");
    }
  }
  FileSummary summary;
  summary.format = format;
  summary.dialect = reader->dialect();
  summary.header = reader->header();
  summary.sheet_name = reader->sheet_name();
  summary.data_rows = reader->rows_read();
  return summary;
}

}  // namespace dq::ingest
