#include "dq/ingest/file_format.h"

#include <gtest/gtest.h>

namespace dq::ingest {
namespace {

struct DetectCase {
  const char* name;
  std::string content_type;
  std::string filename;
  std::string head;
  std::optional<FileFormat> format;  // nullopt: 415
  std::string message = "";
};

class DetectFormatTest : public ::testing::TestWithParam<DetectCase> {};

TEST_P(DetectFormatTest, Decides) {
  const DetectCase& c = GetParam();
  Result<FileFormat> f = DetectFormat(c.content_type, c.filename, c.head);
  if (c.format) {
    ASSERT_TRUE(f.ok()) << f.status().message();
    EXPECT_EQ(*f, *c.format);
  } else {
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.status().code(), ErrorCode::kUnsupportedMediaType);
    EXPECT_EQ(f.status().message(), c.message);
  }
}

constexpr auto kCsv = FileFormat::kCsv;
constexpr auto kTsv = FileFormat::kTsv;
constexpr auto kArr = FileFormat::kJsonArray;
constexpr auto kNd = FileFormat::kNdjson;
constexpr auto kXml = FileFormat::kXml;
const std::string kSuffix =
    "; upload CSV, TSV, a JSON array of objects, NDJSON, XLSX or an XML feed (RSS 2.0 or Atom), "
    "optionally gzip-compressed";

INSTANTIATE_TEST_SUITE_P(
    Cases, DetectFormatTest,
    ::testing::Values(
        DetectCase{"text_csv", "text/csv; charset=utf-8", "", "a,b\n", kCsv},
        DetectCase{"text_csv_wins_over_extension", "TEXT/CSV", "x.json", "[", kCsv},
        DetectCase{"tsv_type", "text/tab-separated-values", "", "a\tb", kTsv},
        DetectCase{"json_array", "application/json", "", " [{}]", kArr},
        DetectCase{"json_type_ndjson_content", "application/json", "", "{\"a\":1}\n", kNd},
        DetectCase{"ndjson_type", "application/x-ndjson", "", "{}", kNd},
        DetectCase{"octet_stream_csv_ext", "application/octet-stream", "P.CSV", "", kCsv},
        DetectCase{"octet_stream_tsv_ext", "application/octet-stream", "dir/p.tsv", "", kTsv},
        DetectCase{"octet_stream_jsonl_ext", "application/octet-stream", "p.jsonl", "", kNd},
        DetectCase{"octet_stream_json_ext", "application/octet-stream", "p.json", "[", kArr},
        DetectCase{"excel_type_for_csv", "application/vnd.ms-excel", "p.csv", "a;b", kCsv},
        DetectCase{"no_type_sniff_array", "", "", "\xEF\xBB\xBF\n [", kArr},
        DetectCase{"no_type_sniff_ndjson", "", "upload", "{", kNd},
        DetectCase{"no_type_sniff_csv", "text/plain", "x.txt", "sku,title\n", kCsv},
        DetectCase{"empty_file_is_csv", "", "", "", kCsv},
        DetectCase{"pdf_type", "application/pdf", "x.pdf", "%PDF-1.4", std::nullopt,
                   "The file is binary (e.g. a spreadsheet, archive or UTF-16 text), not text" +
                       kSuffix},
        DetectCase{"image_type", "image/png", "", "abc", std::nullopt,
                   "Content-Type 'image/png' is not supported" + kSuffix},
        DetectCase{"xml_type", "application/xml; charset=utf-8", "", "<rss/>", kXml},
        DetectCase{"text_xml_type", "text/xml", "p.csv", "<rss/>", kXml},
        DetectCase{"rss_type", "application/rss+xml", "", "", kXml},
        DetectCase{"atom_type", "application/atom+xml", "", "", kXml},
        DetectCase{"octet_stream_xml_ext", "application/octet-stream", "feed.XML", "", kXml},
        DetectCase{"plain_rss_ext", "text/plain", "feed.rss", "", kXml},
        DetectCase{"no_type_atom_ext", "", "feed.atom", "", kXml},
        DetectCase{"no_type_sniff_xml", "", "upload", "\xEF\xBB\xBF\n <?xml version=\"1.0\"?>",
                   kXml},
        DetectCase{"xml_content_with_csv_ext", "", "p.csv", "<rss/>", kCsv},
        DetectCase{"xml_type_binary", "application/xml", "", std::string("<a>\0</a>", 8),
                   std::nullopt,
                   "The file is binary (e.g. a spreadsheet, archive or UTF-16 text), not text" +
                       kSuffix},
        DetectCase{"ods_extension", "application/octet-stream", "p.ods", "abc", std::nullopt,
                   "Files of type '.ods' are not supported" + kSuffix},
        DetectCase{"zip_magic", "text/csv", "p.csv", std::string("PK\x03\x04rest", 8),
                   std::nullopt,
                   "The file is a zip archive that is not named or typed as an XLSX workbook" +
                       kSuffix},
        DetectCase{"nul_byte", "", "", std::string("a,b\n\0\0", 6), std::nullopt,
                   "The file is binary (e.g. a spreadsheet, archive or UTF-16 text), not text" +
                       kSuffix},
        DetectCase{"utf16", "text/csv", "", "\xFF\xFE" "a\0", std::nullopt,
                   "The file is binary (e.g. a spreadsheet, archive or UTF-16 text), not text" +
                       kSuffix}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(FileFormatTest, NamesAndContentTypes) {
  EXPECT_EQ(FormatName(FileFormat::kNdjson), "ndjson");
  EXPECT_EQ(ContentTypeFor(FileFormat::kTsv), "text/tab-separated-values; charset=utf-8");
  EXPECT_EQ(ContentTypeFor(FileFormat::kJsonArray), "application/json");
  EXPECT_EQ(FormatName(FileFormat::kXml), "xml");
  EXPECT_EQ(ContentTypeFor(FileFormat::kXml), "application/xml");
}

}  // namespace
}  // namespace dq::ingest
