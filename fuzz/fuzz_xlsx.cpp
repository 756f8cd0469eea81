// XlsxReader (libzip + expat): no crash, no leak, bounded; chunked feeding never changes the
// rows; what the XLSX writer makes of the rows reads back to the same header and rows.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "dq/ingest/xlsx_reader.h"

using namespace dq::ingest;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size == 0) return 0;
  const size_t chunk = 1 + (bytes[0] & 0x3F) * 64;
  const std::string_view data(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  ReaderLimits limits = fuzz::SmallLimits();
  limits.max_xlsx_rows = 1000;
  limits.max_shared_strings = 10000;
  limits.max_shared_string_bytes = 1 << 20;
  limits.max_xlsx_part_bytes = 4 << 20;
  auto make = [&] { return std::make_unique<XlsxReader>(limits); };
  const fuzz::Read whole = fuzz::ReadWith(make, data, 0);
  const fuzz::Read chunked = fuzz::ReadWith(make, data, chunk);
  fuzz::CheckChunkingAgrees(whole, chunked);
  if (!whole.ok) return 0;

  const std::string written = fuzz::WriteBack(FileFormat::kXlsx, whole);
  ReaderLimits roomy = limits;
  roomy.max_xlsx_part_bytes = 64 << 20;
  auto reread = [&] { return std::make_unique<XlsxReader>(roomy); };
  const fuzz::Read again = fuzz::ReadWith(reread, written, 0);
  fuzz::Check(again.ok, "written XLSX does not read back");
  fuzz::Check(again.header == whole.header, "header changed in the round trip");
  fuzz::Check(again.rows == whole.rows, "rows changed in the round trip");
  return 0;
}
