// The engine's phone fast path against libphonenumber on arbitrary bytes: no crash, no
// sanitizer report, and whenever the fast path answers, libphonenumber gives the same validity
// and E.164 (docs/architecture.md, "Phone numbers"). The first byte picks the default region.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>

#include "phone.h"
#include "phone_fast_path.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size == 0 || size > 256) return 0;
  static constexpr const char* kRegions[] = {"US", "DE", "GB", "FR",  "AR", "BR", "MX", "IT",
                                             "RU", "KZ", "AG", "GG",  "SM", "NF", "JP", "TW",
                                             "ZZ", "",   "us", "001", "IN", "CN", "AU", "NL"};
  const char* region = kRegions[bytes[0] % std::size(kRegions)];
  const std::string_view number(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  std::string e164;
  const auto outcome = dq::validator::phone_fast_path::Check(number, region, &e164);
  if (outcome == dq::validator::phone_fast_path::Outcome::kUnsure) return 0;
  const auto ref = dq::validator::CheckWithLibphonenumber(number, region);
  const bool valid = outcome == dq::validator::phone_fast_path::Outcome::kValid;
  if (valid != ref.valid || (valid && e164 != ref.e164)) {
    std::fprintf(stderr,
                 "fast path disagrees with libphonenumber on \"%.*s\" (region %s): %s vs %s\n",
                 static_cast<int>(number.size()), number.data(), region,
                 valid ? e164.c_str() : "invalid", ref.valid ? ref.e164.c_str() : "invalid");
    std::abort();
  }
  return 0;
}
