#include "dq/ingest/row_writer.h"

#include <gtest/gtest.h>

#include "dq/ingest/xlsx_zip.h"
#include "ingest_test_util.h"

namespace dq::ingest {
namespace {

using testing::ReadAll;
using testing::ReadOutcome;

// Reads `input`, writes every row back, returns the output.
std::string RoundTrip(FileFormat format, const std::string& input) {
  auto reader = MakeRowReader(format);
  reader->Feed(input);
  reader->Finish();
  std::vector<std::vector<std::string>> rows;
  std::vector<std::vector<CellKind>> kinds;
  while (true) {
    Result<ReadState> s = reader->Next();
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (!s.ok() || *s != ReadState::kRow) break;
    rows.emplace_back(reader->row().begin(), reader->row().end());
    kinds.emplace_back(reader->cell_kinds().begin(), reader->cell_kinds().end());
  }
  RowWriter w(format, reader->dialect(), reader->header());
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string_view> cells(rows[i].begin(), rows[i].end());
    w.WriteRow(cells, kinds[i]);
  }
  EXPECT_TRUE(w.Finish().ok());
  return w.out();
}

struct WriteCase {
  const char* name;
  FileFormat format;
  std::string input;
  std::string output;
};

class RowWriterTest : public ::testing::TestWithParam<WriteCase> {};

TEST_P(RowWriterTest, WritesTheInputBackInItsFormat) {
  const WriteCase& c = GetParam();
  const std::string out = RoundTrip(c.format, c.input);
  EXPECT_EQ(out, c.output);
  // And the output reads back to the same rows.
  ReadOutcome a = ReadAll(c.format, c.input);
  ReadOutcome b = ReadAll(c.format, out);
  EXPECT_EQ(a.header, b.header);
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.kinds, b.kinds);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RowWriterTest,
    ::testing::Values(
        WriteCase{"csv_quoting", FileFormat::kCsv,
                  "a,b,c\n\"x,y\",\"say \"\"hi\"\"\",\"l1\nl2\"\n plain ,12\" pizza,\n",
                  "a,b,c\n\"x,y\",\"say \"\"hi\"\"\",\"l1\nl2\"\n\" plain \",\"12\"\" pizza\",\n"},
        WriteCase{"csv_semicolon_crlf_bom", FileFormat::kCsv,
                  "\xEF\xBB\xBF" "a;b\r\n1,5;x\r\n", "\xEF\xBB\xBF" "a;b\r\n1,5;x\r\n"},
        WriteCase{"csv_padding_kept", FileFormat::kCsv, "a,b,c\n1\n", "a,b,c\n1,,\n"},
        WriteCase{"csv_single_column_empty_cell", FileFormat::kCsv, "a\n\"\"\nx\n",
                  "a\n\"\"\nx\n"},
        WriteCase{"csv_header_starting_with_feff_not_at_file_start", FileFormat::kCsv,
                  "\r\n\xEF\xBB\xBF" "a\nz\n", "\"\xEF\xBB\xBF" "a\"\nz\n"},
        WriteCase{"tsv", FileFormat::kTsv, "a\tb\n1,5\t\"t\tab\"\n", "a\tb\n1,5\t\"t\tab\"\n"},
        WriteCase{"json_array_types", FileFormat::kJsonArray,
                  R"([{"s":"x\"y","n":1.50,"b":true,"z":null,"j":[1, {"k":2}]},{"s":"\u00e9\n"}])",
                  "[\n{\"s\":\"x\\\"y\",\"n\":1.50,\"b\":true,\"z\":null,\"j\":[1,{\"k\":2}]},\n"
                  "{\"s\":\"\xC3\xA9\\n\"}\n]\n"},
        WriteCase{"ndjson", FileFormat::kNdjson, "{\"a\":\"1\"}\n\n{\"b\":2,\"a\":\"\\u0001\"}\n",
                  "{\"a\":\"1\"}\n{\"a\":\"\\u0001\",\"b\":2}\n"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(RowWriterTest, KindsAreCheckedBeforeWritingBare) {
  RowWriter w(FileFormat::kNdjson, {}, {"n", "b", "s"});
  const std::vector<std::string_view> cells = {"12abc", "yes", "7"};
  const std::vector<CellKind> kinds = {CellKind::kNumber, CellKind::kBool, CellKind::kString};
  w.WriteRow(cells, kinds);
  EXPECT_EQ(w.out(), "{\"n\":\"12abc\",\"b\":\"yes\",\"s\":\"7\"}\n");
}

TEST(RowWriterTest, EmptyJsonArrayAndShortRows) {
  RowWriter w(FileFormat::kJsonArray, {}, {"a", "b"});
  EXPECT_TRUE(w.Finish().ok());
  EXPECT_EQ(w.out(), "[]\n");
  RowWriter w2(FileFormat::kJsonArray, {}, {"a", "b"});
  const std::vector<std::string_view> one = {"x"};
  w2.WriteRow(one);
  EXPECT_TRUE(w2.Finish().ok());
  EXPECT_EQ(w2.out(), "[\n{\"a\":\"x\"}\n]\n");
  EXPECT_EQ(w2.rows_written(), 1u);
}

TEST(RowWriterTest, OutputCanBeDrainedIncrementally) {
  RowWriter w(FileFormat::kCsv, {}, {"a"});
  std::string sent = w.out();
  w.out().clear();
  const std::vector<std::string_view> row = {"1"};
  w.WriteRow(row);
  sent += w.out();
  w.out().clear();
  EXPECT_TRUE(w.Finish().ok());
  sent += w.out();
  EXPECT_EQ(sent, "a\n1\n");
}

// The quoting test reads 8 bytes at a time, then the tail byte by byte: a byte that needs quoting
// must be found wherever it falls, and a cell without one must stay bare.
TEST(RowWriterTest, ACellIsQuotedWhereverItsSpecialByteFalls) {
  CsvDialect semicolon;
  semicolon.delimiter = ';';
  for (char special : {';', '"', '\n', '\r'}) {
    for (size_t at = 0; at < 20; ++at) {
      std::string cell(20, 'x');
      cell[at] = special;
      RowWriter w(FileFormat::kCsv, semicolon, {"a", "b"});
      w.out().clear();
      const std::vector<std::string_view> row = {cell, "y,z"};
      w.WriteRow(row);
      std::string quoted = cell;
      if (special == '"') quoted.insert(at, 1, '"');
      EXPECT_EQ(w.out(), "\"" + quoted + "\";y,z\n") << int(special) << " at " << at;
    }
  }
}

// OWASP's rule against CSV injection: '=', '+', '-', '@', TAB and CR lead a formula; a plain
// signed number does not.
TEST(FormulaCellsTest, WhatStartsLikeAFormula) {
  for (std::string_view cell :
       {"=HYPERLINK(\"http://x\",\"y\")", "=1+1", "+cmd|' /C calc'!A0", "-2+3+cmd", "@SUM(1+1)",
        "\tx", "\r=1", "-", "+", "-1.5.2", "-1e5", "+49 30 1234567", "- 5", "=", "@"}) {
    EXPECT_TRUE(StartsLikeAFormula(cell)) << cell;
  }
  for (std::string_view cell : {"", "a=b", " =1", "'=1", "-5", "+1.50", "-0,25", "+16502530000",
                                "-.5", "5-", "A@b.de", "\n=1"}) {
    EXPECT_FALSE(StartsLikeAFormula(cell)) << cell;
  }
}

TEST(FormulaCellsTest, NeutralisedCsvHasALeadingQuoteAndKeepWritesAsIs) {
  const std::vector<std::string> header = {"=sku", "title", "stock"};
  const std::vector<std::string_view> row = {"@SUM(1+1)", "=HYPERLINK(\"http://x\",\"a,b\")",
                                             "-3"};
  const std::vector<std::string_view> tabbed = {"\tx", "+1 555", "ok"};
  RowWriter neutral(FileFormat::kCsv, {}, header, FormulaCells::kNeutralise);
  neutral.WriteRow(row);
  neutral.WriteRow(tabbed);
  EXPECT_EQ(neutral.out(),
            "'=sku,title,stock\n"
            "'@SUM(1+1),\"'=HYPERLINK(\"\"http://x\"\",\"\"a,b\"\")\",-3\n"
            "'\tx,'+1 555,ok\n");
  RowWriter keep(FileFormat::kCsv, {}, header);  // the default: as they are
  keep.WriteRow(row);
  keep.WriteRow(tabbed);
  EXPECT_EQ(keep.out(),
            "=sku,title,stock\n"
            "@SUM(1+1),\"=HYPERLINK(\"\"http://x\"\",\"\"a,b\"\")\",-3\n"
            "\tx,+1 555,ok\n");
  // TSV: the TAB-led cell is quoted (it holds the delimiter) and gets its quote inside.
  RowWriter tsv(FileFormat::kTsv, {}, {"a", "b"}, FormulaCells::kNeutralise);
  const std::vector<std::string_view> t = {"\tx", "=1"};
  tsv.WriteRow(t);
  EXPECT_EQ(tsv.out(), "a\tb\n\"'\tx\"\t'=1\n");
}

// XLSX cells are values, never formulas: a text that looks like one is an inline string.
TEST(FormulaCellsTest, XlsxWritesAFormulaLikeTextAsText) {
  RowWriter w(FileFormat::kXlsx, {}, {"a", "b"}, FormulaCells::kNeutralise);
  const std::vector<std::string_view> row = {"=HYPERLINK(\"http://x\",\"y\")", "@SUM(1+1)"};
  w.WriteRow(row);
  ASSERT_TRUE(w.Finish().ok());
  internal::ZipArchive zip;
  ASSERT_TRUE(zip.Open(w.out()).ok());
  auto sheet = zip.Read("xl/worksheets/sheet1.xml", 1 << 20);
  ASSERT_TRUE(sheet.ok()) << sheet.status().message();
  EXPECT_EQ(sheet->find("<f"), std::string::npos) << *sheet;
  EXPECT_NE(sheet->find("<c r=\"A2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">"
                        "=HYPERLINK(\"http://x\",\"y\")</t></is></c>"),
            std::string::npos)
      << *sheet;
  const ReadOutcome back = ReadAll(FileFormat::kXlsx, w.out());
  EXPECT_EQ(back.rows, (testing::Rows{{"=HYPERLINK(\"http://x\",\"y\")", "@SUM(1+1)"}}));
}

}  // namespace
}  // namespace dq::ingest
