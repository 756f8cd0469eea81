// XmlFeedWriter through RowWriter: a feed read and written with no fix is the same file, byte for
// byte, in any chunking; a fix changes exactly its value, in the form the feed gave it.
#include "dq/ingest/xml_writer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "dq/ingest/row_writer.h"
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
  return s.str();
}

std::string Rss(const std::string& items) {
  return "<?xml version=\"1.0\"?>\n<rss xmlns:g=\"http://base.google.com/ns/1.0\" "
         "version=\"2.0\"><channel><title>T</title>\n" +
         items + "\n</channel></rss>\n";
}

// (data row from 1, column name) -> the cleaned value.
using Fixes = std::map<std::pair<uint64_t, std::string>, std::string>;

struct Cleaned {
  std::string out;
  uint64_t unplaced = 0;
};

// Reads `input` in chunks of `chunk` (0: whole), as the cleaned download does, and writes each
// row with `fixes` in place through RowWriter.
Cleaned Clean(const std::string& input, const Fixes& fixes = {}, size_t chunk = 0) {
  auto reader = MakeRowReader(FileFormat::kXml);
  RowWriter w(FileFormat::kXml, {}, {});
  w.set_source(reader.get());
  if (chunk == 0) chunk = input.size();
  std::string buffer;
  uint64_t row = 0;
  std::vector<std::string_view> cells;
  for (size_t at = 0; at < input.size(); at += chunk) {
    buffer.assign(input.substr(at, chunk));
    reader->Feed(buffer);
    if (at + chunk >= input.size()) reader->Finish();
    while (true) {
      auto s = reader->Next();
      EXPECT_TRUE(s.ok()) << s.status().message();
      if (!s.ok()) return {};
      if (*s == ReadState::kEnd) {
        EXPECT_TRUE(w.Finish().ok());
        return {w.out(), w.unplaced_fixes()};
      }
      if (*s == ReadState::kNeedMore) break;
      ++row;
      cells.assign(reader->row().begin(), reader->row().end());
      for (size_t c = 0; c < cells.size(); ++c) {
        auto it = fixes.find({row, reader->header()[c]});
        if (it != fixes.end()) cells[c] = it->second;
      }
      w.WriteRow(cells);
    }
    std::fill(buffer.begin(), buffer.end(), '#');
  }
  ADD_FAILURE() << "the reader never ended";
  return {};
}

TEST(XmlWriter, NoFixGivesTheSameFileInEveryChunking) {
  const std::string inline_feed =
      "\xEF\xBB\xBF<?xml version='1.0' standalone='yes'?>\n<?xml-stylesheet href=\"s.xsl\"?>\n"
      "<!-- before -->\n<rss version=\"2.0\" xmlns:g=\"http://base.google.com/ns/1.0\">\r\n"
      "<channel><item><g:id>1</g:id><!-- in --><g:title>a &amp; b</g:title>"
      "<g:gtin/><x:unknown xmlns:x=\"urn:x\" a='1'>keep</x:unknown></item>  <item/>"
      "<item><link>l</link><g:shipping><g:country>US</g:country></g:shipping></item>"
      "</channel></rss>\n<!-- after -->\n";
  for (const std::string& feed :
       {Fixture("google_rss.xml"), Fixture("google_atom.xml"), Fixture("woocommerce_wxr.xml"),
        inline_feed}) {
    for (size_t chunk : {0, 1, 7, 64, 4096}) {
      SCOPED_TRACE("chunk " + std::to_string(chunk));
      const Cleaned c = Clean(feed, {}, chunk);
      EXPECT_EQ(c.out, feed);
      EXPECT_EQ(c.unplaced, 0u);
    }
  }
}

TEST(XmlWriter, DeclaredEncodingBecomesUtf8) {
  // The upload was converted to UTF-8 before it was read; the declaration must say so (the one
  // change a file gets without a fix).
  const std::string feed =
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<rss version=\"2.0\"><channel>"
      "<item><title>Caf\xC3\xA9</title></item></channel></rss>";
  EXPECT_EQ(Clean(feed).out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel>"
            "<item><title>Caf\xC3\xA9</title></item></channel></rss>");
  const std::string single = "<?xml version='1.0' encoding='windows-1252' ?><rss><channel>"
                             "<item/></channel></rss>";
  EXPECT_EQ(Clean(single).out,
            "<?xml version='1.0' encoding='UTF-8' ?><rss><channel><item/></channel></rss>");
}

