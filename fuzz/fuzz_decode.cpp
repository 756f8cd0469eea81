// PrepareFile (gzip through zlib, UTF-16 / Windows-1252 / ISO-8859 through uchardet and iconv,
// format detection): no crash, no leak; the output never exceeds the limit, is valid UTF-8 for
// text formats, and valid UTF-8 input is passed through unchanged.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "dq/ingest/upload_decode.h"
#include "dq/ingest/utf8.h"

using namespace dq::ingest;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size == 0) return 0;
  static constexpr const char* kTypes[] = {"", "text/csv", "text/csv; charset=windows-1252",
                                           "text/plain; charset=iso-8859-15",
                                           "application/json; charset=utf-16le",
                                           "application/gzip", "text/csv; charset=utf-8"};
  static constexpr const char* kNames[] = {"", "a.csv", "a.csv.gz", "a.xlsx", "a.json", "a.tsv"};
  const char* type = kTypes[bytes[0] % std::size(kTypes)];
  const char* name = kNames[(bytes[0] / 8) % std::size(kNames)];
  const std::string_view data(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  constexpr size_t kMax = 1 << 20;
  auto out = PrepareFile(type, name, data, kMax);
  if (!out.ok()) return 0;
  fuzz::Check(out->data().size() <= kMax, "prepared file over the limit");
  if (out->format != FileFormat::kXlsx) {
    fuzz::Check(FindInvalidUtf8(out->data()) == std::string_view::npos,
                "prepared text is not UTF-8");
    if (!out->gzipped && FindInvalidUtf8(data) == std::string_view::npos &&
        !data.starts_with("\xFF\xFE") && !data.starts_with("\xFE\xFF")) {
      fuzz::Check(out->data() == data, "valid UTF-8 was changed");
    }
  }
  return 0;
}
