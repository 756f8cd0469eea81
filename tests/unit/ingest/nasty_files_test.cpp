// One tiny fixture per bad (or merely awkward) input under tests/data/nasty/, each with the exact
// outcome of the upload path: DetectFormat on the declared name, then ScanFile (or, for the
// multipart fixtures, ParseUploadForm). The 1 MB line is generated here instead of committed.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "dq/ingest/file_format.h"
#include "dq/ingest/row_reader.h"
#include "dq/ingest/upload_form.h"

namespace dq::ingest {
namespace {

std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(DQ_NASTY_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Outcome {
  ErrorCode code = ErrorCode::kOk;
  std::string message;
  std::vector<std::string> header;
  uint64_t rows = 0;
};

Outcome Upload(const std::string& filename, const std::string& bytes) {
  Outcome out;
  Result<FileFormat> format = DetectFormat("application/octet-stream", filename, bytes);
  if (!format.ok()) {
    out.code = format.status().code();
    out.message = format.status().message();
    return out;
  }
  Result<FileSummary> summary = ScanFile(*format, bytes);
  if (!summary.ok()) {
    out.code = summary.status().code();
    out.message = summary.status().message();
    return out;
  }
  out.header = summary->header;
  out.rows = summary->data_rows;
  return out;
}

struct NastyCase {
  const char* file;
  ErrorCode code;
  std::string message;
  std::vector<std::string> header = {};
  uint64_t rows = 0;
};

class NastyFileTest : public ::testing::TestWithParam<NastyCase> {};

TEST_P(NastyFileTest, HasTheExactOutcome) {
  const NastyCase& c = GetParam();
  const Outcome out = Upload(c.file, Fixture(c.file));
  EXPECT_EQ(out.code, c.code);
  EXPECT_EQ(out.message, c.message);
  EXPECT_EQ(out.header, c.header);
  EXPECT_EQ(out.rows, c.rows);
}

constexpr ErrorCode kOk = ErrorCode::kOk;
constexpr ErrorCode kBad = ErrorCode::kInvalidRequest;
constexpr ErrorCode kEmpty = ErrorCode::kEmptyFile;
constexpr ErrorCode k415 = ErrorCode::kUnsupportedMediaType;
const std::string kBinary =
    "The file is binary (e.g. a spreadsheet, archive or UTF-16 text), not text; upload CSV, TSV, "
    "a JSON array of objects, NDJSON, XLSX or an XML feed (RSS 2.0 or Atom), optionally "
    "gzip-compressed";

INSTANTIATE_TEST_SUITE_P(
    Fixtures, NastyFileTest,
    ::testing::Values(
        NastyCase{"empty.csv", kEmpty, "The file is empty."},
        NastyCase{"blank_lines.csv", kEmpty, "The file is empty."},
        NastyCase{"header_only.csv", kEmpty, "The file has a header row but no data rows."},
        NastyCase{"empty_array.json", kEmpty, "The JSON array has no rows."},
        NastyCase{"unterminated_quote.csv", kBad,
                  "row 1 (byte 10): a quoted field is not closed before the end of the file"},
        NastyCase{"text_after_quote.csv", kBad,
                  "row 1 (byte 10): unexpected character after a closing quote at byte 18 (a "
                  "quote inside a quoted field must be doubled)"},
        NastyCase{"ragged_short.csv", kOk, "", {"sku", "title", "price"}, 3},
        // Read, not refused: the job reports the row (ROW_FIELD_COUNT), the cleaned file keeps it.
        NastyCase{"ragged_long.csv", kOk, "", {"sku", "title"}, 2},
        NastyCase{"latin1.csv", kBad,
                  "row 1 (byte 10): invalid UTF-8 byte 0xE9 at byte 16; save the file as UTF-8"},
        NastyCase{"high_bytes.txt", kBad,
                  "header (byte 0): invalid UTF-8 byte 0x98 at byte 5; save the file as UTF-8"},
        NastyCase{"binary_garbage.bin", k415, kBinary},
        NastyCase{"utf16.csv", k415, kBinary},
        NastyCase{"bom_crlf.csv", kOk, "", {"sku", "title"}, 2},
        NastyCase{"semicolon.csv", kOk, "", {"sku", "title", "price"}, 2},
        NastyCase{"embedded_newlines.csv", kOk, "", {"sku", "description"}, 2},
        NastyCase{"plain.tsv", kOk, "", {"sku", "price"}, 1},
        NastyCase{"truncated_array.json", kBad,
                  "The JSON array is not closed: the file ends before its ']' (byte 26)"},
        NastyCase{"bad_line.ndjson", kBad,
                  "row 2 (byte 13): expected a key string, found '}' at byte 25"},
        NastyCase{"html_entity.xml", kBad,
                  "XML is malformed at line 3, column 33: undefined entity (HTML entities such "
                  "as &nbsp; are not XML: write the character itself, or a numeric reference "
                  "such as &#160;)"},
        NastyCase{"truncated_feed.xml", kBad,
                  "XML is malformed at line 4, column 32: no element found"}),
    [](const auto& info) {
      std::string name = info.param.file;
      for (char& c : name) {
        if (c == '.') c = '_';
      }
      return name;
    });

TEST(NastyFileTest, SemicolonCellsKeepTheirCommas) {
  Result<FileSummary> s = ScanFile(FileFormat::kCsv, Fixture("semicolon.csv"));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->dialect.delimiter, ';');
  auto reader = MakeRowReader(FileFormat::kCsv);
  const std::string bytes = Fixture("semicolon.csv");
  reader->Feed(bytes);
  reader->Finish();
  ASSERT_EQ(*reader->Next(), ReadState::kRow);
  EXPECT_EQ(std::vector<std::string_view>(reader->row().begin(), reader->row().end()),
            (std::vector<std::string_view>{"A1", "Mug", "1,50"}));
  ASSERT_EQ(*reader->Next(), ReadState::kRow);
  EXPECT_EQ(reader->row()[1], "Bowl; large");
}

TEST(NastyFileTest, EmbeddedNewlinesAreKept) {
  auto reader = MakeRowReader(FileFormat::kCsv);
  const std::string bytes = Fixture("embedded_newlines.csv");
  reader->Feed(bytes);
  reader->Finish();
  ASSERT_EQ(*reader->Next(), ReadState::kRow);
  EXPECT_EQ(reader->row()[1], "Line one\nLine two\r\nLine \"three\"");
}

TEST(NastyFileTest, RaggedShortRowsArePadded) {
  auto reader = MakeRowReader(FileFormat::kCsv);
  const std::string bytes = Fixture("ragged_short.csv");
  reader->Feed(bytes);
  reader->Finish();
  std::vector<std::vector<std::string>> rows;
  while (*reader->Next() == ReadState::kRow) rows.emplace_back(reader->row().begin(),
                                                                reader->row().end());
  EXPECT_EQ(rows, (std::vector<std::vector<std::string>>{
                      {"A1", "Mug", ""}, {"A2", "", ""}, {"A3", "Cup", "4.50"}}));
}

TEST(NastyFileTest, AOneMegabyteSingleLineFile) {
  // One record, one line, no header break until the end: a 1 MiB header line is fine too.
  const std::string cell(1024 * 1024, 'q');
  Result<FileSummary> s = ScanFile(FileFormat::kCsv, "h\n" + cell + "\n");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->data_rows, 1u);
  const std::string line_only = cell;  // a single line: a header and no data
  EXPECT_EQ(ScanFile(FileFormat::kCsv, line_only).status().code(), ErrorCode::kEmptyFile);
  // Over the limit it is a clear error, not a crash or a hang.
  Result<FileSummary> over = ScanFile(FileFormat::kCsv, "h\n" + cell + "\n",
                                      ReaderLimits{.max_record_bytes = 512 * 1024});
  EXPECT_EQ(over.status().message(), "row 1 (byte 2): the record is longer than 524288 bytes");
}

struct MultipartFixture {
  const char* file;
  ErrorCode code;
  std::string message;
};

class NastyMultipartTest : public ::testing::TestWithParam<MultipartFixture> {};

TEST_P(NastyMultipartTest, HasTheExactOutcome) {
  const std::string body = Fixture(GetParam().file);
  Result<UploadForm> form = ParseUploadForm("multipart/form-data; boundary=B", body);
  EXPECT_EQ(form.status().code(), GetParam().code);
  EXPECT_EQ(form.status().message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, NastyMultipartTest,
    ::testing::Values(
        MultipartFixture{"multipart_ok.txt", kOk, ""},
        MultipartFixture{"multipart_truncated.txt", kBad,
                         "The multipart body ends inside part 1, before the closing boundary."},
        MultipartFixture{"multipart_no_file.txt", kBad, "The form has no 'file' field."}),
    [](const auto& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

TEST(NastyMultipartTest, TheGoodUploadReadsThrough) {
  const std::string body = Fixture("multipart_ok.txt");
  Result<UploadForm> form = ParseUploadForm("multipart/form-data; boundary=B", body);
  ASSERT_TRUE(form.ok());
  Result<FileFormat> format =
      DetectFormat(form->file_content_type(), form->filename(), form->file());
  ASSERT_TRUE(format.ok());
  Result<FileSummary> s = ScanFile(*format, form->file());
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->header, (std::vector<std::string>{"sku", "price"}));
  EXPECT_EQ(s->data_rows, 1u);
  EXPECT_EQ(form->check_types, "product,price");
}

}  // namespace
}  // namespace dq::ingest
