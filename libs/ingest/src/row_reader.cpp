#include "dq/ingest/row_reader.h"

#include "dq/common/ascii.h"

#include "dq/ingest/csv_reader.h"
#include "dq/ingest/json_reader.h"
#include "dq/ingest/xlsx_reader.h"
#include "dq/ingest/xml_reader.h"

namespace dq::ingest {

std::unique_ptr<RowReader> MakeRowReader(FileFormat format, const ReaderLimits& limits) {
  switch (format) {
    case FileFormat::kCsv: return std::make_unique<CsvReader>(limits);
    case FileFormat::kTsv: return std::make_unique<CsvReader>(limits, '\t');
    case FileFormat::kJsonArray: return std::make_unique<JsonArrayReader>(limits);
    case FileFormat::kNdjson: return std::make_unique<NdjsonReader>(limits);
    case FileFormat::kXlsx: return std::make_unique<XlsxReader>(limits);
    case FileFormat::kXml: return std::make_unique<XmlReader>(limits);
  }
  return std::make_unique<CsvReader>(limits);
}

Result<FileSummary> ScanFile(FileFormat format, std::string_view bytes,
                             const ReaderLimits& limits, bool learn_date_orders,
                             RowObserver* observer) {
  std::unique_ptr<RowReader> reader = MakeRowReader(format, limits);
  reader->Feed(bytes);
  reader->Finish();
  FileSummary summary;
  if (observer != nullptr) observer->Reading(*reader);
  while (true) {
    Result<ReadState> s = reader->Next();
    if (!s.ok()) return s.status();
    if (*s == ReadState::kEnd) break;
    if (*s == ReadState::kNeedMore) {  // cannot happen after Finish(); a reader bug
      return Status(ErrorCode::kInternal, "reader asked for more input after the end");
    }
    if (observer != nullptr) observer->Row(reader->header(), reader->row());
    if (!learn_date_orders) continue;
    // The day/month order each column's A/B/YYYY dates show; most cells fail the length test.
    const std::span<const std::string_view> row = reader->row();
    if (summary.date_orders.size() < row.size()) summary.date_orders.resize(row.size());
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string_view cell = row[c];
      if (cell.size() < 8 || cell.size() > 12) continue;  // A/B/YYYY, maybe padded
      summary.date_orders[c] =
          dates::Combine(summary.date_orders[c], dates::OrderShownBy(ascii::Trim(cell)));
    }
  }
  summary.format = format;
  summary.dialect = reader->dialect();
  summary.header = reader->header();
  summary.sheet_name = reader->sheet_name();
  summary.data_rows = reader->rows_read();
  return summary;
}

}  // namespace dq::ingest
