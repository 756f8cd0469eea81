#include "dq/ingest/upload_decode.h"

#include "dq/ingest/gzip.h"
#include "dq/ingest/text_encoding.h"
#include "dq/common/ascii.h"

namespace dq::ingest {
namespace {

Status TooLarge(size_t size, size_t max) {
  return Status(ErrorCode::kFileTooLarge,
                "The file is " + std::to_string(size) + " bytes once converted to UTF-8; files "
                "may be at most " + std::to_string(max) + " bytes.");
}

// The encoding an XML declaration names (<?xml version="1.0" encoding="ISO-8859-1"?>),
// lower-cased; "" when there is none.
std::string XmlDeclaredEncoding(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (!text.starts_with("<?xml")) return "";
  const std::string_view decl = text.substr(0, text.find("?>", 5));
  if (decl.size() > 256) return "";
  const size_t key = decl.find("encoding");
  if (key == std::string_view::npos) return "";
  size_t at = decl.find_first_of("\"'", key);
  if (at == std::string_view::npos) return "";
  const size_t end = decl.find(decl[at], at + 1);
  if (end == std::string_view::npos) return "";
  return ascii::Lower(decl.substr(at + 1, end - at - 1));
}

}  // namespace

Result<std::optional<std::string>> DecodeContentEncoding(std::string_view content_encoding,
                                                         std::string_view body,
                                                         size_t max_bytes) {
  const std::string coding = ascii::LowerTrim(content_encoding);
  if (coding.empty() || coding == "identity") return std::optional<std::string>();
  if (coding != "gzip" && coding != "x-gzip") {
    return Status(ErrorCode::kUnsupportedMediaType,
                  "Content-Encoding '" + coding + "' is not supported; send gzip or none.");
  }
  auto out = Gunzip(body, max_bytes);
  if (!out.ok()) return out.status();
  return std::optional<std::string>(std::move(*out));
}

Result<PreparedFile> PrepareFile(std::string_view content_type, std::string_view filename,
                                 std::string_view file, size_t max_bytes) {
  PreparedFile out;
  out.original_ = file;
  std::string type(content_type);
  std::string name(filename);
  if (LooksGzip(file)) {
    auto inflated = Gunzip(file, max_bytes);
    if (!inflated.ok()) return inflated.status();
    if (inflated->empty()) return Status(ErrorCode::kEmptyFile, "The gzip file holds no data.");
    out.converted_ = std::move(*inflated);
    out.owned_ = true;
    out.gzipped = true;
    const std::string lower = ascii::LowerTrim(name);
    if (lower.ends_with(".gz")) name.resize(name.size() - 3);
    else if (lower.ends_with(".tgz")) name.resize(name.size() - 4);
    // The declared type described the compressed file; keep only a charset it carried.
    const std::string media = ascii::LowerTrim(type.substr(0, type.find(';')));
    if (media == "application/gzip" || media == "application/x-gzip" ||
        media == "application/octet-stream") {
      const std::string charset = CharsetParam(type);
      type = charset.empty() ? "" : "text/plain; charset=" + charset;
    }
  }
  const std::string_view bytes = out.data();
  std::string charset = CharsetParam(type);
  const bool utf16_bom = bytes.starts_with("\xFF\xFE") || bytes.starts_with("\xFE\xFF");
  if (!utf16_bom) {
    auto format = DetectFormat(type, name, bytes.substr(0, kSniffBytes));
    if (!format.ok()) return format.status();
    out.format = *format;
    if (out.format == FileFormat::kXlsx) return out;
    // An XML file names its encoding in its declaration; a charset= sent with it comes first.
    if (out.format == FileFormat::kXml && charset.empty()) charset = XmlDeclaredEncoding(bytes);
  }
  auto text = DecodeText(bytes, charset);
  if (!text.ok()) return text.status();
  out.encoding = text->encoding;
  if (text->was_converted) {
    if (text->converted.size() > max_bytes) return TooLarge(text->converted.size(), max_bytes);
    out.converted_ = std::move(text->converted);
    out.owned_ = true;
  }
  if (utf16_bom) {
    auto format = DetectFormat(type, name, out.data().substr(0, kSniffBytes));
    if (!format.ok()) return format.status();
    if (*format == FileFormat::kXlsx) {
      return Status(ErrorCode::kUnsupportedMediaType, "UTF-16 text cannot be an XLSX workbook");
    }
    out.format = *format;
  }
  return out;
}

}  // namespace dq::ingest
