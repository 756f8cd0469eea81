// Internal to dq_ingest: the pieces of an XLSX file the reader needs, through libzip and expat.
#pragma once

#include <expat.h>
#include <zip.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/status.h"

namespace dq::ingest::internal {

// A zip archive opened read-only over bytes in memory (which must outlive it).
class ZipArchive {
 public:
  ZipArchive() = default;
  ~ZipArchive();
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;

  // Errors: kInvalidRequest naming what is wrong (not a zip, truncated, ...).
  Status Open(std::string_view bytes);
  bool Has(const std::string& name) const;
  // The whole entry, at most max_bytes expanded. nullopt-free: a missing entry is kInvalidRequest
  // unless `optional` (then an empty string).
  Result<std::string> Read(const std::string& name, uint64_t max_bytes, bool optional = false);
  // Opens `name` for streaming with Chunk(). Errors as Read().
  Status OpenStream(const std::string& name, uint64_t max_bytes);
  // The next piece of the open stream; empty at its end. Errors: kFileTooLarge past max_bytes,
  // kInvalidRequest for corrupt data.
  Result<std::string_view> Chunk();

 private:
  Status EntryError(const std::string& name, const char* what) const;
  zip_t* zip_ = nullptr;
  zip_file_t* stream_ = nullptr;
  std::string stream_name_;
  uint64_t stream_max_ = 0;
  uint64_t stream_read_ = 0;
  std::string buffer_;
};

// An expat parser whose element names are reported without their namespace prefix.
class XmlParser {
 public:
  using Attrs = const XML_Char**;
  std::function<void(std::string_view name, Attrs attrs)> on_start;
  std::function<void(std::string_view name)> on_end;
  std::function<void(std::string_view text)> on_text;

  XmlParser();
  ~XmlParser();
  XmlParser(const XmlParser&) = delete;
  XmlParser& operator=(const XmlParser&) = delete;

  // Parses a piece; `last` on the final one. Errors: kInvalidRequest naming `part` and the line;
  // or the Status a handler set with Fail().
  Status Parse(std::string_view piece, bool last, std::string_view part);
  // Stops parsing from inside a handler; Parse() returns `why`.
  void Fail(Status why);

  // The value of attribute `name` (matched on its local name when `name` has no prefix).
  static std::optional<std::string_view> Attr(Attrs attrs, std::string_view name);

 private:
  XML_Parser parser_;
  Status failure_;
};

}  // namespace dq::ingest::internal
