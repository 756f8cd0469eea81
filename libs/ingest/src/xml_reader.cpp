#include "dq/ingest/xml_reader.h"

#include <expat.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "dq/common/ascii.h"

namespace dq::ingest {
namespace {

// Input is given to expat in slices, so that its own copy stays small and the running size of
// an unfinished item is checked at least this often.
constexpr size_t kSlice = 64 * 1024;
constexpr char kNsSeparator = '\x01';
constexpr size_t kMaxNamespaces = 32;  // the item-element namespaces kept for detection  // expat's "uri<sep>local<sep>prefix"

constexpr std::string_view kGoogleNs = "http://base.google.com/ns/1.0";
constexpr std::string_view kAtomNs = "http://www.w3.org/2005/Atom";
constexpr std::string_view kAtom03Ns = "http://purl.org/atom/ns#";
constexpr std::string_view kRss1Ns = "http://purl.org/rss/1.0/";
constexpr std::string_view kRdfNs = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
constexpr std::string_view kWordPressNs = "http://wordpress.org/export/";  // then "1.2/"

struct Name {
  std::string_view uri, local, prefix;
};

Name SplitName(std::string_view s) {
  Name n;
  const size_t a = s.find(kNsSeparator);
  if (a == std::string_view::npos) {
    n.local = s;
    return n;
  }
  n.uri = s.substr(0, a);
  const size_t b = s.find(kNsSeparator, a + 1);
  if (b == std::string_view::npos) {
    n.local = s.substr(a + 1);
    return n;
  }
  n.local = s.substr(a + 1, b - a - 1);
  n.prefix = s.substr(b + 1);
  return n;
}

bool IsAtom(std::string_view uri) { return uri == kAtomNs || uri == kAtom03Ns; }

// The element as written: "g:price", "price".
std::string QualifiedName(const Name& n) {
  if (n.prefix.empty()) return std::string(n.local);
  return std::string(n.prefix) + ":" + std::string(n.local);
}

bool IsXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// The value of attribute `name` in a start tag (or the XML declaration) that expat has already
// accepted as well-formed, as offsets into `tag` (between the quotes).
std::optional<std::pair<size_t, size_t>> AttributeSpan(std::string_view tag,
                                                       std::string_view name) {
  size_t i = 1;
  while (i < tag.size() && !IsXmlSpace(tag[i]) && tag[i] != '>' && tag[i] != '/') ++i;
  while (i < tag.size()) {
    while (i < tag.size() && IsXmlSpace(tag[i])) ++i;
    if (i >= tag.size() || tag[i] == '>' || tag[i] == '/' || tag[i] == '?') return std::nullopt;
    const size_t n0 = i;
    while (i < tag.size() && tag[i] != '=' && !IsXmlSpace(tag[i])) ++i;
    const std::string_view attr = tag.substr(n0, i - n0);
    while (i < tag.size() && tag[i] != '"' && tag[i] != '\'') ++i;
    if (i >= tag.size()) return std::nullopt;
    const char quote = tag[i];
    const size_t v0 = ++i;
    const size_t v1 = tag.find(quote, v0);
    if (v1 == std::string_view::npos) return std::nullopt;
    if (attr == name) return std::make_pair(v0, v1);
    i = v1 + 1;
  }
  return std::nullopt;
}

bool IsUtf8Label(std::string_view label) {
  const std::string l = ascii::Lower(label);
  return l == "utf-8" || l == "utf8";
}

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

}  // namespace

struct XmlReader::Impl {
  // What an item's direct child element is, by its expat name (cached: items repeat them).
  struct FieldInfo {
    std::string name;       // the column's name when it holds text: "price", "dc:creator"
    bool google = false;    // in Google's namespace
    bool atom_link = false;  // Atom's <link>: the value is its href
    bool category = false;   // RSS <category>: in a WordPress export, named by its domain
    bool postmeta = false;   // WordPress's <wp:postmeta>: named by its meta_key
    int64_t column = -1;     // its text column, once known
  };
  // A child of a field (a sub-attribute: <g:country> in <g:shipping>).
  struct Sub {
    size_t name_at = 0, name_size = 0;  // in sub_names
    size_t text_at = 0, text_size = 0;  // in text
    uint64_t tag_begin = 0, tag_end = 0, end = 0;
    bool empty_tag = false;
    bool cdata = false;
    bool has_children = false;
  };
  // A slot before the row is built: its value as offsets into `text`.
  struct Pending {
    XmlValueSlot slot;
    size_t text_at = 0, text_size = 0;
    bool google = false;
    bool first_of_group = true;  // a simple value, or the first sub-attribute of a group
  };
  enum class Capture { kNone, kField, kSub };
  enum class Kind { kNone, kRss, kAtom, kRdf };

