#include "dq/ingest/text_encoding.h"

#include <errno.h>
#include <iconv.h>
#include <uchardet/uchardet.h>

#include <algorithm>
#include <cstdio>

#include "dq/ingest/utf8.h"
#include "dq/common/ascii.h"

namespace dq::ingest {
namespace {


std::string Hex(unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", b);
  return buf;
}

// Our canonical name for a charset label, or "" when we do not convert from it.
std::string Canonical(std::string_view label) {
  const std::string l = ascii::Lower(label);
  if (l == "utf-8" || l == "utf8" || l == "us-ascii" || l == "ascii") return "utf-8";
  if (l == "windows-1252" || l == "cp1252" || l == "x-cp1252") return "windows-1252";
  if (l == "iso-8859-1" || l == "iso8859-1" || l == "latin1" || l == "latin-1" ||
      l == "l1" || l == "iso_8859-1") {
    return "iso-8859-1";
  }
  if (l == "iso-8859-15" || l == "iso8859-15" || l == "latin9" || l == "latin-9" ||
      l == "iso_8859-15") {
    return "iso-8859-15";
  }
  if (l == "utf-16le") return "utf-16le";
  if (l == "utf-16be") return "utf-16be";
  if (l == "utf-16") return "utf-16";
  return "";
}

class Iconv {
 public:
  explicit Iconv(const char* from) : cd_(iconv_open("UTF-8", from)) {}
  ~Iconv() {
    if (ok()) iconv_close(cd_);
  }
  Iconv(const Iconv&) = delete;
  Iconv& operator=(const Iconv&) = delete;
  bool ok() const { return cd_ != reinterpret_cast<iconv_t>(-1); }
  iconv_t get() const { return cd_; }

