#include "dq/ingest/csv_reader.h"

#include <gtest/gtest.h>

#include "ingest_test_util.h"

namespace dq::ingest {
namespace {

using testing::ReadAll;
using testing::ReadOutcome;
using testing::Rows;

struct CsvCase {
  const char* name;
  std::string input;
  std::vector<std::string> header;
  Rows rows;
  char delimiter = ',';
  FileFormat format = FileFormat::kCsv;
};

const std::vector<CsvCase>& Cases() {
  static const std::vector<CsvCase> cases = {
      {"comma_lf", "a,b\n1,2\n3,4\n", {"a", "b"}, {{"1", "2"}, {"3", "4"}}},
      {"crlf", "a,b\r\n1,2\r\n", {"a", "b"}, {{"1", "2"}}},
      {"no_final_newline", "a,b\n1,2", {"a", "b"}, {{"1", "2"}}},
      {"bom_crlf", "\xEF\xBB\xBFsku,title\r\nA1,Mug\r\n", {"sku", "title"}, {{"A1", "Mug"}}},
      {"semicolon", "sku;price\nA1;1,50\n", {"sku", "price"}, {{"A1", "1,50"}}, ';'},
      {"tab", "sku\tprice\nA1\t1,5\n", {"sku", "price"}, {{"A1", "1,5"}}, '\t'},
      {"pipe", "sku|price|title\nA1|2|x,y\n", {"sku", "price", "title"}, {{"A1", "2", "x,y"}},
       '|'},
      {"tie_prefers_comma", "a,b;c\n1,2;3\n", {"a", "b;c"}, {{"1", "2;3"}}},
      {"delimiter_inside_quoted_header_ignored", "\"a;b;c\",d\n1,2\n", {"a;b;c", "d"},
       {{"1", "2"}}},
      {"single_column", "sku\nA1\nA2\n", {"sku"}, {{"A1"}, {"A2"}}},
      {"quoted_delimiter", "a,b\n\"x,y\",2\n", {"a", "b"}, {{"x,y", "2"}}},
      {"escaped_quotes", "a,b\n\"say \"\"hi\"\"\",\"\"\"\"\n", {"a", "b"},
       {{"say \"hi\"", "\""}}},
      {"embedded_lf", "a,b\n\"line1\nline2\",2\n", {"a", "b"}, {{"line1\nline2", "2"}}},
      {"embedded_crlf", "a,b\r\n\"line1\r\nline2\",2\r\n", {"a", "b"},
       {{"line1\r\nline2", "2"}}},
      {"empty_quoted", "a,b\n\"\",\"\"\n", {"a", "b"}, {{"", ""}}},
      {"trailing_empty_cell", "a,b\n1,\n", {"a", "b"}, {{"1", ""}}},
      {"quote_inside_unquoted_is_literal", "a,b\n12\" pizza,2\n", {"a", "b"},
       {{"12\" pizza", "2"}}},
      {"blank_lines_skipped", "\n\na,b\n\n1,2\r\n\r\n3,4\n\n", {"a", "b"},
       {{"1", "2"}, {"3", "4"}}},
      {"short_row_padded", "a,b,c\n1\n1,2\n", {"a", "b", "c"}, {{"1", "", ""}, {"1", "2", ""}}},
      {"extra_empty_cells_dropped", "a,b\n1,2,,\n", {"a", "b"}, {{"1", "2"}}},
      {"extra_cells_dropped_from_the_row", "a,b\n1,2\n1,2,3\n", {"a", "b"},
       {{"1", "2"}, {"1", "2"}}},
      {"spaces_kept", "a,b\n  x , y \n", {"a", "b"}, {{"  x ", " y "}}},
      {"utf8_kept", "name,city\nJos\xC3\xA9,\xE5\x8F\xB0\xE5\x8C\x97\n", {"name", "city"},
       {{"Jos\xC3\xA9", "\xE5\x8F\xB0\xE5\x8C\x97"}}},
      {"quoted_last_field_at_eof", "a,b\n1,\"x\"", {"a", "b"}, {{"1", "x"}}},
      {"tsv_keeps_commas", "a\tb\n1,5\tx,y\n", {"a", "b"}, {{"1,5", "x,y"}}, '\t',
       FileFormat::kTsv},
      {"tsv_forced_even_if_commas_dominate", "a,b\tc\n1,2\t3\n", {"a,b", "c"}, {{"1,2", "3"}},
       '\t', FileFormat::kTsv},
      {"empty_header_names", ",b\n1,2\n", {"", "b"}, {{"1", "2"}}},
      {"cr_inside_unquoted_kept", "a,b\n1\r2,3\n", {"a", "b"}, {{"1\r2", "3"}}},
      // Comment lines above the header (Meta's feed metadata tags and its template's
      // description row) are skipped; the header's delimiter is still found.
      {"meta_metadata_tags_skipped", "# ref_application_id 1234\n# ref_asset_id 5\nid\ttitle\n"
       "1\tCat\n", {"id", "title"}, {{"1", "Cat"}}, '\t'},
      {"meta_template_description_row_skipped",
       "\xEF\xBB\xBF# Required | A unique ID,\"# Required | A title, short\",# Optional | x\r\n"
       "id,title,gtin\r\n1,Cat,\r\n", {"id", "title", "gtin"}, {{"1", "Cat", ""}}},
      // Its cells hold more '|' than the ',' between them: still one comment record.
      {"meta_template_row_with_pipes_skipped",
       "# Required | A unique ID | max 100,# Optional | x | y\r\nid,title\r\n1,Cat\r\n",
       {"id", "title"}, {{"1", "Cat"}}},
      {"hash_header_kept", "#,Name\n1,Mug\n", {"#", "Name"}, {{"1", "Mug"}}},
      {"hash_word_header_kept", "#id,title\n1,Mug\n", {"#id", "title"}, {{"1", "Mug"}}},
      {"hash_space_header_with_plain_names_kept", "# of items;price\n3;1,50\n",
       {"# of items", "price"}, {{"3", "1,50"}}, ';'},
      {"hash_line_after_header_is_a_row", "a,b\n# x,y\n", {"a", "b"}, {{"# x", "y"}}},
      // Fields split as the parser splits them: a quote that is not a field's first byte is an
      // ordinary character, so this line is two fields under ',' (the second starts with 'u'),
      // not one; it is the header. Found by fuzz_csv: the writer quotes the second TSV cell and
      // the re-read took the header for a comment.
      {"mid_field_quote_does_not_hide_a_delimiter", "#\t\",u\"\"x\"\"\"\n1\t2\n",
       {"#", ",u\"x\""}, {{"1", "2"}}, '\t', FileFormat::kTsv},
      // A first cell "#" quoted or not: the same comment line (the writer drops the quotes).
      {"hash_tab_line_is_a_comment", "#\t\nid\tt\n1\t2\n", {"id", "t"}, {{"1", "2"}}, '\t',
       FileFormat::kTsv},
      {"quoted_hash_tab_line_is_a_comment", "\"#\"\t\nid\tt\n1\t2\n", {"id", "t"},
       {{"1", "2"}}, '\t', FileFormat::kTsv},
      {"quoted_hash_cells_are_a_comment", "\"# a, b\",\"\",# c\nid,t\n1,2\n", {"id", "t"},
       {{"1", "2"}}},
  };
  return cases;
}

class CsvDialectTest : public ::testing::TestWithParam<CsvCase> {};

TEST_P(CsvDialectTest, ReadsTheSameInEveryChunking) {
  const CsvCase& c = GetParam();
  for (size_t chunk : {0, 1, 2, 3, 5, 7, 64}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    ReadOutcome out = ReadAll(c.format, c.input, chunk);
    EXPECT_EQ(out.code, ErrorCode::kOk) << out.message;
    EXPECT_EQ(out.header, c.header);
    EXPECT_EQ(out.rows, c.rows);
    EXPECT_EQ(out.dialect.delimiter, c.delimiter);
  }
}

INSTANTIATE_TEST_SUITE_P(Dialects, CsvDialectTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return std::string(info.param.name); });

struct CsvErrorCase {
  const char* name;
  std::string input;
  ErrorCode code;
  std::string message;
  ReaderLimits limits = {};
};

class CsvErrorTest : public ::testing::TestWithParam<CsvErrorCase> {};

TEST_P(CsvErrorTest, FailsWithTheExactError) {
  const CsvErrorCase& c = GetParam();
  for (size_t chunk : {0, 1, 3, 16}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    ReadOutcome out = ReadAll(FileFormat::kCsv, c.input, chunk, c.limits);
    EXPECT_EQ(out.code, c.code);
    EXPECT_EQ(out.message, c.message);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Errors, CsvErrorTest,
    ::testing::Values(
        CsvErrorCase{"empty", "", ErrorCode::kEmptyFile, "The file is empty."},
        CsvErrorCase{"only_bom", "\xEF\xBB\xBF", ErrorCode::kEmptyFile, "The file is empty."},
        CsvErrorCase{"only_blank_lines", "\r\n\n\n", ErrorCode::kEmptyFile, "The file is empty."},
        CsvErrorCase{"only_comment_lines", "# ref_application_id 1\n# ref_asset_id 2\n",
                     ErrorCode::kEmptyFile,
                     "The file has only comment lines (starting with '# ') and no header row."},
        CsvErrorCase{"comment_lines_then_header_only", "# ref_application_id 1\nid,title\n",
                     ErrorCode::kEmptyFile, "The file has a header row but no data rows."},
        CsvErrorCase{"header_only", "a,b\n", ErrorCode::kEmptyFile,
                     "The file has a header row but no data rows."},
        CsvErrorCase{"header_only_no_newline", "a,b", ErrorCode::kEmptyFile,
                     "The file has a header row but no data rows."},
        CsvErrorCase{"unterminated_quote", "a,b\n1,\"oops\n2,3\n", ErrorCode::kInvalidRequest,
                     "row 1 (byte 4): a quoted field is not closed before the end of the file"},
        CsvErrorCase{"text_after_closing_quote", "a,b\n\"x\"y,2\n", ErrorCode::kInvalidRequest,
                     "row 1 (byte 4): unexpected character after a closing quote at byte 7 (a "
                     "quote inside a quoted field must be doubled)"},
        CsvErrorCase{"latin1", "name\nJos\xE9\n", ErrorCode::kInvalidRequest,
                     "row 1 (byte 5): invalid UTF-8 byte 0xE9 at byte 8; save the file as UTF-8"},
        CsvErrorCase{"latin1_header", "pr\xE9nom\nx\n", ErrorCode::kInvalidRequest,
                     "header (byte 0): invalid UTF-8 byte 0xE9 at byte 2; save the file as "
                     "UTF-8"},
        CsvErrorCase{"overlong_utf8", "a\n\xC0\xAF\n", ErrorCode::kInvalidRequest,
                     "row 1 (byte 2): invalid UTF-8 byte 0xC0 at byte 2; save the file as UTF-8"},
        CsvErrorCase{"record_too_long", "a\n0123456789abcdef\n", ErrorCode::kInvalidRequest,
                     "row 1 (byte 2): the record is longer than 8 bytes",
                     ReaderLimits{.max_record_bytes = 8}},
        CsvErrorCase{"unfinished_record_too_long", "a\n0123456789abcdef", ErrorCode::kInvalidRequest,
                     "row 1 (byte 2): the record is longer than 8 bytes",
                     ReaderLimits{.max_record_bytes = 8}},
        CsvErrorCase{"too_many_header_cells", "a,b,c,d\n1\n", ErrorCode::kInvalidRequest,
                     "header (byte 0): more than 3 cells", ReaderLimits{.max_cells = 3}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CsvReaderTest, ReportsTheDialect) {
  ReadOutcome out = ReadAll(FileFormat::kCsv, "\xEF\xBB\xBF" "a;b\r\n1;2\r\n");
  EXPECT_EQ(out.dialect, (CsvDialect{.delimiter = ';', .crlf = true, .bom = true}));
  out = ReadAll(FileFormat::kCsv, "a,b\n1,2\n");
  EXPECT_EQ(out.dialect, (CsvDialect{.delimiter = ',', .crlf = false, .bom = false}));
}

TEST(CsvReaderTest, AOneMegabyteLineWorks) {
  std::string big(1024 * 1024, 'x');
  const std::string input = "sku,description\nA1," + big + "\nA2,\"" + big + "\"\n";
  for (size_t chunk : {0, 4096, 65536}) {
    ReadOutcome out = ReadAll(FileFormat::kCsv, input, chunk);
    ASSERT_EQ(out.code, ErrorCode::kOk) << out.message;
    ASSERT_EQ(out.rows.size(), 2u);
    EXPECT_EQ(out.rows[0][1], big);
    EXPECT_EQ(out.rows[1][1], big);
  }
}

TEST(CsvReaderTest, ErrorsAreSticky) {
  CsvReader reader(ReaderLimits{});
  reader.Feed("a\n\xFF\n2\n");
  reader.Finish();
  Result<ReadState> first = reader.Next();
  ASSERT_FALSE(first.ok());
  Result<ReadState> again = reader.Next();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(), first.status().message());
}

TEST(CsvReaderTest, CountsRowsAndOffsets) {
  CsvReader reader(ReaderLimits{});
  reader.Feed("a,b\n1,2\n3,4\n");
  reader.Finish();
  ASSERT_EQ(*reader.Next(), ReadState::kRow);
  EXPECT_EQ(reader.record_offset(), 4u);
  ASSERT_EQ(*reader.Next(), ReadState::kRow);
  EXPECT_EQ(reader.record_offset(), 8u);
  EXPECT_EQ(*reader.Next(), ReadState::kEnd);
  EXPECT_EQ(reader.rows_read(), 2u);
}

// Comment lines are not rows; the first row's offset is after them (the cleaned file copies
// everything before it, comments included, as it was).
TEST(CsvReaderTest, CommentLinesAreCountedApartFromRows) {
  CsvReader reader(ReaderLimits{});
  reader.Feed("# ref_application_id 1\nid,title\n1,Cat\n");
  reader.Finish();
  ASSERT_EQ(*reader.Next(), ReadState::kRow);
  EXPECT_EQ(reader.record_offset(), 32u);
  EXPECT_EQ(reader.comment_lines(), 1u);
  EXPECT_EQ(*reader.Next(), ReadState::kEnd);
  EXPECT_EQ(reader.rows_read(), 1u);
}

// fields_read(): the record's own field count, before padding or dropping to the header's width.
TEST(CsvReaderTest, SaysHowManyFieldsEachRecordHad) {
  CsvReader reader(ReaderLimits{});
  reader.Feed("a,b,c\n1,2,3\n1,2,3,\n1\n\"x,y\",2,3,4,5\n");
  reader.Finish();
  std::vector<uint64_t> fields;
  while (*reader.Next() == ReadState::kRow) {
    EXPECT_EQ(reader.row().size(), 3u);
    fields.push_back(reader.fields_read());
  }
  EXPECT_EQ(fields, (std::vector<uint64_t>{3, 4, 1, 5}));
}

// At most kMaxCommentLines are skipped: the next line is the header, whatever it holds.
TEST(CsvReaderTest, CommentLinesAreBounded) {
  std::string input;
  for (uint64_t i = 0; i <= CsvReader::kMaxCommentLines; ++i) input += "# note\n";
  input += "1\n";
  ReadOutcome out = ReadAll(FileFormat::kCsv, input, 0);
  ASSERT_EQ(out.code, ErrorCode::kOk) << out.message;
  EXPECT_EQ(out.header, std::vector<std::string>{"# note"});
  EXPECT_EQ(out.rows, (Rows{{"1"}}));
}

TEST(CsvReaderTest, ByteAtATimeFeedingOfALongRecordIsNotQuadratic) {
  // 200 KB fed one byte at a time: with re-scanning from the record start on every byte this
  // would take ~2*10^10 steps; the doubling rule keeps it linear.
  const std::string input = "a\n" + std::string(200 * 1024, 'y') + "\n";
  CsvReader reader(ReaderLimits{});
  size_t rows = 0;
  for (char c : input) {
    reader.Feed(std::string_view(&c, 1));
    while (true) {
      Result<ReadState> s = reader.Next();
      ASSERT_TRUE(s.ok());
      if (*s != ReadState::kRow) break;
      ++rows;
    }
  }
  reader.Finish();
  while (*reader.Next() == ReadState::kRow) ++rows;
  EXPECT_EQ(rows, 1u);
}

TEST(ScanFileTest, SummarisesAFile) {
  Result<FileSummary> s = ScanFile(FileFormat::kCsv, "a;b\r\n1;2\r\n3;4\r\n");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->data_rows, 2u);
  EXPECT_EQ(s->header, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s->dialect.delimiter, ';');
  EXPECT_TRUE(s->dialect.crlf);
  EXPECT_EQ(ScanFile(FileFormat::kCsv, "a,b\n").status().code(), ErrorCode::kEmptyFile);
}

TEST(ScanFileTest, LearnsEachColumnsDateOrderFromTheWholeFile) {
  // Column a: ambiguous until its last row shows day first; b: month first; c: both orders;
  // d: no A/B/YYYY dates at all.
  std::string csv = "a,b,c,d\n";
  for (int i = 0; i < 3000; ++i) csv += "03/04/2027,03/04/2027,03/04/2027,x\n";
  csv += " 25/04/2027 ,04/25/2027,25/04/2027,2027-04-25\n";
  csv += "03/04/2027,03/04/2027,04/25/2027,12/31\n";
  Result<FileSummary> s = ScanFile(FileFormat::kCsv, csv, {}, /*learn_date_orders=*/true);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_TRUE(ScanFile(FileFormat::kCsv, csv)->date_orders.empty());  // not asked for
  using dates::DateOrder;
  EXPECT_EQ(s->date_orders, (std::vector<DateOrder>{DateOrder::kDayFirst, DateOrder::kMonthFirst,
                                                    DateOrder::kConflicting, DateOrder::kUnknown}));
}

}  // namespace
}  // namespace dq::ingest
