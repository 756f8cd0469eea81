// The XLSX reader (xlsx_reader.h): Open() reads the package's parts in order (the workbook, the
// first sheet's path, the styles, the shared strings), then the first sheet is inflated and
// parsed a piece at a time (Pump), its cells gathered into rows. How a sheet writes a cell
// (column references, date formats, escapes, number and date text) is xlsx_cells.{h,cpp}.
#include "dq/ingest/xlsx_reader.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <unordered_map>

#include "dq/ingest/utf8.h"
#include "dq/ingest/xlsx_zip.h"
#include "xlsx_cells.h"

namespace dq::ingest {
namespace {

using internal::XmlParser;
// How a sheet writes its cells (xlsx_cells.h).
using internal::ColumnLetters;
using internal::ColumnOfRef;
using internal::DateKind;
using internal::DecodeExcelEscapes;
using internal::IsBlank;
using internal::KindOfBuiltinFormat;
using internal::KindOfFormatCode;
using internal::kMaxColumns;

}  // namespace

struct XlsxReader::Impl {
  internal::ZipArchive zip;
  std::vector<std::string> shared;
  std::vector<DateKind> style_kinds;  // by cellXfs index
  bool date1904 = false;
  std::string sheet_path;
  XmlParser sheet;
  bool sheet_done = false;

  struct Pending {
    std::vector<std::string> cells;
    std::vector<CellKind> kinds;
    uint64_t sheet_row = 0;
  };
  std::deque<Pending> ready;

  // The sheet parse state.
  uint64_t row_number = 0;     // r of the current <row>
  uint64_t next_col = 0;       // column of the next <c> without r
  Pending building;            // cells of the current row
  bool have_header = false;
  uint64_t data_rows = 0;
  // The current cell.
  uint64_t col = 0;
  std::string type;
  int style = -1;
  std::string value;  // <v> text or inline string
  bool in_value = false;
  bool in_inline = false;
  int in_phonetic = 0;

