// XmlFeedWriter: the cleaned file of an XML feed is the upload itself, part by part as the
// XmlReader read it, with only the fixed values written anew. Everything else (the declaration,
// namespaces, element order, comments, whitespace, CDATA, elements dq does not read) is copied
// byte for byte, so a feed read and written with no fix is the same file.
//
//   XmlReader reader(limits);                 // fed and drained as usual
//   ... on each row: writer.WriteRow(*reader.xml_source(), reader.row(), cleaned_cells, &out);
//   ... after kEnd:  writer.WriteEnd(*reader.xml_source(), &out);
//
// How a changed cell is written (docs/ingest.md, "XML feeds"):
// - a value from element content replaces that content: escaped (&amp; &lt; &gt;, CR as &#13;),
//   or as a CDATA section where the content held one; an empty-element tag (<g:gtin/>) becomes
//   a start and end tag around it; Atom's <link href> gets a new href;
// - a cell of several values (a repeated element, a group such as shipping) is split at the
//   separators it was joined with, and each element that changed is written; when that cannot
//   be done (a value holds a separator, or the fixed cell has fewer parts), the item is left as
//   it was and the fix counted in unplaced();
// - a fix to a column the item has no element for is not written (no element is added), and
//   counted in unplaced();
// - a character XML 1.0 cannot hold (a control character other than TAB, LF, CR) is written as
//   U+FFFD;
// - the declaration's encoding="..." names UTF-8 when it named another: the text is UTF-8 by
//   the time it is read (upload_decode.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "dq/ingest/xml_reader.h"

namespace dq::ingest {

class XmlFeedWriter {
 public:
  // Appends the part of the file `source` covers, with `cells` in place of `original` (the
  // reader's row) where they differ. Cells past either span are ignored.
  void WriteRow(const XmlRowSource& source, std::span<const std::string_view> original,
                std::span<const std::string_view> cells, std::string* out);
  // Appends the end of the file (the reader's xml_source() after kEnd).
  void WriteEnd(const XmlRowSource& tail, std::string* out);
  // Fixes that could not be written (see above).
  uint64_t unplaced() const { return unplaced_; }

 private:
  uint64_t unplaced_ = 0;
};

// Text as XML element content / as an attribute value between `quote`s (exposed for tests).
void AppendXmlText(std::string& out, std::string_view text);
void AppendXmlAttribute(std::string& out, std::string_view text, char quote);

}  // namespace dq::ingest
