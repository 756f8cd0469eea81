// XmlReader: Google's RSS 2.0 and Atom feeds and WooCommerce's export as rows, the column names
// Google uses, groups and lists, the refusals with their exact messages, and chunking.
#include "dq/ingest/xml_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <zlib.h>

#include "dq/ingest/gzip.h"
#include "dq/ingest/upload_decode.h"
#include "ingest_test_util.h"

namespace dq::ingest {
namespace {

using testing::ReadAll;
using testing::ReadOutcome;
using testing::Rows;

std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(DQ_XML_DIR) + "/" + name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}

// A Google RSS feed around `items`.
std::string Rss(const std::string& items) {
  return "<?xml version=\"1.0\"?>\n<rss xmlns:g=\"http://base.google.com/ns/1.0\" "
         "version=\"2.0\"><channel><title>T</title>\n" +
         items + "\n</channel></rss>\n";
}

// Every chunking gives the outcome of the whole read.
void ExpectChunkingAgrees(const std::string& input, const ReaderLimits& limits = {}) {
  const ReadOutcome whole = ReadAll(FileFormat::kXml, input, 0, limits);
  for (size_t chunk : {1, 2, 3, 7, 64, 1000}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    EXPECT_EQ(ReadAll(FileFormat::kXml, input, chunk, limits), whole);
  }
}

TEST(XmlReader, GoogleRssFeed) {
  const std::string feed = Fixture("google_rss.xml");
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{
                          "id", "title", "description", "link", "image_link",
                          "additional_image_link", "condition", "availability", "price",
                          "shipping(country:service:price)", "gtin", "brand",
                          "google_product_category", "product_type", "identifier_exists"}));
  EXPECT_EQ(r.rows,
            (Rows{{"TV_123456", "LG 22LB4510 - 22\" LED TV - 1080p (FullHD)",
                   "Attractively styled & <b>thin</b>.",
                   "https://www.example.com/electronics/tv/22LB4510.html",
                   "https://images.example.com/TV_123456.png",
                   "https://images.example.com/TV_123456-2.png,"
                   "https://images.example.com/TV_123456-3.png",
                   "used", "in stock", "159.00 USD", "US:Standard:14.95 USD", "71919219405200",
                   "LG", "Electronics > Video > Televisions", "Consumer Electronics & TVs"},
                  {"DB_1", "Dog Bowl In Blue", "Solid plastic Dog Bowl in marine blue color",
                   "https://www.example.com/bowls/db-1.html", "https://images.example.com/DB_1.png",
                   "", "new", "in stock", "9.99 GBP",
                   "UK:Standard:4.95 GBP,IE:Express:9.00 EUR", "", "Example", "", "", "no"}}));
  EXPECT_TRUE(r.kinds[0].empty());  // every cell is text
  ExpectChunkingAgrees(feed);
}

// The namespaces of the items' own elements, first seen first, for source detection: Google's
// under any prefix, Dublin Core; not the root's declarations that no item element uses, nor
// the namespaces of sub-elements only (Google's g:country inside g:shipping counts once, as
// g:shipping's).
TEST(XmlReader, ItemElementNamespacesAreKept) {
  XmlReader reader({});
  reader.Feed(
      "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:gg=\"http://base.google.com/ns/1.0\" "
      "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:unused=\"urn:x-unused\"><channel>"
      "<item><title>A</title><gg:id>1</gg:id></item>"
      "<item><dc:creator>me</dc:creator><gg:shipping><gg:country>US</gg:country></gg:shipping>"
      "</item></channel></rss>");
  reader.Finish();
  EXPECT_TRUE(reader.xml_namespaces().empty());
  ASSERT_EQ(*reader.Next(), ReadState::kRow);
  EXPECT_EQ(std::vector<std::string>(reader.xml_namespaces().begin(),
                                     reader.xml_namespaces().end()),
            std::vector<std::string>{"http://base.google.com/ns/1.0"});
  ASSERT_EQ(*reader.Next(), ReadState::kRow);
  EXPECT_EQ(std::vector<std::string>(reader.xml_namespaces().begin(),
                                     reader.xml_namespaces().end()),
            (std::vector<std::string>{"http://base.google.com/ns/1.0",
                                      "http://purl.org/dc/elements/1.1/"}));
  EXPECT_EQ(*reader.Next(), ReadState::kEnd);
}