  // The steps of Open(), in order. Each reads one part of the package.
  Status ReadWorkbook(uint64_t max, std::string& sheet_name, std::string& rel_id);
  Status FindSheetPath(uint64_t max, const std::string& rel_id);
  Status ReadStyles(uint64_t max);
  Status ReadSharedStrings(uint64_t max, const ReaderLimits& limits);
  // The sheet's handlers, called by `sheet` as the sheet part is inflated (Pump()).
  void StartSheetElement(std::string_view name, XmlParser::Attrs attrs, const ReaderLimits& limits);
  void EndSheetElement(std::string_view name, std::vector<std::string>& header,
                       const ReaderLimits& limits);
  // The current cell's text and kind from its type, style and value; false after sheet.Fail().
  bool CellText(std::string& text, CellKind& kind);
  void EndCell();
  void EndRow(std::vector<std::string>& header, const ReaderLimits& limits);
  std::string Where() const;  // "xlsx: row R (cell XR): ", for errors only
};

XlsxReader::XlsxReader(const ReaderLimits& limits) : limits_(limits) {}
XlsxReader::~XlsxReader() = default;

void XlsxReader::Feed(std::string_view bytes) { file_.append(bytes); }
void XlsxReader::Finish() { finished_ = true; }

Status XlsxReader::Open() {
  impl_ = std::make_unique<Impl>();
  Impl& im = *impl_;
  if (Status s = im.zip.Open(file_); !s.ok()) return s;
  const uint64_t max = limits_.max_xlsx_part_bytes;
  std::string rel_id;
  if (Status s = im.ReadWorkbook(max, sheet_name_, rel_id); !s.ok()) return s;
  if (Status s = im.FindSheetPath(max, rel_id); !s.ok()) return s;
  if (Status s = im.ReadStyles(max); !s.ok()) return s;
  if (Status s = im.ReadSharedStrings(max, limits_); !s.ok()) return s;
  if (!im.zip.Has(im.sheet_path)) {
    return Status(ErrorCode::kInvalidRequest,
                  "xlsx: the first sheet (" + im.sheet_path +
                      ") is missing from the file; it may be a chart sheet or damaged.");
  }
  if (Status s = im.zip.OpenStream(im.sheet_path, max); !s.ok()) return s;
  // The sheet is parsed as it is inflated, by Pump().
  im.sheet.on_start = [this, &im](std::string_view name, XmlParser::Attrs attrs) {
    im.StartSheetElement(name, attrs, limits_);
  };
  im.sheet.on_text = [&im](std::string_view text) {
    if (im.in_value && im.in_phonetic == 0) im.value.append(text);
  };
  im.sheet.on_end = [this, &im](std::string_view name) {
    im.EndSheetElement(name, header_, limits_);
  };
  return Status::Ok();
}

// The first sheet: its name and relationship id, from the workbook.
Status XlsxReader::Impl::ReadWorkbook(uint64_t max, std::string& sheet_name,
                                      std::string& rel_id) {
  auto workbook = zip.Read("xl/workbook.xml", max);
  if (!workbook.ok()) return workbook.status();
  bool any_sheet = false;
  XmlParser p;
  p.on_start = [&](std::string_view name, XmlParser::Attrs attrs) {
    if (name == "workbookPr") {
      auto v = XmlParser::Attr(attrs, "date1904");
      date1904 = v && (*v == "1" || *v == "true");
    } else if (name == "sheet" && !any_sheet) {
      any_sheet = true;
      sheet_name = std::string(XmlParser::Attr(attrs, "name").value_or("Sheet1"));
      for (size_t i = 0; attrs[i]; i += 2) {
        std::string_view n(attrs[i]);
        if (n.size() > 3 && n.ends_with(":id")) rel_id = attrs[i + 1];
      }
    }
  };
  if (Status s = p.Parse(*workbook, true, "xl/workbook.xml"); !s.ok()) return s;
  if (!any_sheet) {
    return Status(ErrorCode::kInvalidRequest,
                  "xlsx: the workbook has no sheets; put the data on the first sheet.");
  }
  return Status::Ok();
}

// The sheet's part name, from the workbook's relationships.
Status XlsxReader::Impl::FindSheetPath(uint64_t max, const std::string& rel_id) {
  auto rels = zip.Read("xl/_rels/workbook.xml.rels", max, true);
  if (!rels.ok()) return rels.status();
  XmlParser p;
  p.on_start = [&](std::string_view name, XmlParser::Attrs attrs) {
    if (name != "Relationship" || rel_id.empty()) return;
    if (XmlParser::Attr(attrs, "Id").value_or("") != rel_id) return;
    std::string target(XmlParser::Attr(attrs, "Target").value_or(""));
    if (target.starts_with("/")) {
      sheet_path = target.substr(1);
    } else {
      sheet_path = "xl/" + target;
    }
  };
  if (!rels->empty()) {
    if (Status s = p.Parse(*rels, true, "xl/_rels/workbook.xml.rels"); !s.ok()) return s;
  }
  if (sheet_path.empty()) sheet_path = "xl/worksheets/sheet1.xml";
  return Status::Ok();
}

// Styles: which cell formats are dates.
Status XlsxReader::Impl::ReadStyles(uint64_t max) {
  auto styles = zip.Read("xl/styles.xml", max, true);
  if (!styles.ok()) return styles.status();
  if (styles->empty()) return Status::Ok();
  std::unordered_map<int, DateKind> custom;
  bool in_xfs = false;
  XmlParser p;
  p.on_start = [&](std::string_view name, XmlParser::Attrs attrs) {
    if (name == "numFmt") {
      const int id = std::atoi(std::string(XmlParser::Attr(attrs, "numFmtId").value_or("0")).c_str());
      custom[id] = KindOfFormatCode(XmlParser::Attr(attrs, "formatCode").value_or(""));
    } else if (name == "cellXfs") {
      in_xfs = true;
    } else if (name == "xf" && in_xfs) {
      const int id = std::atoi(std::string(XmlParser::Attr(attrs, "numFmtId").value_or("0")).c_str());
      auto it = custom.find(id);
      style_kinds.push_back(it != custom.end() ? it->second : KindOfBuiltinFormat(id));
    }
  };
  p.on_end = [&](std::string_view name) {
    if (name == "cellXfs") in_xfs = false;
  };
  return p.Parse(*styles, true, "xl/styles.xml");
}

// Shared strings (rich-text runs joined; phonetic guides left out), streamed.
Status XlsxReader::Impl::ReadSharedStrings(uint64_t max, const ReaderLimits& limits) {
  if (!zip.Has("xl/sharedStrings.xml")) return Status::Ok();
  if (Status s = zip.OpenStream("xl/sharedStrings.xml", max); !s.ok()) return s;
  XmlParser p;
  bool in_t = false;
  int phonetic = 0;
  uint64_t bytes = 0;
  std::string current;
  p.on_start = [&](std::string_view name, XmlParser::Attrs) {
    if (name == "si") current.clear();
    else if (name == "rPh") ++phonetic;
    else if (name == "t") in_t = true;
  };
  p.on_end = [&](std::string_view name) {
    if (name == "t") in_t = false;
    else if (name == "rPh") --phonetic;
    else if (name == "si") {
      if (shared.size() >= limits.max_shared_strings) {
        p.Fail(Status(ErrorCode::kInvalidRequest,
                      "xlsx: the workbook has more than " +
                          std::to_string(limits.max_shared_strings) + " shared strings."));
        return;
      }
      bytes += current.size();
      if (bytes > limits.max_shared_string_bytes) {
        p.Fail(Status(ErrorCode::kFileTooLarge,
                      "xlsx: the shared strings hold more than " +
                          std::to_string(limits.max_shared_string_bytes) + " bytes."));
        return;
      }
      DecodeExcelEscapes(current);
      shared.push_back(std::move(current));
      current.clear();
    }
  };
  p.on_text = [&](std::string_view text) {
    if (in_t && phonetic == 0) current.append(text);
  };
  while (true) {
    auto piece = zip.Chunk();
    if (!piece.ok()) return piece.status();
    if (Status s = p.Parse(*piece, piece->empty(), "xl/sharedStrings.xml"); !s.ok()) return s;
    if (piece->empty()) return Status::Ok();
  }
}

void XlsxReader::Impl::StartSheetElement(std::string_view name, XmlParser::Attrs attrs,
                                         const ReaderLimits& limits) {
  if (name == "row") {
    auto r = XmlParser::Attr(attrs, "r");
    row_number = r ? std::strtoull(std::string(*r).c_str(), nullptr, 10) : row_number + 1;
    next_col = 0;
    building = {};
    building.sheet_row = row_number;
  } else if (name == "c") {
    auto r = XmlParser::Attr(attrs, "r");
    const uint64_t ref = r ? ColumnOfRef(*r) : 0;
    col = ref == 0 ? next_col : ref - 1;
    if (col >= kMaxColumns || col >= limits.max_cells) {
      sheet.Fail(Status(ErrorCode::kInvalidRequest,
                        "xlsx: row " + std::to_string(row_number) + " has a cell beyond column " +
                            std::to_string(std::min<uint64_t>(kMaxColumns, limits.max_cells)) +
                            ", more columns than an upload may have."));
      return;
    }
    next_col = col + 1;
    type = std::string(XmlParser::Attr(attrs, "t").value_or("n"));
    auto st = XmlParser::Attr(attrs, "s");
    style = st ? std::atoi(std::string(*st).c_str()) : -1;
    value.clear();
  } else if (name == "v") {
    in_value = true;
  } else if (name == "is") {
    in_inline = true;
  } else if (name == "t" && in_inline) {
    in_value = true;
  } else if (name == "rPh") {
    ++in_phonetic;
  }
}

void XlsxReader::Impl::EndSheetElement(std::string_view name, std::vector<std::string>& header,
                                       const ReaderLimits& limits) {
  if (name == "v" || name == "t") {
    in_value = false;
  } else if (name == "is") {
    in_inline = false;
  } else if (name == "rPh") {
    --in_phonetic;
  } else if (name == "c") {
    EndCell();
  } else if (name == "row") {
    EndRow(header, limits);
  }
}

std::string XlsxReader::Impl::Where() const {
  return "xlsx: row " + std::to_string(row_number) + " (cell " + ColumnLetters(col) +
         std::to_string(row_number) + "): ";
}

bool XlsxReader::Impl::CellText(std::string& text, CellKind& kind) {
  kind = CellKind::kString;
  if (type == "s") {
    char* end = nullptr;
    const unsigned long long idx = std::strtoull(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || idx >= shared.size()) {
      sheet.Fail(Status(ErrorCode::kInvalidRequest,
                        Where() + "shared string " + value + " does not exist."));
      return false;
    }
    text = shared[idx];
  } else if (type == "inlineStr" || type == "str" || type == "e") {
    text = value;
    DecodeExcelEscapes(text);
  } else if (type == "b") {
    text = value == "1" ? "TRUE" : value == "0" ? "FALSE" : value;
    kind = CellKind::kBool;
  } else if (type == "d") {
    text = value.size() >= 10 && value.substr(10).find_first_not_of("T0:.Z") == std::string::npos
               ? value.substr(0, 10)
               : value;
  } else if (!value.empty()) {  // "n"
    DateKind dk;
    if (style >= 0 && static_cast<size_t>(style) < style_kinds.size()) {
      dk = style_kinds[static_cast<size_t>(style)];
    }
    if (dk.date || dk.time) {
      const double serial = std::strtod(value.c_str(), nullptr);
      if (dk.date) {
        text = ExcelSerialDate(serial, date1904, dk.time);
      } else {
        const std::string full = ExcelSerialDate(serial + 1, false, true);
        text = full.empty() ? "" : full.substr(11);
      }
    }
    if (text.empty()) {
      text = ExcelNumberText(value);
      kind = CellKind::kNumber;
    }
  }
  return true;
}

void XlsxReader::Impl::EndCell() {
  std::string text;
  CellKind kind;
  if (!CellText(text, kind) || text.empty()) return;
  if (FindInvalidUtf8(text) != std::string::npos) {  // expat gives UTF-8; defensive
    sheet.Fail(Status(ErrorCode::kInvalidRequest, Where() + "the text is not valid UTF-8."));
    return;
  }
  if (building.cells.size() <= col) {
    building.cells.resize(col + 1);
    building.kinds.resize(col + 1, CellKind::kString);
  }
  building.cells[col] = std::move(text);
  building.kinds[col] = kind;
}

void XlsxReader::Impl::EndRow(std::vector<std::string>& header, const ReaderLimits& limits) {
  Pending row = std::move(building);
  building = {};
  bool blank = true;
  for (const auto& c : row.cells) blank = blank && IsBlank(c);
  if (blank) return;
  if (!have_header) {
    size_t width = row.cells.size();
    while (width > 0 && IsBlank(row.cells[width - 1])) --width;
    header.assign(row.cells.begin(), row.cells.begin() + static_cast<ptrdiff_t>(width));
    have_header = true;
    return;
  }
  for (size_t c = header.size(); c < row.cells.size(); ++c) {
    if (!IsBlank(row.cells[c])) {
      sheet.Fail(Status(ErrorCode::kInvalidRequest,
                        "xlsx: row " + std::to_string(row.sheet_row) + " (cell " +
                            ColumnLetters(c) + std::to_string(row.sheet_row) +
                            "): a value right of the last named column; give the column a "
                            "header or delete the value."));
      return;
    }
  }
  if (++data_rows > limits.max_xlsx_rows) {
    sheet.Fail(Status(ErrorCode::kInvalidRequest,
                      "xlsx: the sheet has more than " + std::to_string(limits.max_xlsx_rows) +
                          " data rows (at sheet row " + std::to_string(row.sheet_row) +
                          "); split the file."));
    return;
  }
  row.cells.resize(header.size());
  row.kinds.resize(header.size(), CellKind::kString);
  ready.push_back(std::move(row));
}

Result<ReadState> XlsxReader::Pump() {
  Impl& im = *impl_;
  while (im.ready.empty() && !im.sheet_done) {
    auto piece = im.zip.Chunk();
    if (!piece.ok()) return piece.status();
    const bool last = piece->empty();
    if (Status s = im.sheet.Parse(*piece, last, im.sheet_path); !s.ok()) return s;
    if (last) im.sheet_done = true;
  }
  if (im.ready.empty()) {
    if (!im.have_header || rows_read_ == 0) {
      return Status(ErrorCode::kEmptyFile,
                    im.have_header ? "The first sheet has a header row but no data rows."
                                   : "The first sheet is empty.");
    }
    return ReadState::kEnd;
  }
  Impl::Pending& row = im.ready.front();
  row_cells_ = std::move(row.cells);
  row_kinds_ = std::move(row.kinds);
  sheet_row_ = row.sheet_row;
  im.ready.pop_front();
  row_views_.assign(row_cells_.begin(), row_cells_.end());
  ++rows_read_;
  return ReadState::kRow;
}

Result<ReadState> XlsxReader::Next() {
  if (!error_.ok()) return error_;
  if (!finished_) return ReadState::kNeedMore;
  if (!opened_) {
    opened_ = true;
    error_ = Open();
    if (!error_.ok()) return error_;
  }
  auto r = Pump();
  if (!r.ok()) error_ = r.status();
  return r;
}

}  // namespace dq::ingest
