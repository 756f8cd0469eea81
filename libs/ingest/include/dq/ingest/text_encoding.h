// Text encodings of uploaded CSV/TSV/JSON files: everything is converted to UTF-8 before it is
// read. See docs/ingest.md ("Encodings").
//
// Order of decisions (first match wins):
//   1. UTF-16 LE or BE byte-order mark: UTF-16, converted (the BOM is dropped).
//   2. Valid UTF-8 (with or without BOM; pure ASCII too): UTF-8, whatever charset= says, so a
//      wrong label or a wrong guess can never corrupt a UTF-8 file.
//   3. charset= declared as windows-1252/cp1252, iso-8859-1/latin1 or iso-8859-15/latin9:
//      that encoding.
//   4. libuchardet's guess, when it is Windows-1252, ISO-8859-1 or ISO-8859-15.
//   5. Otherwise 400 naming the first byte that is not UTF-8 and asking for charset=.
// Conversion uses iconv; a byte the encoding does not define (e.g. 0x81 in Windows-1252, an
// unpaired UTF-16 surrogate) is a 400 naming its byte offset.
#pragma once

#include <string>
#include <string_view>

#include "dq/common/status.h"

namespace dq::ingest {

struct DecodedText {
  // Canonical name: "utf-8", "utf-16le", "utf-16be", "windows-1252", "iso-8859-1",
  // "iso-8859-15".
  std::string encoding;
  // The UTF-8 text when a conversion was made; empty when the input was UTF-8 already (use the
  // input as is: no copy).
  std::string converted;
  bool was_converted = false;
};

// The `charset` parameter of a Content-Type, lower-cased and unquoted; "" when absent.
std::string CharsetParam(std::string_view content_type);

// Decides the encoding of `bytes` and converts it to UTF-8. `declared` is the charset parameter
// ("" when none). Errors: kInvalidRequest (undecodable bytes, an unknown or unsupported declared
// charset, an encoding that cannot be identified), kUnsupportedMediaType never.
Result<DecodedText> DecodeText(std::string_view bytes, std::string_view declared);

}  // namespace dq::ingest