TEST(XmlReader, GoogleAtomFeed) {
  const std::string feed = Fixture("google_atom.xml");
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"title", "id", "link", "description", "updated",
                                                "image_link", "price", "condition",
                                                "availability", "brand", "gtin"}));
  EXPECT_EQ(r.rows,
            (Rows{{"Red wool sweater", "1a",
                   "https://www.example.com/item1-info-page.html?a=1&b=2",
                   "Comfortable and soft, this sweater will keep you warm.",
                   "2005-10-13T18:30:02Z", "https://www.example.com/image1.jpg", "25.00 USD",
                   "new", "in stock", "Acme", "0071919219405"},
                  {"Blue wool sweater", "1b", "https://www.example.com/item2-info-page.html",
                   "Warm.", "2005-10-13T18:30:02Z", "", "27.00 USD", "new", "", "", ""}}));
  ExpectChunkingAgrees(feed);
}

TEST(XmlReader, WooCommerceExport) {
  const std::string feed = Fixture("woocommerce_wxr.xml");
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{
                          "title", "link", "dc:creator", "guid", "description", "content:encoded",
                          "wp:post_id", "wp:status", "wp:post_type", "product_type",
                          "product_cat", "_sku", "_regular_price", "_stock_status", "_weight",
                          "pa_color", "_price"}));
  EXPECT_EQ(r.rows,
            (Rows{{"Beanie", "https://shop.example.com/product/beanie/", "shopmanager",
                   "https://shop.example.com/?post_type=product&p=15", "",
                   "A warm <em>beanie</em>.", "15", "publish", "product", "simple",
                   "Accessories", "woo-beanie", "20", "instock", ""},
                  {"Hoodie", "https://shop.example.com/product/hoodie/", "shopmanager",
                   "https://shop.example.com/?post_type=product&p=16", "", "A hoodie.", "16",
                   "publish", "product", "variable", "Hoodies", "woo-hoodie", "", "instock", "",
                   "Blue,Red", "42,45"}}));
  ExpectChunkingAgrees(feed);
}

TEST(XmlReader, GooglesNamespaceUnderAnotherPrefix) {
  const std::string feed =
      "<rss version=\"2.0\" xmlns:gm=\"http://base.google.com/ns/1.0\" "
      "xmlns:g=\"urn:not-google\"><channel>"
      "<item><gm:id>1</gm:id><gm:price>5.00 EUR</gm:price><g:price>x</g:price></item>"
      "</channel></rss>";
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"id", "price", "g:price"}));
  EXPECT_EQ(r.rows, (Rows{{"1", "5.00 EUR", "x"}}));
}

TEST(XmlReader, DefaultNamespaceOfGoogle) {
  const std::string feed =
      "<rss version=\"2.0\"><channel><item xmlns=\"\">"
      "<price xmlns=\"http://base.google.com/ns/1.0\">1.00 USD</price></item></channel></rss>";
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"price"}));
}

TEST(XmlReader, CdataEntitiesAndCharacterReferences) {
  const std::string feed = Rss(
      "<item><g:id>a&amp;b</g:id>"
      "<g:title>&lt;3 &gt; &quot;x&quot; &apos;y&apos; &#233;&#x20AC;</g:title>"
      "<g:description>one <![CDATA[<b>two</b> & ]]>three</g:description>"
      "<g:brand><![CDATA[]]></g:brand>"
      "<g:color>\n  spaced  \n</g:color></item>");
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.rows, (Rows{{"a&b", "<3 > \"x\" 'y' \xC3\xA9\xE2\x82\xAC",
                           "one <b>two</b> & three", "", "\n  spaced  \n"}}));
  ExpectChunkingAgrees(feed);
}

