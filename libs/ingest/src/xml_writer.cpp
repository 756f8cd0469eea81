#include "dq/ingest/xml_writer.h"

#include <optional>
#include <vector>

namespace dq::ingest {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Appends s[i] (and what follows, for U+FFFE / U+FFFF) when XML 1.0 can hold it; returns the
// number of bytes consumed when it wrote a replacement instead, else 0.
size_t NotXmlChar(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return 1;
  if (c == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBF &&
      (static_cast<unsigned char>(s[i + 2]) == 0xBE ||
       static_cast<unsigned char>(s[i + 2]) == 0xBF)) {
    return 3;
  }
  return 0;
}

void AppendCdata(std::string& out, std::string_view text) {
  out += "<![CDATA[";
  for (size_t i = 0; i < text.size(); ++i) {
    if (const size_t bad = NotXmlChar(text, i)) {
      out += kReplacement;
      i += bad - 1;
    } else if (text.substr(i).starts_with("]]>")) {
      out += "]]]]><![CDATA[>";
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  out += "]]>";
}

std::string_view TagName(std::string_view tag) {  // "<g:gtin a='1'/>" -> "g:gtin"
  size_t i = 1;
  while (i < tag.size() && tag[i] != ' ' && tag[i] != '\t' && tag[i] != '\r' && tag[i] != '\n' &&
         tag[i] != '/' && tag[i] != '>') {
    ++i;
  }
  return tag.substr(1, i - 1);
}

}  // namespace

void AppendXmlText(std::string& out, std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (const size_t bad = NotXmlChar(text, i)) {
      out += kReplacement;
      i += bad - 1;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\r': out += "&#13;"; break;  // a parser would read a raw CR as LF
      default: out.push_back(c);
    }
  }
}

void AppendXmlAttribute(std::string& out, std::string_view text, char quote) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (const size_t bad = NotXmlChar(text, i)) {
      out += kReplacement;
      i += bad - 1;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '"': out += quote == '"' ? "&quot;" : "\""; break;
      case '\'': out += quote == '\'' ? "&apos;" : "'"; break;
      case '\t': out += "&#9;"; break;  // attribute values are normalised: keep them as read
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      default: out.push_back(c);
    }
  }
}

void XmlFeedWriter::WriteRow(const XmlRowSource& source,
                             std::span<const std::string_view> original,
                             std::span<const std::string_view> cells, std::string* out) {
  const size_t width = std::min(original.size(), cells.size());
  for (size_t c = width; c < cells.size(); ++c) {
    if (!cells[c].empty()) ++unplaced_;  // a column this item has no element for
  }
  bool changed = source.encoding_begin < source.encoding_end;
  for (size_t c = 0; c < width && !changed; ++c) changed = cells[c] != original[c];
  if (!changed) {
    out->append(source.text);
    return;
  }
  // The new text of each slot that changes.
  std::vector<std::optional<std::string_view>> repl(source.slots.size());
  std::vector<size_t> mine;
  for (size_t c = 0; c < width; ++c) {
    if (cells[c] == original[c]) continue;
    mine.clear();
    for (size_t i = 0; i < source.slots.size(); ++i) {
      if (source.slots[i].column == c && source.slots[i].in_cell) mine.push_back(i);
    }
    if (mine.empty()) {
      ++unplaced_;
      continue;
    }
    if (mine.size() == 1) {
      repl[mine[0]] = cells[c];
      continue;
    }
    // Several values: split the new cell where the old one was joined. Only when no old value
    // holds a separator, so that the split is the join's inverse.
    bool ok = true;
    for (size_t i : mine) {
      for (size_t j : mine) {
        const char sep = source.slots[j].separator;
        if (sep && source.slots[i].value.find(sep) != std::string_view::npos) ok = false;
      }
    }
    std::vector<std::string_view> parts;
    const std::string_view cell = cells[c];
    size_t at = 0;
    for (size_t k = 1; ok && k < mine.size(); ++k) {
      const size_t next = cell.find(source.slots[mine[k]].separator, at);
      if (next == std::string_view::npos) {
        ok = false;
        break;
      }
      parts.push_back(cell.substr(at, next - at));
      at = next + 1;
    }
    if (!ok) {
      ++unplaced_;
      continue;
    }
    parts.push_back(cell.substr(at));
    for (size_t k = 0; k < mine.size(); ++k) {
      if (parts[k] != source.slots[mine[k]].value) repl[mine[k]] = parts[k];
    }
  }
  uint64_t cursor = source.offset;
  auto copy_to = [&](uint64_t to) {
    out->append(source.text.substr(cursor - source.offset, to - cursor));
    cursor = to;
  };
  if (source.encoding_begin < source.encoding_end) {
    copy_to(source.encoding_begin);
    *out += "UTF-8";
    cursor = source.encoding_end;
  }
  for (size_t i = 0; i < source.slots.size(); ++i) {
    if (!repl[i]) continue;
    const XmlValueSlot& s = source.slots[i];
    const std::string_view value = *repl[i];
    copy_to(s.begin);
    switch (s.kind) {
      case XmlValueSlot::Kind::kContent:
        if (s.cdata && value.find('\r') == std::string_view::npos) {
          AppendCdata(*out, value);
        } else {
          AppendXmlText(*out, value);
        }
        break;
      case XmlValueSlot::Kind::kEmptyElement: {
        const std::string_view tag = source.text.substr(s.begin - source.offset, s.end - s.begin);
        if (value.empty()) {
          out->append(tag);
          break;
        }
        out->append(tag.substr(0, tag.size() - 2));  // without "/>"
        out->push_back('>');
        AppendXmlText(*out, value);
        *out += "</";
        out->append(TagName(tag));
        out->push_back('>');
        break;
      }
      case XmlValueSlot::Kind::kAttribute:
        AppendXmlAttribute(*out, value, source.text[s.begin - source.offset - 1]);
        break;
    }
    cursor = s.end;
  }
  copy_to(source.offset + source.text.size());
}

void XmlFeedWriter::WriteEnd(const XmlRowSource& tail, std::string* out) {
  out->append(tail.text);
}

}  // namespace dq::ingest