  explicit Impl(const ReaderLimits& l);
  ~Impl() { XML_ParserFree(parser); }

  // ---- input -----------------------------------------------------------------------------
  void Feed(std::string_view bytes);
  void Hold();
  std::string_view Bytes(uint64_t begin, uint64_t end) const {
    return data.substr(begin - base, end - begin);
  }
  Result<ReadState> Next();
  Result<ReadState> End();
  Status Error(Status s) {
    error = s;
    return s;
  }

  // ---- parsing ---------------------------------------------------------------------------
  void Fail(std::string message) {
    if (failed) return;
    failed = true;
    failure = Status(ErrorCode::kInvalidRequest, std::move(message));
    XML_StopParser(parser, XML_FALSE);
  }
  std::string Here() const {
    return "line " + std::to_string(XML_GetCurrentLineNumber(parser)) + ", column " +
           std::to_string(XML_GetCurrentColumnNumber(parser) + 1);
  }
  // The same words whenever it is found (at the next item, or in the middle of the text).
  std::string OutsideTooLong() const {
    return std::string(rows == 0 ? "XML before the first item"
                                 : "XML after item " + std::to_string(rows)) +
           ": more than " + std::to_string(limits.max_record_bytes) + " bytes outside items";
  }
  std::string Where() const {
    if (item_depth > 0) {
      return "item " + std::to_string(rows + 1) + " (line " + std::to_string(item_line) + ")";
    }
    return "XML at " + Here();
  }
  uint64_t Index() const { return static_cast<uint64_t>(XML_GetCurrentByteIndex(parser)); }
  uint64_t Count() const { return static_cast<uint64_t>(XML_GetCurrentByteCount(parser)); }

  void OnStart(const char* raw, const char** attrs);
  void OnEnd();
  void OnText(const char* s, int len);
  void OnCdata() {
    if (capture == Capture::kField) field_cdata = true;
    if (capture == Capture::kSub) subs.back().cdata = true;
  }
  void OnXmlDecl(const char* encoding);
  void OutsideStart(const Name& n);
  void FieldStart(const char* raw, const char** attrs);
  void FieldEnd();
  void SubStart(const char* raw);
  void SubEnd();
  void ItemEnd();
  FieldInfo& Info(const char* raw);
  // The column for `key` ("S" text, "P" group, "C" category, "M" meta), added under `name`
  // (made unique) when new; -1 after Fail().
  int64_t Column(std::string_view key, std::string_view name);
  void AddSlot(uint32_t column, XmlValueSlot::Kind kind, uint64_t begin, uint64_t end,
               size_t text_at, size_t text_size, bool cdata, bool google, bool first);

  ReaderLimits limits;
  XML_Parser parser;

  std::string own;          // held input, when not reading the caller's chunk in place
  std::string_view data;    // input from file offset `base`
  uint64_t base = 0;
  uint64_t parsed = 0;      // file offset up to which expat has been given the input
  uint64_t keep_from = 0;   // input from here on is kept (the current row's part of the file)
  uint64_t total = 0;       // bytes fed
  bool borrowed = false;
  bool finished = false;
  bool final_fed = false;
  bool suspended = false;   // expat stopped at an item's end; resume before giving more
  bool row_out = false;     // a row was returned: its part of the file is let go at Next()
  bool ended = false;
  std::optional<Status> error;
  bool failed = false;      // a handler stopped the parser with `failure`
  Status failure;

  // The document.
  Kind kind = Kind::kNone;
  bool root_seen = false;
  bool wordpress = false;   // a WordPress export (WXR): its namespace was seen
  int depth = 0;
  int container_depth = -1;  // items are children of the element at this depth
  uint64_t encoding_begin = 0, encoding_end = 0;