TEST(XmlReader, RssTitleBesideGoogleTitle) {
  // The Google element is the cell whichever comes first; the other stays in the file.
  const std::string feed = Rss(
      "<item><title>Plain</title><g:title>Google</g:title><link>https://a</link></item>"
      "<item><g:title>Google 2</g:title><title>Plain 2</title></item>"
      "<item><title>Only plain</title></item>");
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"title", "link"}));
  EXPECT_EQ(r.rows, (Rows{{"Google", "https://a"}, {"Google 2", ""}, {"Only plain", ""}}));
}

TEST(XmlReader, GroupsNamedByTheirSubAttributes) {
  const std::string feed = Rss(
      "<item><g:shipping><g:country>US</g:country><g:region>CA</g:region>"
      "<g:service>Overnight</g:service><g:price>16.00 USD</g:price></g:shipping>"
      "<g:shipping><g:country>US</g:country><g:price>5 USD</g:price></g:shipping>"
      "<g:shipping><g:country>CA</g:country><g:price/></g:shipping>"
      "<g:installment><g:months>6</g:months><g:amount>50 BRL</g:amount></g:installment>"
      "</item>");
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header,
            (std::vector<std::string>{"shipping(country:region:service:price)",
                                      "shipping(country:price)", "installment(months:amount)"}));
  EXPECT_EQ(r.rows, (Rows{{"US:CA:Overnight:16.00 USD", "US:5 USD,CA:", "6:50 BRL"}}));
  ExpectChunkingAgrees(feed);
}

TEST(XmlReader, DeeperElementsAreNotValues) {
  // A sub-attribute with children of its own gives no value; text in a group is not a value.
  const std::string feed = Rss(
      "<item><g:id>1</g:id><g:product_detail>text<g:section_name>General</g:section_name>"
      "<g:attribute><g:deep>x</g:deep></g:attribute>more</g:product_detail>"
      "<g:x><g:y><g:z>1</g:z></g:y></g:x></item>");
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"id", "product_detail(section_name)"}));
  EXPECT_EQ(r.rows, (Rows{{"1", "General"}}));
}

TEST(XmlReader, EmptyItemsAreRowsOfEmptyCells) {
  const std::string feed = Rss("<item/><item><g:id>2</g:id></item><item></item>");
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"id"}));
  EXPECT_EQ(r.rows, (Rows{{}, {"2"}, {""}}));
}

TEST(XmlReader, ItemsOnlyInTheChannel) {
  // <item> elsewhere (in another element, or nested in an item) is not a row.
  const std::string feed =
      "<rss version=\"2.0\"><item><id>0</id></item><channel><x><item><id>1</id></item></x>"
      "<item><id>2</id><item><id>3</id></item></item></channel></rss>";
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"id", "item(id)"}));
  EXPECT_EQ(r.rows, (Rows{{"2", "3"}}));
}

TEST(XmlReader, RssOneAndAtomZeroThree) {
  const std::string rss1 =
      "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
      "xmlns=\"http://purl.org/rss/1.0/\" xmlns:g=\"http://base.google.com/ns/1.0\">"
      "<channel><title>T</title></channel>"
      "<item rdf:about=\"x\"><title>A</title><g:price>1 USD</g:price></item></rdf:RDF>";
  ReadOutcome r = ReadAll(FileFormat::kXml, rss1);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"title", "price"}));
  EXPECT_EQ(r.rows, (Rows{{"A", "1 USD"}}));
  const std::string atom03 =
      "<feed version=\"0.3\" xmlns=\"http://purl.org/atom/ns#\" "
      "xmlns:g=\"http://base.google.com/ns/1.0\"><entry><title>B</title>"
      "<link href=\"https://b\" /><summary>S</summary></entry></feed>";
  r = ReadAll(FileFormat::kXml, atom03);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"title", "link", "description"}));
  EXPECT_EQ(r.rows, (Rows{{"B", "https://b", "S"}}));
}

