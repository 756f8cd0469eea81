// XmlReader: a product feed in XML as rows, read streamed with expat. See docs/ingest.md ("XML
// feeds") for the full rules; in short:
//
// - Accepted documents: RSS 2.0 (<rss><channel><item>), Atom 1.0 and 0.3 (<feed><entry>) and
//   RSS 1.0 (<rdf:RDF><item>), as Google Merchant Center takes them, and WordPress's export
//   (WXR, an RSS 2.0 document), which is WooCommerce's XML export. Each item / entry is a row.
// - Columns are named as Google names the attributes: an element in Google's namespace
//   (http://base.google.com/ns/1.0, whatever its prefix) by its local name (<g:price> is
//   `price`), as are RSS's and Atom's own elements (<title>, <link>, Atom's <link href> and <id>;
//   Atom's <summary> is `description`). Elements of other namespaces keep their prefix
//   (`dc:creator`). When an item gives one attribute both as a Google element and as a plain one
//   (<title> and <g:title>), the Google element is the cell; the other is kept in the file as is.
// - An element with child elements (<g:shipping>) is one column named as in Google's text feeds,
//   with its sub-attributes in order: `shipping(country:service:price)`, its value
//   `US:Standard:4.95 USD`. Another order or set of sub-attributes is another column.
// - An element repeated in an item (<g:additional_image_link>) is one cell, the values joined
//   by "," in file order (Google's text-feed form); so are repeated groups.
// - WXR: a <wp:postmeta> is the column named by its <wp:meta_key> (`_sku`, `_regular_price`),
//   a <category domain="..."> the column named by its domain (`product_cat`).
// - The header is the union of columns in first-seen order: it grows while reading, as the JSON
//   readers' does (row_reader.h).
// - Refused: a DOCTYPE (so no DTD, no entity declaration, nothing expands or is fetched);
//   malformed XML (the message names expat's reason, line and column); another root element.
// - Limits: an item, and the XML between two items, of at most ReaderLimits::max_record_bytes;
//   max_cells columns; elements nested at most max_xml_depth deep.
// - Memory: the chunk being read plus the current item (the XML since the previous item's end is
//   kept for the writer: see XmlRowSource); input is read in place when it can be.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dq/ingest/row_reader.h"

namespace dq::ingest {

// One place in the file where one value of a cell is written, for a writer that gives the file
// back with only the fixed values changed (xml_writer.h).
struct XmlValueSlot {
  enum class Kind : uint8_t {
    kContent,       // the content between a start tag and its end tag: [begin, end)
    kEmptyElement,  // an empty-element tag (<g:gtin/>): [begin, end) is the whole tag
    kAttribute,     // an attribute's value between its quotes (Atom's <link href="...">)
  };
  Kind kind = Kind::kContent;
  bool cdata = false;     // the content holds a CDATA section: a new value is written as one
  bool in_cell = true;    // false: shadowed by a Google element of the same name; left alone
  char separator = 0;     // what precedes the value in its cell: 0 (the first), ',' or ':'
  uint32_t column = 0;
  uint64_t begin = 0;     // file offsets
  uint64_t end = 0;
  std::string_view value;  // its text as read (a part of the cell)
};

// The current row's part of the file: from the end of the previous item (or the start of the
// file) to the end of this item. After Next() returned kEnd: from the end of the last item to
// the end of the file, with no slots. Valid as long as row() is.
struct XmlRowSource {
  uint64_t offset = 0;    // file offset of text[0]
  std::string_view text;
  std::span<const XmlValueSlot> slots;  // in file order
  // The value of the XML declaration's encoding="..." when it names another encoding than
  // UTF-8 (the text is UTF-8 by the time it is read), as file offsets; equal when none.
  uint64_t encoding_begin = 0;
  uint64_t encoding_end = 0;
};

class XmlReader final : public RowReader {
 public:
  explicit XmlReader(const ReaderLimits& limits);
  ~XmlReader() override;

  void Feed(std::string_view bytes) override;
  void Finish() override;
  Result<ReadState> Next() override;

  const std::vector<std::string>& header() const override;
  std::span<const std::string_view> row() const override;
  std::span<const CellKind> cell_kinds() const override { return {}; }
  uint64_t rows_read() const override;
  uint64_t record_offset() const override;
  const XmlRowSource* xml_source() const override;
  std::span<const std::string> xml_namespaces() const override;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace dq::ingest
