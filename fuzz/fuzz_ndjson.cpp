// NdjsonReader: no crash, no leak, bounded; chunking never changes the rows; the writer's output
// reads back to the same header, rows and cell kinds. And the record reader's two halves agree:
// the input taken as one record is read by the fast half (simdjson tokens, json_fast.h) only as
// the hand-written parser alone reads it, to the byte.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "dq/ingest/json_fast.h"
#include "dq/ingest/json_reader.h"

using namespace dq::ingest;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size == 0) return 0;
  const size_t chunk = 1 + (bytes[0] & 0x3F);
  const std::string_view data(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  const ReaderLimits limits = fuzz::SmallLimits();

  internal::JsonObjectParser alone(limits.max_json_depth), with_fast(limits.max_json_depth);
  internal::FastObjectReader fast;
  if (fast.Read(data, with_fast)) {
    fuzz::Check(!alone.Parse(data), "the fast half took a record the parser refuses");
    const auto& a = fast.fields();
    const auto& b = alone.fields();
    fuzz::Check(a.size() == b.size(), "the halves read another number of members");
    for (size_t k = 0; k < a.size(); ++k) {
      fuzz::Check(a[k].key == b[k].key && a[k].raw_key == b[k].raw_key, "the halves differ: key");
      fuzz::Check(a[k].kind == b[k].kind && a[k].value == b[k].value &&
                      a[k].raw_value == b[k].raw_value,
                  "the halves differ: value");
    }
  }
  auto make = [&] { return std::make_unique<NdjsonReader>(limits); };
  const fuzz::Read whole = fuzz::ReadWith(make, data, 0);
  const fuzz::Read chunked = fuzz::ReadWith(make, data, chunk);
  fuzz::CheckChunkingAgrees(whole, chunked);
  if (!whole.ok) return 0;

  const std::string written = fuzz::WriteBack(FileFormat::kNdjson, whole);
  ReaderLimits roomy = limits;
  roomy.max_record_bytes = 8 * written.size() + 16;  // escaping may lengthen records
  auto reread = [&] { return std::make_unique<NdjsonReader>(roomy); };
  const fuzz::Read again = fuzz::ReadWith(reread, written, 0);
  fuzz::Check(again.ok, "written JSON does not read back");
  fuzz::Check(again.header == whole.header, "header changed in the round trip");
  fuzz::Check(again.rows == whole.rows, "rows changed in the round trip");
  fuzz::Check(again.kinds == whole.kinds, "cell kinds changed in the round trip");
  return 0;
}