TEST(XmlReader, NamesThatMeetGetANumber) {
  // A WordPress meta key can be named like an element.
  const std::string feed =
      "<rss version=\"2.0\" xmlns:wp=\"http://wordpress.org/export/1.2/\"><channel><item>"
      "<title>A</title><wp:postmeta><wp:meta_key>title</wp:meta_key>"
      "<wp:meta_value>B</wp:meta_value></wp:postmeta></item></channel></rss>";
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"title", "title (2)"}));
  EXPECT_EQ(r.rows, (Rows{{"A", "B"}}));
}

TEST(XmlReader, CategoryOutsideAWordPressExportIsAList) {
  const std::string feed = Rss(
      "<item><category domain=\"http://x\">A</category><category>B</category></item>");
  const ReadOutcome r = ReadAll(FileFormat::kXml, feed);
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.header, (std::vector<std::string>{"category"}));
  EXPECT_EQ(r.rows, (Rows{{"A,B"}}));
}

// ---- refusals ---------------------------------------------------------------------------------

struct BadCase {
  const char* name;
  std::string input;
  ErrorCode code;
  std::string message;
  friend void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }
};

class XmlReaderBadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(XmlReaderBadInput, IsRefusedWithItsMessage) {
  const BadCase& c = GetParam();
  ReaderLimits limits;
  limits.max_record_bytes = 200;
  limits.max_cells = 4;
  limits.max_xml_depth = 8;
  for (size_t chunk : {0, 1, 5}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    const ReadOutcome r = ReadAll(FileFormat::kXml, c.input, chunk, limits);
    EXPECT_EQ(r.code, c.code);
    EXPECT_EQ(r.message, c.message);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, XmlReaderBadInput,
    ::testing::Values(
        BadCase{"mismatched_tag", Rss("<item>\n<g:id>1</g:price>\n</item>"),
                ErrorCode::kInvalidRequest,
                "XML is malformed at line 4, column 10: mismatched tag"},
        BadCase{"undefined_entity", Rss("<item><g:title>a&nbsp;b</g:title></item>"),
                ErrorCode::kInvalidRequest,
                "XML is malformed at line 3, column 17: undefined entity (HTML entities such as "
                "&nbsp; are not XML: write the character itself, or a numeric reference such as "
                "&#160;)"},
        BadCase{"unbound_prefix", "<rss version=\"2.0\"><channel><item><g:id>1",
                ErrorCode::kInvalidRequest,
                "XML is malformed at line 1, column 35: unbound prefix (a prefix such as g: is "
                "used without its namespace: declare xmlns:g=\"http://base.google.com/ns/1.0\" "
                "on the root element)"},
        BadCase{"truncated", "<rss version=\"2.0\"><channel><item><id>1",
                ErrorCode::kInvalidRequest,
                "XML is malformed at line 1, column 40: no element found"},
        BadCase{"cut_off", "<rss version=\"2.0\"><channel><item><id>1</id></item>",
                ErrorCode::kInvalidRequest,
                "XML is malformed at line 1, column 52: no element found"},
        BadCase{"junk_after_root", Rss("<item/>") + "<rss/>", ErrorCode::kInvalidRequest,
                "XML is malformed at line 5, column 1: junk after document element"},
        BadCase{"not_xml", "id,title\n1,a\n", ErrorCode::kInvalidRequest,
                "XML is malformed at line 1, column 1: syntax error"},
        BadCase{"bad_utf8", Rss("<item><g:id>\xC3(</g:id></item>"), ErrorCode::kInvalidRequest,
                "XML is malformed at line 3, column 13: not well-formed (invalid token)"},
        BadCase{"doctype", "<?xml version=\"1.0\"?>\n<!DOCTYPE rss SYSTEM \"rss.dtd\">\n<rss/>",
                ErrorCode::kInvalidRequest,
                "XML at line 2: a document type declaration (<!DOCTYPE ...>) is not "
                "accepted: a DTD can declare entities that expand without bound or read other "
                "files. Remove it from the feed."},
        BadCase{"not_a_feed", "<?xml version=\"1.0\"?>\n<products><product/></products>",
                ErrorCode::kInvalidRequest,
                "XML at line 2, column 1: the root element is <products>, not <rss> (RSS 2.0), "
                "<feed> (Atom) or <rdf:RDF> (RSS 1.0); dq reads product feeds in these forms, "
                "as Google Merchant Center and WooCommerce write them."},
        BadCase{"atom_root_without_namespace", "<feed><entry/></feed>",
                ErrorCode::kInvalidRequest,
                "XML at line 1, column 1: the root element is <feed>, not <rss> (RSS 2.0), "
                "<feed> (Atom) or <rdf:RDF> (RSS 1.0); dq reads product feeds in these forms, "
                "as Google Merchant Center and WooCommerce write them."},
        BadCase{"no_items", Rss(""), ErrorCode::kEmptyFile,
                "The feed has no items: no <item> (RSS) or <entry> (Atom) element."},
        BadCase{"empty", "", ErrorCode::kEmptyFile, "The file is empty."},
        BadCase{"blank", "\n  \n", ErrorCode::kEmptyFile, "The file holds no XML element."},
        BadCase{"item_too_long",
                Rss("<item><g:id>1</g:id></item>\n<item><g:description>" + std::string(200, 'x') +
                    "</g:description></item>"),
                ErrorCode::kInvalidRequest, "item 2 (line 4): the item is longer than 200 bytes"},
        BadCase{"too_much_outside_items",
                Rss("<item/><!--" + std::string(300, 'x') + "--><item/>"),
                ErrorCode::kInvalidRequest,
                "XML after item 1: more than 200 bytes outside items"},
        BadCase{"too_much_before_the_first_item",
                Rss("<!--" + std::string(300, 'x') + "--><item/>"), ErrorCode::kInvalidRequest,
                "XML before the first item: more than 200 bytes outside items"},
        BadCase{"too_much_after_the_last_item",
                Rss("<item/><!--" + std::string(300, 'x') + "-->"), ErrorCode::kInvalidRequest,
                "XML after item 1: more than 200 bytes outside items"},
        BadCase{"too_many_columns", Rss("<item><a/><b/><c/><d/><e/></item>"),
                ErrorCode::kInvalidRequest, "item 1 (line 3): more than 4 distinct columns"},
        BadCase{"too_deep",
                Rss("<item><a><b><c><d><e><f>1</f></e></d></c></b></a></item>"),
                ErrorCode::kInvalidRequest,
                "item 1 (line 3): elements are nested more than 8 deep"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(XmlReader, BillionLaughsIsRefusedBeforeAnyEntityIsDeclared) {
  for (const char* name : {"billion_laughs.xml", "external_entity.xml"}) {
    SCOPED_TRACE(name);
    const ReadOutcome r = ReadAll(FileFormat::kXml, Fixture(name));
    EXPECT_EQ(r.code, ErrorCode::kInvalidRequest);
    EXPECT_EQ(r.message,
              "XML at line 2: a document type declaration (<!DOCTYPE ...>) is not "
              "accepted: a DTD can declare entities that expand without bound or read other "
              "files. Remove it from the feed.");
    EXPECT_TRUE(r.rows.empty());
  }
}

TEST(XmlReader, ErrorsAreSticky) {
  auto reader = MakeRowReader(FileFormat::kXml);
  const std::string feed = Rss("<item><g:id>1</g:id></item><item><a></b></item>");
  reader->Feed(feed);
  reader->Finish();
  auto first = reader->Next();
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(*first, ReadState::kRow);
  auto bad = reader->Next();
  ASSERT_FALSE(bad.ok());
  auto again = reader->Next();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(), bad.status().message());
}

// ---- the upload path ------------------------------------------------------------------------

TEST(XmlUpload, DetectedAndReadThroughPrepareFile) {
  const std::string feed = Fixture("google_rss.xml");
  for (const auto& [type, name] : std::vector<std::pair<std::string, std::string>>{
           {"application/xml", ""}, {"text/xml; charset=utf-8", "feed"},
           {"application/rss+xml", ""}, {"application/atom+xml", ""},
           {"application/octet-stream", "products.xml"}, {"", "feed.rss"}, {"", ""}}) {
    SCOPED_TRACE(type + " " + name);
    auto file = PrepareFile(type, name, feed, 1 << 20);
    ASSERT_TRUE(file.ok()) << file.status().message();
    EXPECT_EQ(file->format, FileFormat::kXml);
    auto summary = ScanFile(file->format, file->data());
    ASSERT_TRUE(summary.ok()) << summary.status().message();
    EXPECT_EQ(summary->data_rows, 2u);
    EXPECT_EQ(summary->header.size(), 15u);
  }
}

TEST(XmlUpload, DeclaredEncodingIsRead) {
  // A Latin-1 feed that says so in its declaration, with no charset= on the upload.
  const std::string feed =
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<rss version=\"2.0\"><channel>"
      "<item><title>Caf\xE9</title></item></channel></rss>";
  auto file = PrepareFile("application/xml", "", feed, 1 << 20);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->encoding, "iso-8859-1");
  const ReadOutcome r = ReadAll(FileFormat::kXml, file->data());
  ASSERT_EQ(r.code, ErrorCode::kOk) << r.message;
  EXPECT_EQ(r.rows, (Rows{{"Caf\xC3\xA9"}}));
}

// Ten million empty items do not fit in an upload: the gzip'd file is stopped at the upload
// limit while it is inflated (413), and the reader is never reached.
TEST(XmlUpload, TenMillionEmptyItemsAreTooLarge) {
  std::string bomb;
  {
    const std::string head = "<rss version=\"2.0\"><channel>";
    std::string items;
    for (int i = 0; i < 100000; ++i) items += "<item/>";
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string buf(1 << 16, '\0');
    auto put = [&](std::string_view in, int flush) {
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      z.avail_in = static_cast<uInt>(in.size());
      do {
        z.next_out = reinterpret_cast<Bytef*>(buf.data());
        z.avail_out = static_cast<uInt>(buf.size());
        deflate(&z, flush);
        bomb.append(buf.data(), buf.size() - z.avail_out);
      } while (z.avail_out == 0);
    };
    put(head, Z_NO_FLUSH);
    for (int i = 0; i < 100; ++i) put(items, Z_NO_FLUSH);  // 10,000,000 items, 70 MB
    put("</channel></rss>", Z_FINISH);
    deflateEnd(&z);
  }
  ASSERT_LT(bomb.size(), 1u << 20);
  auto file = PrepareFile("application/xml", "feed.xml.gz", bomb, 50 * 1024 * 1024);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), ErrorCode::kFileTooLarge);
}

TEST(XmlUpload, AMillionEmptyItemsReadInBoundedPieces) {
  // Read in 64 KiB chunks as a job reads its upload: every item a row of no cells.
  std::string feed = "<rss version=\"2.0\"><channel>";
  for (int i = 0; i < 1000000; ++i) feed += "<item/>";
  feed += "</channel></rss>";
  auto reader = MakeRowReader(FileFormat::kXml);
  uint64_t rows = 0;
  for (size_t at = 0; at <= feed.size(); at += 65536) {
    std::string chunk = feed.substr(at, 65536);
    reader->Feed(chunk);
    if (at + 65536 > feed.size()) reader->Finish();
    while (true) {
      auto s = reader->Next();
      ASSERT_TRUE(s.ok()) << s.status().message();
      if (*s != ReadState::kRow) break;
      ASSERT_TRUE(reader->row().empty());
      ++rows;
    }
  }
  EXPECT_EQ(rows, 1000000u);
}

}  // namespace
}  // namespace dq::ingest
