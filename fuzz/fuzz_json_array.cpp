// JsonArrayReader: no crash, no leak, bounded; chunking never changes the rows; the writer's output
// reads back to the same header, rows and cell kinds.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "dq/ingest/json_reader.h"

using namespace dq::ingest;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size == 0) return 0;
  const size_t chunk = 1 + (bytes[0] & 0x3F);
  const std::string_view data(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  const ReaderLimits limits = fuzz::SmallLimits();
  auto make = [&] { return std::make_unique<JsonArrayReader>(limits); };
  const fuzz::Read whole = fuzz::ReadWith(make, data, 0);
  const fuzz::Read chunked = fuzz::ReadWith(make, data, chunk);
  fuzz::CheckChunkingAgrees(whole, chunked);
  if (!whole.ok) return 0;

  const std::string written = fuzz::WriteBack(FileFormat::kJsonArray, whole);
  ReaderLimits roomy = limits;
  roomy.max_record_bytes = 8 * written.size() + 16;  // escaping may lengthen records
  auto reread = [&] { return std::make_unique<JsonArrayReader>(roomy); };
  const fuzz::Read again = fuzz::ReadWith(reread, written, 0);
  fuzz::Check(again.ok, "written JSON does not read back");
  fuzz::Check(again.header == whole.header, "header changed in the round trip");
  fuzz::Check(again.rows == whole.rows, "rows changed in the round trip");
  fuzz::Check(again.kinds == whole.kinds, "cell kinds changed in the round trip");
  return 0;
}
