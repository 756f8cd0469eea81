#include "dq/ingest/xlsx_zip.h"

namespace dq::ingest::internal {
namespace {

constexpr size_t kChunk = 64 * 1024;

std::string_view LocalName(const XML_Char* name) {
  std::string_view n(name);
  const size_t colon = n.rfind(':');
  return colon == std::string_view::npos ? n : n.substr(colon + 1);
}

Status TooLarge(const std::string& name, uint64_t max) {
  return Status(ErrorCode::kFileTooLarge,
                "xlsx: the part " + name + " expands to more than " + std::to_string(max) +
                    " bytes, the most a workbook may hold.");
}

}  // namespace

ZipArchive::~ZipArchive() {
  if (stream_) zip_fclose(stream_);
  if (zip_) zip_discard(zip_);
}

Status ZipArchive::Open(std::string_view bytes) {
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &err);
  if (!src) {
    zip_error_fini(&err);
    return Status(ErrorCode::kInternal, "libzip could not take the buffer");
  }
  zip_ = zip_open_from_source(src, ZIP_RDONLY, &err);
  if (!zip_) {
    zip_source_free(src);
    std::string why = zip_error_strerror(&err);
    zip_error_fini(&err);
    return Status(ErrorCode::kInvalidRequest,
                  "xlsx: the file is not a readable zip archive (" + why +
                      "); it may be truncated or damaged, save it again from the spreadsheet "
                      "program.");
  }
  zip_error_fini(&err);
  return Status::Ok();
}

bool ZipArchive::Has(const std::string& name) const {
  return zip_name_locate(zip_, name.c_str(), 0) >= 0;
}

Status ZipArchive::EntryError(const std::string& name, const char* what) const {
  zip_error_t* err = zip_get_error(zip_);
  const int code = zip_error_code_zip(err);
  if (code == ZIP_ER_NOPASSWD || code == ZIP_ER_WRONGPASSWD || code == ZIP_ER_ENCRNOTSUPP) {
    return Status(ErrorCode::kInvalidRequest,
                  "xlsx: the part " + name + " is encrypted; remove the password and upload "
                                             "again.");
  }
  return Status(ErrorCode::kInvalidRequest, "xlsx: the part " + name + " " + what + " (" +
                                                zip_error_strerror(err) + ")");
}

Result<std::string> ZipArchive::Read(const std::string& name, uint64_t max_bytes,
                                     bool optional) {
  if (!Has(name)) {
    if (optional) return std::string();
    return Status(ErrorCode::kInvalidRequest,
                  "xlsx: the workbook has no " + name + "; it is not an Excel workbook.");
  }
  if (Status s = OpenStream(name, max_bytes); !s.ok()) return s;
  std::string out;
  while (true) {
    auto piece = Chunk();
    if (!piece.ok()) return piece.status();
    if (piece->empty()) break;
    out.append(*piece);
  }
  return out;
}

Status ZipArchive::OpenStream(const std::string& name, uint64_t max_bytes) {
  if (stream_) {
    zip_fclose(stream_);
    stream_ = nullptr;
  }
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat(zip_, name.c_str(), 0, &st) != 0) return EntryError(name, "cannot be found");
  // The declared size is checked first (a bomb is refused unread) and the real one while reading.
  if ((st.valid & ZIP_STAT_SIZE) && st.size > max_bytes) return TooLarge(name, max_bytes);
  stream_ = zip_fopen(zip_, name.c_str(), 0);
  if (!stream_) return EntryError(name, "cannot be opened");
  stream_name_ = name;
  stream_max_ = max_bytes;
  stream_read_ = 0;
  return Status::Ok();
}

Result<std::string_view> ZipArchive::Chunk() {
  if (!stream_) return std::string_view();
  buffer_.resize(kChunk);
  const zip_int64_t n = zip_fread(stream_, buffer_.data(), buffer_.size());
  if (n < 0) {
    zip_error_t* err = zip_file_get_error(stream_);
    return Status(ErrorCode::kInvalidRequest,
                  "xlsx: the part " + stream_name_ + " is damaged at expanded byte " +
                      std::to_string(stream_read_) + " (" + zip_error_strerror(err) +
                      "); the file may be truncated.");
  }
  stream_read_ += static_cast<uint64_t>(n);
  if (stream_read_ > stream_max_) return TooLarge(stream_name_, stream_max_);
  if (n == 0) {
    zip_fclose(stream_);
    stream_ = nullptr;
  }
  return std::string_view(buffer_.data(), static_cast<size_t>(n));
}

XmlParser::XmlParser() : parser_(XML_ParserCreate(nullptr)) {
  XML_SetUserData(parser_, this);
  XML_SetElementHandler(
      parser_,
      [](void* self, const XML_Char* name, const XML_Char** attrs) {
        auto* p = static_cast<XmlParser*>(self);
        if (p->on_start) p->on_start(LocalName(name), attrs);
      },
      [](void* self, const XML_Char* name) {
        auto* p = static_cast<XmlParser*>(self);
        if (p->on_end) p->on_end(LocalName(name));
      });
  XML_SetCharacterDataHandler(parser_, [](void* self, const XML_Char* s, int len) {
    auto* p = static_cast<XmlParser*>(self);
    if (p->on_text) p->on_text(std::string_view(s, static_cast<size_t>(len)));
  });
}

XmlParser::~XmlParser() { XML_ParserFree(parser_); }

void XmlParser::Fail(Status why) {
  if (failure_.ok()) failure_ = std::move(why);
  XML_StopParser(parser_, XML_FALSE);
}

Status XmlParser::Parse(std::string_view piece, bool last, std::string_view part) {
  if (!failure_.ok()) return failure_;
  const XML_Status rc =
      XML_Parse(parser_, piece.data(), static_cast<int>(piece.size()), last ? 1 : 0);
  if (!failure_.ok()) return failure_;
  if (rc == XML_STATUS_ERROR) {
    failure_ = Status(ErrorCode::kInvalidRequest,
                      "xlsx: " + std::string(part) + " is not well-formed XML at line " +
                          std::to_string(XML_GetCurrentLineNumber(parser_)) + ", column " +
                          std::to_string(XML_GetCurrentColumnNumber(parser_)) + " (" +
                          XML_ErrorString(XML_GetErrorCode(parser_)) + ").");
  }
  return failure_;
}

std::optional<std::string_view> XmlParser::Attr(Attrs attrs, std::string_view name) {
  const bool prefixed = name.find(':') != std::string_view::npos;
  for (size_t i = 0; attrs[i]; i += 2) {
    std::string_view n(attrs[i]);
    if (n == name || (!prefixed && n.find(':') == std::string_view::npos && LocalName(attrs[i]) == name)) {
      return std::string_view(attrs[i + 1]);
    }
  }
  return std::nullopt;
}

}  // namespace dq::ingest::internal