  // The item being read.
  int item_depth = 0;       // 0: outside items
  uint64_t item_begin = 0, item_tag_end = 0, item_line = 0, row_end = 0;
  std::string text;         // the item's values, decoded, back to back
  std::vector<Pending> pending;
  Capture capture = Capture::kNone;
  // Its current field.
  FieldInfo* field = nullptr;
  uint64_t field_tag_begin = 0, field_tag_end = 0;
  size_t field_text_at = 0;
  bool field_has_children = false;
  bool field_cdata = false;
  bool field_href = false;
  uint64_t href_begin = 0, href_end = 0;
  size_t href_at = 0, href_size = 0;
  std::string domain;       // a <category>'s domain
  std::vector<Sub> subs;
  std::string sub_names;
  std::string key;          // scratch for column keys
  std::string name;         // scratch for column names

  // Columns.
  std::vector<std::string> header;
  std::vector<std::string> namespaces;  // of the elements seen in items (xml_namespaces())
  StringMap<int64_t> columns;  // by key
  std::unordered_set<std::string> names;
  StringMap<FieldInfo> infos;  // by expat's name
  // Per column, stamped with the row's generation: seen in this row, its in-cell values, a
  // Google element among them.
  uint64_t generation = 0;
  std::vector<uint64_t> seen_gen, google_gen, count_gen;
  std::vector<uint32_t> counts;

  // The row.
  uint64_t rows = 0;
  std::vector<XmlValueSlot> slots;
  std::vector<std::string_view> cells;
  std::string joined;       // cells of more than one value
  XmlRowSource source;
};

XmlReader::Impl::Impl(const ReaderLimits& l) : limits(l) {
  // The text is UTF-8 by now (upload_decode.h converted it), whatever the declaration says.
  parser = XML_ParserCreateNS("UTF-8", kNsSeparator);
  XML_SetReturnNSTriplet(parser, XML_TRUE);
  XML_SetUserData(parser, this);
  XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER);
  XML_SetElementHandler(
      parser,
      [](void* self, const XML_Char* n, const XML_Char** a) {
        static_cast<Impl*>(self)->OnStart(n, a);
      },
      [](void* self, const XML_Char*) { static_cast<Impl*>(self)->OnEnd(); });
  XML_SetCharacterDataHandler(parser, [](void* self, const XML_Char* s, int len) {
    static_cast<Impl*>(self)->OnText(s, len);
  });
  XML_SetCdataSectionHandler(
      parser, [](void* self) { static_cast<Impl*>(self)->OnCdata(); }, nullptr);
  XML_SetXmlDeclHandler(parser, [](void* self, const XML_Char*, const XML_Char* encoding, int) {
    static_cast<Impl*>(self)->OnXmlDecl(encoding);
  });
  // No DTD: it could declare entities that expand without bound (billion laughs) or name
  // external ones (a file or URL). Refused at its first byte, before anything is declared.
  XML_SetStartDoctypeDeclHandler(
      parser, [](void* self, const XML_Char*, const XML_Char*, const XML_Char*, int) {
        Impl* im = static_cast<Impl*>(self);
        im->Fail("XML at line " + std::to_string(XML_GetCurrentLineNumber(im->parser)) +
                 ": a document type declaration (<!DOCTYPE ...>) is not accepted: a DTD can "
                 "declare entities that expand without bound or read other files. Remove it "
                 "from the feed.");
      });
  XML_SetEntityDeclHandler(parser, [](void* self, const XML_Char*, int, const XML_Char*, int,
                                      const XML_Char*, const XML_Char*, const XML_Char*,
                                      const XML_Char*) {
    Impl* im = static_cast<Impl*>(self);
    im->Fail("XML at line " + std::to_string(XML_GetCurrentLineNumber(im->parser)) +
             ": entity declarations are not accepted.");
  });
}

// ---- input -------------------------------------------------------------------------------

void XmlReader::Impl::Feed(std::string_view bytes) {
  if (bytes.empty()) return;
  total += bytes.size();
  const uint64_t end = base + data.size();
  if (keep_from == end) {  // nothing held: read the chunk in place
    own.clear();
    data = bytes;
    base = end;
    borrowed = true;
    return;
  }
  if (borrowed) {
    own.assign(data.substr(keep_from - base));
  } else {
    own.erase(0, keep_from - base);
  }
  base = keep_from;
  own.append(bytes);
  data = own;
  borrowed = false;
}

// The caller may let its chunk go: keep what is still needed.
void XmlReader::Impl::Hold() {
  if (!borrowed) return;
  own.assign(data.substr(keep_from - base));
  base = keep_from;
  data = own;
  borrowed = false;
}

