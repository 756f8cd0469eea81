// CSV/TSV reader: no crash, no leak, bounded; chunking never changes the rows; what the writer
// produces reads back to the same header and rows.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "dq/ingest/csv_reader.h"

using namespace dq::ingest;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size == 0) return 0;
  // First byte: chunk size and whether the delimiter is fixed to TAB.
  const size_t chunk = 1 + (bytes[0] & 0x3F);
  const bool tsv = bytes[0] & 0x40;
  const std::string_view data(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  const ReaderLimits limits = fuzz::SmallLimits();
  auto make = [&] { return std::make_unique<CsvReader>(limits, tsv ? '\t' : 0); };
  const fuzz::Read whole = fuzz::ReadWith(make, data, 0);
  const fuzz::Read chunked = fuzz::ReadWith(make, data, chunk);
  fuzz::CheckChunkingAgrees(whole, chunked);
  if (!whole.ok) return 0;

  // The cleaned file copies the BOM and the comment lines above the header as they were; the
  // write-back keeps as many, so a header read after the last comment line allowed stays the
  // header.
  std::string written = fuzz::WriteBack(tsv ? FileFormat::kTsv : FileFormat::kCsv, whole);
  std::string comments;
  for (uint64_t i = 0; i < whole.comment_lines; ++i) comments += "# comment\n";
  written.insert(whole.dialect.bom ? 3 : 0, comments);
  ReaderLimits roomy = limits;
  roomy.max_record_bytes = 4 * written.size() + 16;  // quoting may lengthen records
  auto reread = [&] { return std::make_unique<CsvReader>(roomy, whole.dialect.delimiter); };
  const fuzz::Read again = fuzz::ReadWith(reread, written, 0);
  fuzz::Check(again.ok, "written CSV does not read back");
  fuzz::Check(again.header == whole.header, "header changed in the round trip");
  fuzz::Check(again.rows == whole.rows, "rows changed in the round trip");
  fuzz::Check(again.dialect == whole.dialect, "dialect changed in the round trip");
  return 0;
}
