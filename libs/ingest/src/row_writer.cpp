#include "dq/ingest/row_writer.h"

#include "dq/common/json_escape.h"


namespace dq::ingest {
namespace {

bool IsJsonNumber(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    const size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > from;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

}  // namespace

void AppendNeutralised(std::string& out, std::string_view cell) {
  if (StartsLikeAFormula(cell)) out.push_back('\'');
  out.append(cell);
}

RowWriter::RowWriter(FileFormat format, CsvDialect dialect, std::vector<std::string> header,
                     FormulaCells formulas)
    : format_(format), dialect_(dialect), formulas_(formulas), header_(std::move(header)) {
  if (format_ == FileFormat::kTsv) dialect_.delimiter = '\t';
  switch (format_) {
    case FileFormat::kXlsx:
      xlsx_ = std::make_unique<XlsxWriter>(header_);
      break;
    case FileFormat::kXml:
      break;  // the file's own text, row by row
    case FileFormat::kCsv:
    case FileFormat::kTsv: {
      if (dialect_.bom) out_ += "\xEF\xBB\xBF";
      std::vector<std::string_view> names(header_.begin(), header_.end());
      for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out_.push_back(dialect_.delimiter);
        WriteCsvCell(names[i]);
      }
      out_ += dialect_.crlf ? "\r\n" : "\n";
      break;
    }
    case FileFormat::kJsonArray:
      out_ += "[";
      [[fallthrough]];
    case FileFormat::kNdjson:
      for (const std::string& name : header_) {
        std::string key;
        AppendJsonString(key, name);
        key.push_back(':');
        json_keys_.push_back(std::move(key));
      }
      break;
  }
}

void RowWriter::WriteCsvCell(std::string_view cell) {
  if (formulas_ == FormulaCells::kNeutralise && StartsLikeAFormula(cell)) {
    neutralised_.assign("'").append(cell);
    cell = neutralised_;
  }
  const char d = dialect_.delimiter;
  bool quote = !cell.empty() && (cell.front() == ' ' || cell.back() == ' ');
  for (char c : cell) {
    if (c == d || c == '"' || c == '\n' || c == '\r') {
      quote = true;
      break;
    }
  }
  // A lone empty column in a one-column file would read back as a blank line (skipped).
  if (cell.empty() && header_.size() == 1) quote = true;
  // Text starting with U+FEFF at the very start of the file would read back as a BOM.
  if (out_.size() == (dialect_.bom ? 3u : 0u) && cell.starts_with("\xEF\xBB\xBF")) quote = true;
  if (!quote) {
    out_.append(cell);
    return;
  }
  out_.push_back('"');
  size_t run = 0;
  for (size_t i = 0; i < cell.size(); ++i) {
    if (cell[i] == '"') {
      out_.append(cell.data() + run, i + 1 - run);
      out_.push_back('"');
      run = i + 1;
    }
  }
  out_.append(cell.data() + run, cell.size() - run);
  out_.push_back('"');
}

void RowWriter::WriteRow(std::span<const std::string_view> cells,
                         std::span<const CellKind> kinds) {
  const size_t width = header_.size();
  if (xlsx_) {
    xlsx_->WriteRow(cells, kinds);
    ++rows_;
    return;
  }
  if (format_ == FileFormat::kXml) {
    const XmlRowSource* source = source_ ? source_->xml_source() : nullptr;
    if (source) xml_.WriteRow(*source, source_->row(), cells, &out_);
    ++rows_;
    return;
  }
  if (format_ == FileFormat::kCsv || format_ == FileFormat::kTsv) {
    for (size_t i = 0; i < width; ++i) {
      if (i > 0) out_.push_back(dialect_.delimiter);
      if (i < cells.size()) WriteCsvCell(cells[i]);
    }
    if (width == 1 && cells.empty()) out_ += "\"\"";
    out_ += dialect_.crlf ? "\r\n" : "\n";
    ++rows_;
    return;
  }
  if (format_ == FileFormat::kJsonArray) out_ += rows_ == 0 ? "\n" : ",\n";
  const std::vector<std::vector<std::string>>* paths =
      paths_ ? paths_ : source_ ? source_->json_paths() : nullptr;
  if (paths) {
    WriteNestedRow(cells, kinds, *paths);
  } else {
    out_.push_back('{');
    bool first = true;
    for (size_t i = 0; i < width && i < cells.size(); ++i) {
      const CellKind kind = i < kinds.size() ? kinds[i] : CellKind::kString;
      if (kind == CellKind::kMissing) continue;
      if (!first) out_.push_back(',');
      first = false;
      out_ += json_keys_[i];
      WriteJsonValue(cells[i], kind);
    }
    out_.push_back('}');
  }
  if (format_ == FileFormat::kNdjson) out_.push_back('\n');
  ++rows_;
}

void RowWriter::WriteJsonValue(std::string_view v, CellKind kind) {
  switch (kind) {
    case CellKind::kNull: out_ += "null"; break;
    case CellKind::kJson: out_ += v; break;
    case CellKind::kNumber:
      if (IsJsonNumber(v)) {
        out_ += v;
      } else {
        AppendJsonString(out_, v);
      }
      break;
    case CellKind::kBool:
      if (v == "true" || v == "false") {
        out_ += v;
      } else {
        AppendJsonString(out_, v);
      }
      break;
    default: AppendJsonString(out_, v); break;
  }
}

void RowWriter::WriteNestedRow(std::span<const std::string_view> cells,
                               std::span<const CellKind> kinds,
                               const std::vector<std::vector<std::string>>& paths) {
  // The row as a tree, built in column order: an object is placed where its first member with
  // a value is, and its members follow in column order.
  nodes_.clear();
  nodes_.emplace_back();
  const size_t width = header_.size();
  for (size_t i = 0; i < width && i < cells.size(); ++i) {
    const CellKind kind = i < kinds.size() ? kinds[i] : CellKind::kString;
    if (kind == CellKind::kMissing) continue;
    size_t node = 0;
    if (i < paths.size() && paths[i].size() > 1) {
      const std::vector<std::string>& path = paths[i];
      for (size_t d = 0; d + 1 < path.size(); ++d) {
        size_t next = SIZE_MAX;
        for (size_t k : nodes_[node].kids) {
          if (nodes_[k].column == SIZE_MAX && nodes_[k].key == path[d]) {
            next = k;
            break;
          }
        }
        if (next == SIZE_MAX) {
          next = nodes_.size();
          nodes_.push_back({path[d], SIZE_MAX, {}});
          nodes_[node].kids.push_back(next);
        }
        node = next;
      }
      nodes_[node].kids.push_back(nodes_.size());
      nodes_.push_back({path.back(), i, {}});
    } else {
      nodes_[0].kids.push_back(nodes_.size());
      nodes_.push_back({std::string_view(header_[i]), i, {}});
    }
  }
  WriteJsonNode(0, cells, kinds);
}

void RowWriter::WriteJsonNode(size_t node, std::span<const std::string_view> cells,
                              std::span<const CellKind> kinds) {
  out_.push_back('{');
  for (size_t n = 0; n < nodes_[node].kids.size(); ++n) {
    const size_t k = nodes_[node].kids[n];
    if (n > 0) out_.push_back(',');
    AppendJsonString(out_, nodes_[k].key);
    out_.push_back(':');
    const size_t column = nodes_[k].column;
    if (column == SIZE_MAX) {
      WriteJsonNode(k, cells, kinds);
    } else {
      WriteJsonValue(cells[column], column < kinds.size() ? kinds[column] : CellKind::kString);
    }
  }
  out_.push_back('}');
}

Status RowWriter::Finish() {
  if (xlsx_) {
    auto book = xlsx_->Finish(sheet_name_);
    xlsx_.reset();
    if (!book.ok()) return book.status();
    out_ += *book;
    return Status::Ok();
  }
  if (format_ == FileFormat::kJsonArray) out_ += rows_ == 0 ? "]\n" : "\n]\n";
  if (format_ == FileFormat::kXml && source_ && source_->xml_source()) {
    xml_.WriteEnd(*source_->xml_source(), &out_);
  }
  return Status::Ok();
}

}  // namespace dq::ingest