Result<ReadState> XmlReader::Impl::Next() {
  if (error) return *error;
  if (ended) return ReadState::kEnd;
  if (row_out) {
    row_out = false;
    keep_from = row_end;
  }
  while (true) {
    XML_Status status;
    if (suspended) {
      suspended = false;
      status = XML_ResumeParser(parser);
    } else if (parsed < base + data.size()) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(kSlice, base + data.size() - parsed));
      const char* at = data.data() + (parsed - base);
      parsed += n;
      status = XML_Parse(parser, at, static_cast<int>(n), XML_FALSE);
    } else if (finished && !final_fed) {
      if (total == 0) return Error(Status(ErrorCode::kEmptyFile, "The file is empty."));
      final_fed = true;
      status = XML_Parse(parser, "", 0, XML_TRUE);
    } else if (finished) {
      return End();
    } else {
      Hold();
      return ReadState::kNeedMore;
    }
    if (status == XML_STATUS_SUSPENDED) {
      suspended = true;
      row_out = true;
      return ReadState::kRow;
    }
    if (status == XML_STATUS_ERROR) {
      if (failed) return Error(failure);
      const XML_Error code = XML_GetErrorCode(parser);
      if (code == XML_ERROR_NO_ELEMENTS && !root_seen) {
        return Error(Status(ErrorCode::kEmptyFile, "The file holds no XML element."));
      }
      std::string why = XML_ErrorString(code);
      if (code == XML_ERROR_UNDEFINED_ENTITY) {
        why += " (HTML entities such as &nbsp; are not XML: write the character itself, or a "
               "numeric reference such as &#160;)";
      } else if (code == XML_ERROR_UNBOUND_PREFIX) {
        why += " (a prefix such as g: is used without its namespace: declare "
               "xmlns:g=\"http://base.google.com/ns/1.0\" on the root element)";
      }
      return Error(
          Status(ErrorCode::kInvalidRequest, "XML is malformed at " + Here() + ": " + why));
    }
    // A slice read without reaching an item's end: the unfinished part must stay in bounds
    // (a text or tag that never ends is caught here, not after the whole file).
    const uint64_t max = limits.max_record_bytes;
    if (item_depth > 0 && parsed - item_begin > max) {
      return Error(Status(ErrorCode::kInvalidRequest,
                          Where() + ": the item is longer than " + std::to_string(max) +
                              " bytes"));
    }
    if (item_depth == 0 && parsed - keep_from > max) {
      return Error(Status(ErrorCode::kInvalidRequest, OutsideTooLong()));
    }
  }
}

Result<ReadState> XmlReader::Impl::End() {
  if (rows == 0) {
    return Error(Status(ErrorCode::kEmptyFile,
                        "The feed has no items: no <item> (RSS) or <entry> (Atom) element."));
  }
  if (total - keep_from > limits.max_record_bytes) {
    return Error(Status(ErrorCode::kInvalidRequest, OutsideTooLong()));
  }
  Hold();  // the end of the file outlives the caller's chunk
  source = {};
  source.offset = keep_from;
  source.text = data.substr(keep_from - base);
  ended = true;
  return ReadState::kEnd;
}

// ---- parsing -----------------------------------------------------------------------------

void XmlReader::Impl::OnXmlDecl(const char* encoding) {
  if (encoding == nullptr || IsUtf8Label(encoding)) return;
  const uint64_t at = Index();
  const auto span = AttributeSpan(Bytes(at, at + Count()), "encoding");
  if (!span) return;
  encoding_begin = at + span->first;
  encoding_end = at + span->second;
}

void XmlReader::Impl::OnStart(const char* raw, const char** attrs) {
  if (failed) return;
  if (++depth > static_cast<int>(limits.max_xml_depth)) {
    Fail(Where() + ": elements are nested more than " + std::to_string(limits.max_xml_depth) +
         " deep");
    return;
  }
  if (item_depth == 0) {
    OutsideStart(SplitName(raw));
    return;
  }
  const int rel = depth - item_depth;
  if (rel == 1) {
    FieldStart(raw, attrs);
  } else if (rel == 2) {
    SubStart(raw);
  } else if (rel == 3) {  // a sub-attribute with children holds no value
    Sub& s = subs.back();
    if (!s.has_children) {
      s.has_children = true;
      text.resize(s.text_at);
      capture = Capture::kNone;
    }
  }
}

