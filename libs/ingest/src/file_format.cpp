#include "dq/ingest/file_format.h"

#include <array>
#include "dq/common/ascii.h"

namespace dq::ingest {
namespace {

constexpr const char* kXlsxMediaType =
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

// "text/csv; charset=utf-8" -> "text/csv".
std::string MediaType(std::string_view content_type) {
  return ascii::Lower(ascii::Trim(content_type.substr(0, content_type.find(';'))));
}

// ".csv" from "Products.CSV"; "" without an extension.
std::string Extension(std::string_view filename) {
  const size_t slash = filename.find_last_of("/\\");
  if (slash != std::string_view::npos) filename.remove_prefix(slash + 1);
  const size_t dot = filename.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return "";
  return ascii::Lower(filename.substr(dot));
}

Status Unsupported(std::string what) {
  return Status(ErrorCode::kUnsupportedMediaType,
                what + "; upload CSV, TSV, a JSON array of objects, NDJSON, XLSX or an XML "
                       "feed (RSS 2.0 or Atom), optionally gzip-compressed");
}

// Binary content: a NUL byte, or the signature of a format we do not read.
bool LooksBinary(std::string_view head) {
  static constexpr std::array<std::string_view, 5> kMagic = {
      std::string_view("PK\x03\x04", 4),          // zip, xlsx, ods
      std::string_view("\x1f\x8b", 2),            // gzip
      std::string_view("%PDF-", 5),               // PDF
      std::string_view("\xD0\xCF\x11\xE0", 4),    // OLE2: xls
      std::string_view("\xFF\xFE", 2)};           // UTF-16 LE BOM
  for (std::string_view m : kMagic) {
    if (head.starts_with(m)) return true;
  }
  if (head.starts_with(std::string_view("\xFE\xFF", 2))) return true;  // UTF-16 BE BOM
  return head.find('\0') != std::string_view::npos;
}

// JSON array, NDJSON, XML or CSV, from the first significant byte.
FileFormat SniffText(std::string_view head) {
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  size_t i = 0;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' ||
                             head[i] == '\n')) {
    ++i;
  }
  if (i < head.size() && head[i] == '[') return FileFormat::kJsonArray;
  if (i < head.size() && head[i] == '{') return FileFormat::kNdjson;
  if (i < head.size() && head[i] == '<') return FileFormat::kXml;
  return FileFormat::kCsv;
}

}  // namespace

std::string_view FormatName(FileFormat format) {
  switch (format) {
    case FileFormat::kCsv: return "csv";
    case FileFormat::kTsv: return "tsv";
    case FileFormat::kJsonArray: return "json";
    case FileFormat::kNdjson: return "ndjson";
    case FileFormat::kXlsx: return "xlsx";
    case FileFormat::kXml: return "xml";
  }
  return "csv";
}

std::string_view ContentTypeFor(FileFormat format) {
  switch (format) {
    case FileFormat::kCsv: return "text/csv; charset=utf-8";
    case FileFormat::kTsv: return "text/tab-separated-values; charset=utf-8";
    case FileFormat::kJsonArray: return "application/json";
    case FileFormat::kNdjson: return "application/x-ndjson";
    case FileFormat::kXlsx: return kXlsxMediaType;
    case FileFormat::kXml: return "application/xml";
  }
  return "text/csv; charset=utf-8";
}

Result<FileFormat> DetectFormat(std::string_view content_type, std::string_view filename,
                                std::string_view head) {
  if (head.size() > kSniffBytes) head = head.substr(0, kSniffBytes);
  const std::string type = MediaType(content_type);
  const std::string ext = Extension(filename);
  const bool generic_type = type.empty() || type == "application/octet-stream" ||
                            type == "application/zip" || type == "binary/octet-stream" ||
                            type == "application/x-zip-compressed";
  const bool xlsx_named = ext == ".xlsx" || ext == ".xlsm";
  if (head.starts_with(std::string_view("PK\x03\x04", 4))) {
    if (type == kXlsxMediaType || type == "application/vnd.ms-excel.sheet.macroenabled.12" ||
        (generic_type && (xlsx_named || ext.empty())) ||
        (type == "application/vnd.ms-excel" && xlsx_named)) {
      return FileFormat::kXlsx;
    }
    return Unsupported("The file is a zip archive that is not named or typed as an XLSX workbook");
  }
  if (head.starts_with(std::string_view("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8)) &&
      (xlsx_named || type == kXlsxMediaType)) {
    return Status(ErrorCode::kInvalidRequest,
                  "The workbook is password-protected (encrypted); remove the password in the "
                  "spreadsheet program and upload it again.");
  }
  if (type == kXlsxMediaType || xlsx_named) {
    return Status(ErrorCode::kInvalidRequest,
                  "The file is declared as XLSX but is not a zip archive (it does not start with "
                  "PK); it may be truncated or not a workbook.");
  }
  if (LooksBinary(head)) {
    return Unsupported("The file is binary (e.g. a spreadsheet, archive or UTF-16 text), not text");
  }
  // A specific declared type decides; JSON types still look at the first byte so that an NDJSON
  // file sent as application/json is read as NDJSON.
  if (type == "text/csv" || type == "application/csv" || type == "text/comma-separated-values") {
    return FileFormat::kCsv;
  }
  if (type == "text/tab-separated-values" || type == "text/tsv") return FileFormat::kTsv;
  if (type == "application/x-ndjson" || type == "application/ndjson" ||
      type == "application/jsonl" || type == "application/x-jsonlines" ||
      type == "application/jsonlines") {
    return FileFormat::kNdjson;
  }
  if (type == "application/json" || type == "text/json") {
    return SniffText(head) == FileFormat::kNdjson ? FileFormat::kNdjson : FileFormat::kJsonArray;
  }
  if (type == "application/xml" || type == "text/xml" || type == "application/rss+xml" ||
      type == "application/atom+xml") {
    return FileFormat::kXml;
  }
  // Generic types: browsers send application/octet-stream, text/plain or (on Windows, for .csv)
  // application/vnd.ms-excel. The extension decides, then the content.
  const bool generic = type.empty() || type == "application/octet-stream" ||
                       type == "text/plain" || type == "application/vnd.ms-excel" ||
                       type == "binary/octet-stream";
  if (!generic) {
    return Unsupported("Content-Type '" + type + "' is not supported");
  }
  if (ext == ".csv") return FileFormat::kCsv;
  if (ext == ".tsv" || ext == ".tab") return FileFormat::kTsv;
  if (ext == ".ndjson" || ext == ".jsonl") return FileFormat::kNdjson;
  if (ext == ".json") {
    return SniffText(head) == FileFormat::kNdjson ? FileFormat::kNdjson : FileFormat::kJsonArray;
  }
  if (ext == ".xml" || ext == ".rss" || ext == ".atom") return FileFormat::kXml;
  static constexpr std::array<std::string_view, 11> kRefused = {
      ".xls", ".ods", ".numbers", ".zip", ".gz", ".pdf",
      ".parquet", ".png", ".jpg", ".jpeg", ".doc"};
  for (std::string_view r : kRefused) {
    if (ext == r) return Unsupported("Files of type '" + ext + "' are not supported");
  }
  return SniffText(head);
}

}  // namespace dq::ingest