struct FixCase {
  const char* name;
  std::string input;
  Fixes fixes;
  std::string output;
  uint64_t unplaced = 0;
  bool reads_back = true;  // the output reads back with exactly the fixed values
  friend void PrintTo(const FixCase& c, std::ostream* os) { *os << c.name; }
};

class XmlWriterFix : public ::testing::TestWithParam<FixCase> {};

TEST_P(XmlWriterFix, WritesTheFixInPlace) {
  const FixCase& c = GetParam();
  for (size_t chunk : {0, 3}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    const Cleaned out = Clean(c.input, c.fixes, chunk);
    EXPECT_EQ(out.out, c.output);
    EXPECT_EQ(out.unplaced, c.unplaced);
  }
  // What was written reads back with the fixed values, and nothing else changed.
  const ReadOutcome before = ReadAll(FileFormat::kXml, c.input);
  const ReadOutcome after = ReadAll(FileFormat::kXml, c.output);
  ASSERT_EQ(after.code, ErrorCode::kOk) << after.message;
  EXPECT_EQ(after.header, before.header);
  if (c.unplaced > 0 || !c.reads_back) return;
  Rows expected = before.rows;
  for (const auto& [at, value] : c.fixes) {
    for (size_t col = 0; col < before.header.size(); ++col) {
      if (before.header[col] == at.second) expected[at.first - 1][col] = value;
    }
  }
  EXPECT_EQ(after.rows, expected);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, XmlWriterFix,
    ::testing::Values(
        FixCase{"content", Rss("<item><g:price>15.00 usd</g:price><g:id>1</g:id></item>"),
                {{{1, "price"}, "15.00 USD"}},
                Rss("<item><g:price>15.00 USD</g:price><g:id>1</g:id></item>")},
        FixCase{"escaped", Rss("<item><g:brand>x</g:brand></item>"),
                {{{1, "brand"}, "A & B <C> \"d\"\r"}},
                Rss("<item><g:brand>A &amp; B &lt;C&gt; \"d\"&#13;</g:brand></item>")},
        FixCase{"cdata", Rss("<item><g:description><![CDATA[old]]></g:description></item>"),
                {{{1, "description"}, "new ]]> <b>"}},
                Rss("<item><g:description><![CDATA[new ]]]]><![CDATA[> <b>]]></g:description>"
                    "</item>")},
        FixCase{"empty_element",
                Rss("<item><g:gtin/><g:mpn a=\"1\" /></item>"),
                {{{1, "gtin"}, "4006381333931"}, {{1, "mpn"}, "M-1"}},
                Rss("<item><g:gtin>4006381333931</g:gtin><g:mpn a=\"1\" >M-1</g:mpn></item>")},
        FixCase{"atom_href",
                "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>"
                "<link rel=\"alternate\" href=\"http://a/?x=1&amp;y=2\"/></entry>"
                "<entry><link href='http://c'></link></entry></feed>",
                {{{1, "link"}, "https://a/?x=\"1\"&y=2"}, {{2, "link"}, "https://c/'x'"}},
                "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>"
                "<link rel=\"alternate\" href=\"https://a/?x=&quot;1&quot;&amp;y=2\"/></entry>"
                "<entry><link href='https://c/&apos;x&apos;'></link></entry></feed>"},
        FixCase{"list_one_value",
                Rss("<item><g:additional_image_link>http://a</g:additional_image_link>\n"
                    "<g:additional_image_link> http://b </g:additional_image_link></item>"),
                {{{1, "additional_image_link"}, "http://a,http://b"}},
                Rss("<item><g:additional_image_link>http://a</g:additional_image_link>\n"
                    "<g:additional_image_link>http://b</g:additional_image_link></item>")},
        FixCase{"group_one_sub",
                Rss("<item><g:shipping><g:country>US</g:country><g:price>4.95 usd</g:price>"
                    "</g:shipping><g:shipping><g:country>CA</g:country><g:price>5 CAD</g:price>"
                    "</g:shipping></item>"),
                {{{1, "shipping(country:price)"}, "US:4.95 USD,CA:5 CAD"}},
                Rss("<item><g:shipping><g:country>US</g:country><g:price>4.95 USD</g:price>"
                    "</g:shipping><g:shipping><g:country>CA</g:country><g:price>5 CAD</g:price>"
                    "</g:shipping></item>")},
        FixCase{"wordpress_meta",
                "<rss version=\"2.0\" xmlns:wp=\"http://wordpress.org/export/1.2/\"><channel>"
                "<wp:wxr_version>1.2</wp:wxr_version><item><wp:postmeta>"
                "<wp:meta_key>_weight</wp:meta_key><wp:meta_value><![CDATA[ 0.5]]></wp:meta_value>"
                "</wp:postmeta></item></channel></rss>",
                {{{1, "_weight"}, "0.5"}},
                "<rss version=\"2.0\" xmlns:wp=\"http://wordpress.org/export/1.2/\"><channel>"
                "<wp:wxr_version>1.2</wp:wxr_version><item><wp:postmeta>"
                "<wp:meta_key>_weight</wp:meta_key><wp:meta_value><![CDATA[0.5]]></wp:meta_value>"
                "</wp:postmeta></item></channel></rss>"},
        FixCase{"shadowed_plain_title_kept",
                Rss("<item><title>plain</title><g:title>google </g:title></item>"),
                {{{1, "title"}, "google"}},
                Rss("<item><title>plain</title><g:title>google</g:title></item>")},
        FixCase{"control_character",
                Rss("<item><g:title>x</g:title></item>"), {{{1, "title"}, "a\x01z"}},
                Rss("<item><g:title>a\xEF\xBF\xBDz</g:title></item>"), 0, false},
        FixCase{"list_with_fewer_parts_is_not_placed",
                Rss("<item><g:size>S</g:size><g:size>M</g:size></item>"), {{{1, "size"}, "S"}},
                Rss("<item><g:size>S</g:size><g:size>M</g:size></item>"), 1},
        FixCase{"list_value_with_a_separator_is_not_placed",
                Rss("<item><g:size>1,5</g:size><g:size>2</g:size></item>"),
                {{{1, "size"}, "1.5,2"}},
                Rss("<item><g:size>1,5</g:size><g:size>2</g:size></item>"), 1},
        FixCase{"column_the_item_lacks_is_not_placed",
                Rss("<item><g:gtin>1</g:gtin><g:id>a</g:id></item><item><g:id>b</g:id></item>"),
                {{{2, "gtin"}, "2"}},
                Rss("<item><g:gtin>1</g:gtin><g:id>a</g:id></item><item><g:id>b</g:id></item>"),
                1}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(XmlWriter, AFixForACellTheRowDoesNotHaveYetIsNotPlaced) {
  // The header grows: row 1 is read before the gtin column exists, so its row is shorter.
  // A writer given a wider row (the job's final header) has no element for the extra cell.
  auto reader = MakeRowReader(FileFormat::kXml);
  const std::string feed = Rss("<item><g:id>a</g:id></item><item><g:gtin>1</g:gtin></item>");
  reader->Feed(feed);
  reader->Finish();
  RowWriter w(FileFormat::kXml, {}, {"id", "gtin"});
  w.set_source(reader.get());
  ASSERT_EQ(*reader->Next(), ReadState::kRow);
  std::vector<std::string_view> cells = {"a", "123"};
  w.WriteRow(cells);
  ASSERT_EQ(*reader->Next(), ReadState::kRow);
  cells.assign(reader->row().begin(), reader->row().end());
  w.WriteRow(cells);
  ASSERT_EQ(*reader->Next(), ReadState::kEnd);
  ASSERT_TRUE(w.Finish().ok());
  EXPECT_EQ(w.out(), feed);
  EXPECT_EQ(w.unplaced_fixes(), 1u);
}

TEST(XmlWriter, WithoutASourceNothingIsWritten) {
  RowWriter w(FileFormat::kXml, {}, {"id"});
  std::vector<std::string_view> cells = {"1"};
  w.WriteRow(cells);
  ASSERT_TRUE(w.Finish().ok());
  EXPECT_EQ(w.out(), "");
}

TEST(XmlText, Escapes) {
  std::string out;
  AppendXmlText(out, "a&b<c>d\"e'f\tg\nh\ri\x02j\xEF\xBF\xBE");
  EXPECT_EQ(out, "a&amp;b&lt;c&gt;d\"e'f\tg\nh&#13;i\xEF\xBF\xBDj\xEF\xBF\xBD");
  out.clear();
  AppendXmlAttribute(out, "a&b<c>d\"e'f\tg\nh\r", '"');
  EXPECT_EQ(out, "a&amp;b&lt;c>d&quot;e'f&#9;g&#10;h&#13;");
  out.clear();
  AppendXmlAttribute(out, "\"'", '\'');
  EXPECT_EQ(out, "\"&apos;");
}

}  // namespace
}  // namespace dq::ingest