 private:
  iconv_t cd_;
};

// Converts `in` (without BOM; `skipped` bytes precede it in the file) from `from` to UTF-8.
Result<std::string> Convert(std::string_view in, const char* from, std::string_view name,
                            size_t skipped) {
  Iconv cd(from);
  if (!cd.ok()) return Status(ErrorCode::kInternal, "iconv cannot convert from " + std::string(name));
  std::string out;
  out.resize(in.size() * 3 + 16);  // UTF-8 needs at most 3 bytes per input byte here
  char* src = const_cast<char*>(in.data());
  size_t src_left = in.size();
  char* dst = out.data();
  size_t dst_left = out.size();
  while (src_left > 0) {
    const size_t rc = iconv(cd.get(), &src, &src_left, &dst, &dst_left);
    if (rc != static_cast<size_t>(-1)) break;
    const size_t at = skipped + (in.size() - src_left);
    if (errno == E2BIG) {  // cannot happen with the sizes above; grow anyway
      const size_t used = out.size() - dst_left;
      out.resize(out.size() * 2);
      dst = out.data() + used;
      dst_left = out.size() - used;
      continue;
    }
    const unsigned char b = static_cast<unsigned char>(*src);
    if (errno == EINVAL) {
      return Status(ErrorCode::kInvalidRequest,
                    "The file ends in the middle of a " + std::string(name) +
                        " character at byte " + std::to_string(at) +
                        " (e.g. a cut-off file or an unpaired UTF-16 surrogate).");
    }
    return Status(ErrorCode::kInvalidRequest,
                  "Byte " + std::to_string(at) + " (" + Hex(b) + ") is not valid " +
                      std::string(name) +
                      (name.starts_with("utf-16") ? " (an unpaired surrogate or a cut-off character)"
                                                  : " (the encoding does not define it)") +
                      "; save the file as UTF-8 or declare its encoding with charset=.");
  }
  out.resize(out.size() - dst_left);
  if (out.find('\0') != std::string::npos) {
    return Status(ErrorCode::kInvalidRequest,
                  "The file decoded from " + std::string(name) +
                      " contains a NUL character; it is not a text file in that encoding.");
  }
  return out;
}

// libuchardet's guess, lower-cased ("" when it has none).
std::string Detect(std::string_view bytes) {
  uchardet_t ud = uchardet_new();
  // A few hundred KiB is plenty to tell single-byte Latin encodings apart.
  const size_t n = std::min<size_t>(bytes.size(), 512 * 1024);
  uchardet_handle_data(ud, bytes.data(), n);
  uchardet_data_end(ud);
  std::string out = ascii::Lower(uchardet_get_charset(ud));
  uchardet_delete(ud);
  return out;
}

DecodedText Utf8() { return DecodedText{"utf-8", {}, false}; }

Result<DecodedText> Converted(std::string_view bytes, std::string_view name, size_t skip) {
  const char* from = name == "utf-16le"       ? "UTF-16LE"
                     : name == "utf-16be"     ? "UTF-16BE"
                     : name == "windows-1252" ? "WINDOWS-1252"
                     : name == "iso-8859-1"   ? "ISO-8859-1"
                                              : "ISO-8859-15";
  auto text = Convert(bytes.substr(skip), from, name, skip);
  if (!text.ok()) return text.status();
  return DecodedText{std::string(name), std::move(*text), true};
}

}  // namespace

std::string CharsetParam(std::string_view content_type) {
  const std::string lower = ascii::Lower(content_type);
  size_t at = 0;
  while ((at = lower.find("charset", at)) != std::string::npos) {
    const bool starts = at == 0 || lower[at - 1] == ';' || lower[at - 1] == ' ' ||
                        lower[at - 1] == '\t';
    size_t i = at + 7;
    while (i < lower.size() && (lower[i] == ' ' || lower[i] == '\t')) ++i;
    if (!starts || i >= lower.size() || lower[i] != '=') {
      at += 7;
      continue;
    }
    ++i;
    while (i < lower.size() && (lower[i] == ' ' || lower[i] == '\t')) ++i;
    std::string value;
    if (i < lower.size() && lower[i] == '"') {
      ++i;
      while (i < lower.size() && lower[i] != '"') value.push_back(lower[i++]);
    } else {
      while (i < lower.size() && lower[i] != ';' && lower[i] != ' ' && lower[i] != '\t') {
        value.push_back(lower[i++]);
      }
    }
    return value;
  }
  return "";
}

Result<DecodedText> DecodeText(std::string_view bytes, std::string_view declared) {
  const std::string canonical = declared.empty() ? "" : Canonical(declared);
  if (!declared.empty() && canonical.empty()) {
    return Status(ErrorCode::kInvalidRequest,
                  "charset=" + std::string(declared) +
                      " is not supported; send UTF-8, UTF-16 (with a byte-order mark), "
                      "Windows-1252, ISO-8859-1 or ISO-8859-15.");
  }
  if (bytes.starts_with("\xFF\xFE")) return Converted(bytes, "utf-16le", 2);
  if (bytes.starts_with("\xFE\xFF")) return Converted(bytes, "utf-16be", 2);
  const size_t bad = FindInvalidUtf8(bytes);
  if (bad == std::string_view::npos) return Utf8();
  if (canonical == "windows-1252" || canonical == "iso-8859-1" || canonical == "iso-8859-15") {
    return Converted(bytes, canonical, 0);
  }
  if (canonical == "utf-16le" || canonical == "utf-16be") return Converted(bytes, canonical, 0);
  const std::string where = "Byte " + std::to_string(bad) + " (" +
                            Hex(static_cast<unsigned char>(bytes[bad])) + ") is not UTF-8";
  if (canonical == "utf-8") {
    return Status(ErrorCode::kInvalidRequest,
                  where + ", but the upload declares charset=utf-8; save the file as UTF-8 or "
                          "declare its real encoding (e.g. charset=windows-1252).");
  }
  if (canonical == "utf-16") {
    return Status(ErrorCode::kInvalidRequest,
                  where + " and the file has no UTF-16 byte-order mark; declare charset=utf-16le "
                          "or utf-16be.");
  }
  const std::string guess = Detect(bytes);
  if (guess == "windows-1252" || guess == "iso-8859-1" || guess == "iso-8859-15") {
    return Converted(bytes, guess, 0);
  }
  return Status(ErrorCode::kInvalidRequest,
                where + " and the encoding could not be identified as Windows-1252 or "
                        "ISO-8859-1/15" +
                    (guess.empty() ? std::string() : " (it looks like " + guess + ")") +
                    "; save the file as UTF-8 or declare its encoding with charset=.");
}

}  // namespace dq::ingest