void XmlReader::Impl::OutsideStart(const Name& n) {
  if (n.uri.starts_with(kWordPressNs)) wordpress = true;
  if (depth == 1) {
    root_seen = true;
    if (n.local == "rss" && n.uri.empty()) {
      kind = Kind::kRss;
    } else if (n.local == "feed" && IsAtom(n.uri)) {
      kind = Kind::kAtom;
      container_depth = 1;
    } else if (n.local == "RDF" && n.uri == kRdfNs) {
      kind = Kind::kRdf;
      container_depth = 1;
    } else {
      Fail("XML at " + Here() + ": the root element is <" + QualifiedName(n) +
           ">, not <rss> (RSS 2.0), <feed> (Atom) or <rdf:RDF> (RSS 1.0); dq reads product "
           "feeds in these forms, as Google Merchant Center and WooCommerce write them.");
    }
    return;
  }
  if (kind == Kind::kRss && depth == 2 && n.local == "channel" && n.uri.empty()) {
    container_depth = 2;
    return;
  }
  if (depth != container_depth + 1) return;
  const bool item = kind == Kind::kAtom
                        ? n.local == "entry" && IsAtom(n.uri)
                        : n.local == "item" && (n.uri.empty() || n.uri == kRss1Ns);
  if (!item) return;
  item_depth = depth;
  item_begin = Index();
  item_tag_end = item_begin + Count();
  item_line = XML_GetCurrentLineNumber(parser);
  text.clear();
  pending.clear();
  capture = Capture::kNone;
}

XmlReader::Impl::FieldInfo& XmlReader::Impl::Info(const char* raw) {
  const std::string_view whole(raw);
  auto it = infos.find(whole);
  if (it != infos.end()) return it->second;
  const Name n = SplitName(whole);
  FieldInfo info;
  info.google = n.uri == kGoogleNs;
  if (info.google || n.uri.empty() || IsAtom(n.uri) || n.uri == kRss1Ns) {
    info.name = std::string(n.local);
    if (IsAtom(n.uri) && n.local == "summary") info.name = "description";  // Google's name
  } else {
    info.name = QualifiedName(n);
  }
  info.atom_link = IsAtom(n.uri) && n.local == "link";
  info.category = n.uri.empty() && n.local == "category";
  info.postmeta = n.uri.starts_with(kWordPressNs) && n.local == "postmeta";
  // For source detection (RowReader::xml_namespaces); a few at most in a real feed.
  if (!n.uri.empty() && namespaces.size() < kMaxNamespaces &&
      std::find(namespaces.begin(), namespaces.end(), n.uri) == namespaces.end()) {
    namespaces.emplace_back(n.uri);
  }
  return infos.emplace(std::string(whole), std::move(info)).first->second;
}

void XmlReader::Impl::FieldStart(const char* raw, const char** attrs) {
  field = &Info(raw);
  field_tag_begin = Index();
  field_tag_end = field_tag_begin + Count();
  field_text_at = text.size();
  field_has_children = false;
  field_cdata = false;
  field_href = false;
  subs.clear();
  sub_names.clear();
  capture = Capture::kField;
  if (field->atom_link) {
    for (size_t i = 0; attrs[i]; i += 2) {
      if (std::string_view(attrs[i]) != "href") continue;
      const auto span = AttributeSpan(Bytes(field_tag_begin, field_tag_end), "href");
      if (!span) break;
      field_href = true;
      href_begin = field_tag_begin + span->first;
      href_end = field_tag_begin + span->second;
      href_at = text.size();
      text.append(attrs[i + 1]);
      href_size = text.size() - href_at;
      field_text_at = text.size();
      capture = Capture::kNone;  // the link is the href; any content is left alone
      break;
    }
  } else if (field->category && wordpress) {
    domain.clear();
    for (size_t i = 0; attrs[i]; i += 2) {
      if (std::string_view(attrs[i]) == "domain") domain = attrs[i + 1];
    }
  }
}

void XmlReader::Impl::SubStart(const char* raw) {
  if (!field_has_children) {
    field_has_children = true;
    text.resize(field_text_at);  // the field's own text (indentation) is not a value
  }
  const std::string_view local = SplitName(raw).local;
  Sub s;
  s.name_at = sub_names.size();
  s.name_size = local.size();
  sub_names.append(local);
  s.tag_begin = Index();
  s.tag_end = s.tag_begin + Count();
  s.text_at = text.size();
  subs.push_back(s);
  capture = Capture::kSub;
}

