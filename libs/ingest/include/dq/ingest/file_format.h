// Which of the accepted upload formats a file is in, decided from what the client declared (the
// Content-Type of the body or of the multipart `file` part, and the filename) and, where that is
// not specific, from the first bytes. See docs/ingest.md for the full rules.
//
//   Result<FileFormat> f = DetectFormat("text/csv; charset=utf-8", "products.csv", head);
//   if (!f.ok()) return f.status();  // kUnsupportedMediaType -> 415
#pragma once

#include <string>
#include <string_view>

#include "dq/common/status.h"

namespace dq::ingest {

enum class FileFormat {
  kCsv,        // RFC 4180; delimiter , ; TAB or | detected from the header line
  kTsv,        // CSV rules with TAB as the delimiter
  kJsonArray,  // [ {...}, {...} ]
  kNdjson,     // one JSON object per line
  kXlsx,       // Office Open XML workbook; the first sheet is read
  kXml,        // an RSS 2.0 / Atom product feed (Google Merchant Center, WooCommerce's export)
};

// "csv", "tsv", "json", "ndjson", "xlsx", "xml".
std::string_view FormatName(FileFormat format);
// The Content-Type for a download in this format, e.g. "text/csv; charset=utf-8".
std::string_view ContentTypeFor(FileFormat format);

// How many leading bytes DetectFormat looks at; pass at least this many when the file is longer.
inline constexpr size_t kSniffBytes = 4096;

// Decides the format.
//   content_type: the declared media type, parameters allowed ("" when absent).
//   filename:     the client's filename ("" when absent); only its extension is used.
//   head:         the first bytes of the file (up to kSniffBytes; fewer when the file is shorter).
// XLSX is chosen by its zip signature together with an .xlsx/.xlsm name or the XLSX media
// type (or a generic type), and by the XLSX media type. XML by its media types (application/xml,
// text/xml, application/rss+xml, application/atom+xml), the .xml/.rss/.atom extensions, or, for
// a generic type and no known extension, a first significant byte '<'. Text must already be
// UTF-8 (see text_encoding.h) and not compressed (see gzip.h): upload_decode.h does both first.
// Errors: kUnsupportedMediaType for a media type or extension we do not read (e.g. .xls, .ods,
// application/pdf) and for content that is binary (NUL bytes, or a zip that is not named or
// typed as XLSX, gzip, PDF); kInvalidRequest for an encrypted (password-protected) workbook.
Result<FileFormat> DetectFormat(std::string_view content_type, std::string_view filename,
                                std::string_view head);

}  // namespace dq::ingest
