#include "dq/ingest/xlsx_writer.h"

#include <zip.h>

#include <cstdio>
#include <ctime>

#include "xlsx_cells.h"

namespace dq::ingest {
namespace {

// The time every part of a workbook is dated: 1980-01-01 00:00, the earliest a zip entry can
// record, as Excel dates the parts of the workbooks it saves. libzip would date them now, so the
// same rows written a second apart made different bytes. A zip records local time, so this is
// the Unix time that reads as that date here.
time_t PartsDate() {
  static const time_t date = [] {
    std::tm t{};
    t.tm_year = 80;
    t.tm_mday = 1;
    t.tm_isdst = -1;
    return std::mktime(&t);
  }();
  return date;
}

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool LooksLikeEscape(std::string_view s, size_t i) {
  return i + 6 < s.size() && s[i + 1] == 'x' && IsHex(s[i + 2]) && IsHex(s[i + 3]) &&
         IsHex(s[i + 4]) && IsHex(s[i + 5]) && s[i + 6] == '_';
}

void AppendXml(std::string& out, std::string_view s, bool attribute = false) {
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"':
        if (attribute) out += "&quot;";
        else out.push_back(ch);
        break;
      case '_':  // a literal "_xHHHH_" would read back as an escape: escape its underscore
        if (LooksLikeEscape(s, i)) out += "_x005F_";
        else out.push_back(ch);
        break;
      default:
        if (c < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
          char buf[12];
          std::snprintf(buf, sizeof buf, "_x%04X_", c);
          out += buf;
        } else {
          out.push_back(ch);
        }
    }
  }
}

bool IsPlainNumber(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  const size_t digits_from = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i == digits_from) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const size_t frac = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == frac) return false;
  }
  if (i < s.size() && (s[i] == 'E' || s[i] == 'e')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const size_t exp = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == exp) return false;
  }
  return i == s.size();
}

constexpr std::string_view kContentTypes =
    R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
    "\n"
    R"(<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">)"
    R"(<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>)"
    R"(<Default Extension="xml" ContentType="application/xml"/>)"
    R"(<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>)"
    R"(<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>)"
    R"(<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>)"
    R"(</Types>)";

constexpr std::string_view kRootRels =
    R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
    "\n"
    R"(<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">)"
    R"(<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>)"
    R"(</Relationships>)";

constexpr std::string_view kWorkbookRels =
    R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
    "\n"
    R"(<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">)"
    R"(<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>)"
    R"(<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>)"
    R"(</Relationships>)";

// Style 0: General. Style 1: "0" (whole numbers in full, for long codes such as GTINs).
constexpr std::string_view kStyles =
    R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
    "\n"
    R"(<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">)"
    R"(<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>)"
    R"(<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>)"
    R"(<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>)"
    R"(<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>)"
    R"(<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>)"
    R"(<xf numFmtId="1" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>)"
    R"(<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>)"
    R"(</styleSheet>)";

}  // namespace

XlsxWriter::XlsxWriter(const std::vector<std::string>& header) : width_(header.size()) {
  std::vector<std::string_view> names(header.begin(), header.end());
  WriteRow(names, {});
}

void XlsxWriter::Cell(size_t col, std::string_view text, CellKind kind) {
  if (text.empty()) return;
  const std::string ref = internal::ColumnLetters(col) + std::to_string(row_);
  if (kind == CellKind::kNumber && IsPlainNumber(text)) {
    const bool long_whole = text.find_first_of(".eE") == std::string_view::npos &&
                            text.size() - (text[0] == '-' ? 1 : 0) >= 12;
    sheet_ += "<c r=\"" + ref + (long_whole ? "\" s=\"1\"><v>" : "\"><v>");
    sheet_ += text;
    sheet_ += "</v></c>";
  } else if (kind == CellKind::kBool && (text == "TRUE" || text == "FALSE")) {
    sheet_ += "<c r=\"" + ref + "\" t=\"b\"><v>" + (text == "TRUE" ? "1" : "0") + "</v></c>";
  } else {
    sheet_ += "<c r=\"" + ref + "\" t=\"inlineStr\"><is><t xml:space=\"preserve\">";
    AppendXml(sheet_, text);
    sheet_ += "</t></is></c>";
  }
}