void XmlReader::Impl::SubEnd() {
  capture = Capture::kNone;
  Sub& s = subs.back();
  if (s.has_children) return;
  s.end = Index();
  s.empty_tag = Count() == 0;
  s.text_size = text.size() - s.text_at;
}

void XmlReader::Impl::OnText(const char* s, int len) {
  if (capture == Capture::kNone || failed) return;
  text.append(s, static_cast<size_t>(len));
}

void XmlReader::Impl::AddSlot(uint32_t column, XmlValueSlot::Kind kind, uint64_t begin,
                              uint64_t end, size_t text_at, size_t text_size, bool cdata,
                              bool google, bool first) {
  Pending p;
  p.slot.kind = kind;
  p.slot.cdata = cdata;
  p.slot.column = column;
  p.slot.begin = begin;
  p.slot.end = end;
  p.text_at = text_at;
  p.text_size = text_size;
  p.google = google;
  p.first_of_group = first;
  pending.push_back(p);
}

int64_t XmlReader::Impl::Column(std::string_view k, std::string_view n) {
  auto it = columns.find(k);
  if (it != columns.end()) return it->second;
  if (header.size() >= limits.max_cells) {
    Fail(Where() + ": more than " + std::to_string(limits.max_cells) + " distinct columns");
    return -1;
  }
  std::string unique(n);
  for (int i = 2; names.contains(unique); ++i) {
    unique = std::string(n) + " (" + std::to_string(i) + ")";
  }
  const int64_t col = static_cast<int64_t>(header.size());
  header.push_back(unique);
  names.insert(std::move(unique));
  columns.emplace(std::string(k), col);
  seen_gen.push_back(0);
  google_gen.push_back(0);
  count_gen.push_back(0);
  counts.push_back(0);
  return col;
}

void XmlReader::Impl::FieldEnd() {
  capture = Capture::kNone;
  FieldInfo& f = *field;
  if (!field_has_children) {
    int64_t col;
    if (f.category && wordpress && !domain.empty()) {
      key.assign("C").append(domain);
      col = Column(key, domain);
    } else {
      if (f.column < 0) {
        key.assign("S").append(f.name);
        f.column = Column(key, f.name);
      }
      col = f.column;
    }
    if (col < 0) return;
    if (field_href) {
      AddSlot(static_cast<uint32_t>(col), XmlValueSlot::Kind::kAttribute, href_begin, href_end,
              href_at, href_size, false, f.google, true);
    } else if (Count() == 0) {
      AddSlot(static_cast<uint32_t>(col), XmlValueSlot::Kind::kEmptyElement, field_tag_begin,
              field_tag_end, field_text_at, 0, false, f.google, true);
    } else {
      AddSlot(static_cast<uint32_t>(col), XmlValueSlot::Kind::kContent, field_tag_end, Index(),
              field_text_at, text.size() - field_text_at, field_cdata, f.google, true);
    }
    return;
  }
  auto add_sub = [&](uint32_t col, const Sub& s, bool first) {
    if (s.empty_tag) {
      AddSlot(col, XmlValueSlot::Kind::kEmptyElement, s.tag_begin, s.tag_end, s.text_at, 0,
              false, f.google, first);
    } else {
      AddSlot(col, XmlValueSlot::Kind::kContent, s.tag_end, s.end, s.text_at, s.text_size,
              s.cdata, f.google, first);
    }
  };
  auto sub_name = [&](const Sub& s) {
    return std::string_view(sub_names).substr(s.name_at, s.name_size);
  };
  if (f.postmeta) {  // WordPress: <wp:meta_key>_price</wp:meta_key><wp:meta_value>...
    const Sub* meta_key = nullptr;
    const Sub* meta_value = nullptr;
    for (const Sub& s : subs) {
      if (s.has_children) continue;
      if (sub_name(s) == "meta_key") meta_key = &s;
      if (sub_name(s) == "meta_value") meta_value = &s;
    }
    if (meta_key && meta_value && meta_key->text_size > 0) {
      const std::string_view mk = std::string_view(text).substr(meta_key->text_at,
                                                                meta_key->text_size);
      key.assign("M").append(mk);
      name.assign(mk);
      const int64_t col = Column(key, name);
      if (col >= 0) add_sub(static_cast<uint32_t>(col), *meta_value, true);
      return;
    }
  }
  // A group, named as Google's text feeds name it: shipping(country:service:price).
  name.assign(f.name).push_back('(');
  bool any = false;
  for (const Sub& s : subs) {
    if (s.has_children) continue;
    if (any) name.push_back(':');
    name.append(sub_name(s));
    any = true;
  }
  if (!any) return;
  name.push_back(')');
  key.assign("P").append(name);
  const int64_t col = Column(key, name);
  if (col < 0) return;
  bool first = true;
  for (const Sub& s : subs) {
    if (s.has_children) continue;
    add_sub(static_cast<uint32_t>(col), s, first);
    first = false;
  }
}