void XlsxWriter::WriteRow(std::span<const std::string_view> cells,
                          std::span<const CellKind> kinds) {
  ++row_;
  sheet_ += "<row r=\"" + std::to_string(row_) + "\">";
  for (size_t c = 0; c < cells.size() && c < width_; ++c) {
    Cell(c, cells[c], c < kinds.size() ? kinds[c] : CellKind::kString);
  }
  sheet_ += "</row>";
}

Result<std::string> XlsxWriter::Finish(std::string_view sheet_name) {
  std::string name = sheet_name.empty() ? "Sheet1" : std::string(sheet_name);
  std::string workbook =
      R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
      "\n"
      R"(<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" )"
      R"(xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">)"
      R"(<sheets><sheet name=")";
  AppendXml(workbook, name, true);
  workbook += R"(" sheetId="1" r:id="rId1"/></sheets></workbook>)";
  std::string sheet =
      R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
      "\n"
      R"(<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>)";
  sheet += sheet_;
  sheet += "</sheetData></worksheet>";
  sheet_.clear();

  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* out = zip_source_buffer_create(nullptr, 0, 0, &err);
  if (!out) return Status(ErrorCode::kInternal, "libzip: cannot create the workbook");
  zip_source_keep(out);
  zip_t* za = zip_open_from_source(out, ZIP_TRUNCATE, &err);
  if (!za) {
    zip_source_free(out);
    return Status(ErrorCode::kInternal, "libzip: cannot open the workbook for writing");
  }
  const std::pair<const char*, std::string_view> parts[] = {
      {"[Content_Types].xml", kContentTypes},  {"_rels/.rels", kRootRels},
      {"xl/workbook.xml", workbook},           {"xl/_rels/workbook.xml.rels", kWorkbookRels},
      {"xl/styles.xml", kStyles},              {"xl/worksheets/sheet1.xml", sheet}};
  for (const auto& [path, data] : parts) {
    zip_source_t* s = zip_source_buffer(za, data.data(), data.size(), 0);
    const zip_int64_t index = s ? zip_file_add(za, path, s, ZIP_FL_ENC_UTF_8) : -1;
    // Deflate at level 1: the sheet XML is repetitive, so level 1 keeps most of level 6's ratio
    // (docs/performance-log.md, "XLSX and gzip") at several times its speed.
    if (index < 0 ||
        zip_set_file_compression(za, static_cast<zip_uint64_t>(index), ZIP_CM_DEFLATE, 1) != 0 ||
        zip_file_set_mtime(za, static_cast<zip_uint64_t>(index), PartsDate(), 0) != 0) {
      if (s && index < 0) zip_source_free(s);
      zip_discard(za);
      zip_source_free(out);
      return Status(ErrorCode::kInternal, "libzip: cannot add a part to the workbook");
    }
  }
  if (zip_close(za) != 0) {
    zip_discard(za);
    zip_source_free(out);
    return Status(ErrorCode::kInternal, "libzip: cannot write the workbook");
  }
  std::string bytes;
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_source_stat(out, &st) == 0 && zip_source_open(out) == 0) {
    bytes.resize(st.size);
    const zip_int64_t n = zip_source_read(out, bytes.data(), st.size);
    zip_source_close(out);
    bytes.resize(n < 0 ? 0 : static_cast<size_t>(n));
  }
  zip_source_free(out);
  if (bytes.empty()) return Status(ErrorCode::kInternal, "libzip: the workbook came out empty");
  return bytes;
}

}  // namespace dq::ingest