void XmlReader::Impl::OnEnd() {
  if (failed) return;
  if (item_depth > 0) {
    const int rel = depth - item_depth;
    if (rel == 0) {
      ItemEnd();
      item_depth = 0;
    } else if (rel == 1) {
      FieldEnd();
    } else if (rel == 2) {
      SubEnd();
    }
  } else if (kind == Kind::kRss && depth == container_depth) {
    container_depth = -1;  // </channel>
  }
  --depth;
}

void XmlReader::Impl::ItemEnd() {
  const uint64_t end = Index() + Count();
  if (item_begin - keep_from > limits.max_record_bytes) {
    failed = true;
    failure = Status(ErrorCode::kInvalidRequest, OutsideTooLong());
    XML_StopParser(parser, XML_FALSE);
    return;
  }
  if (end - item_begin > limits.max_record_bytes) {
    Fail(Where() + ": the item is longer than " + std::to_string(limits.max_record_bytes) +
         " bytes");
    return;
  }
  ++generation;
  // A Google element shadows a plain one of the same name (<g:title> over <title>).
  for (const Pending& p : pending) {
    if (p.google) google_gen[p.slot.column] = generation;
  }
  slots.clear();
  for (const Pending& p : pending) {
    XmlValueSlot s = p.slot;
    const uint32_t c = s.column;
    s.in_cell = p.google || google_gen[c] != generation;
    s.value = std::string_view(text).substr(p.text_at, p.text_size);
    if (s.in_cell) {
      if (seen_gen[c] != generation) {
        seen_gen[c] = generation;
        s.separator = 0;
        counts[c] = 0;
      } else {
        s.separator = p.first_of_group ? ',' : ':';
      }
      ++counts[c];
    }
    slots.push_back(s);
  }
  cells.assign(header.size(), std::string_view());
  joined.clear();
  struct Joined {
    uint32_t column;
    size_t at, size;
  };
  std::vector<Joined> spans;
  for (const XmlValueSlot& s : slots) {
    if (!s.in_cell) continue;
    const uint32_t c = s.column;
    if (counts[c] == 1) {
      cells[c] = s.value;
      continue;
    }
    if (count_gen[c] == generation) continue;  // joined already
    count_gen[c] = generation;
    const size_t at = joined.size();
    for (const XmlValueSlot& t : slots) {
      if (t.column != c || !t.in_cell) continue;
      if (t.separator) joined.push_back(t.separator);
      joined.append(t.value);
    }
    spans.push_back({c, at, joined.size() - at});
  }
  for (const Joined& j : spans) cells[j.column] = std::string_view(joined).substr(j.at, j.size);

  source = {};
  source.offset = keep_from;
  source.text = Bytes(keep_from, end);
  source.slots = slots;
  if (encoding_begin >= keep_from && encoding_end <= end && encoding_begin < encoding_end) {
    source.encoding_begin = encoding_begin;
    source.encoding_end = encoding_end;
  }
  row_end = end;
  ++rows;
  XML_StopParser(parser, XML_TRUE);  // one item at a time: Next() returns it
}

// ---- XmlReader ---------------------------------------------------------------------------

XmlReader::XmlReader(const ReaderLimits& limits) : impl_(std::make_unique<Impl>(limits)) {}
XmlReader::~XmlReader() = default;

void XmlReader::Feed(std::string_view bytes) { impl_->Feed(bytes); }
void XmlReader::Finish() { impl_->finished = true; }
Result<ReadState> XmlReader::Next() { return impl_->Next(); }
const std::vector<std::string>& XmlReader::header() const { return impl_->header; }
std::span<const std::string> XmlReader::xml_namespaces() const { return impl_->namespaces; }
std::span<const std::string_view> XmlReader::row() const { return impl_->cells; }
uint64_t XmlReader::rows_read() const { return impl_->rows; }
uint64_t XmlReader::record_offset() const { return impl_->item_begin; }
const XmlRowSource* XmlReader::xml_source() const { return &impl_->source; }

}  // namespace dq::ingest
