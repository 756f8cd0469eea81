// gzip, text encodings, format decisions and the XLSX writer/reader round trip (no files needed;
// the spreadsheet-made corpus is in xlsx_corpus_test.cpp).
#include <gtest/gtest.h>

#include <random>
#include <zlib.h>

#include "dq/ingest/gzip.h"
#include "dq/ingest/text_encoding.h"
#include "dq/ingest/upload_decode.h"
#include "dq/ingest/xlsx_reader.h"
#include "dq/ingest/row_writer.h"
#include "ingest_test_util.h"

namespace dq::ingest {
namespace {

using testing::ReadAll;

std::string Gzip(std::string_view data) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST(Gzip, RoundTripAndConcatenatedMembers) {
  auto one = Gunzip(Gzip("sku,price\nA,1\n"), 1000);
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(*one, "sku,price\nA,1\n");
  auto two = Gunzip(Gzip("sku\n") + Gzip("A\n"), 1000);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(*two, "sku\nA\n");
}

TEST(Gzip, BombStopsAtTheLimitWithoutInflatingItAll) {
  const std::string zeros(64 * 1024 * 1024, '0');  // 64 MiB of '0' compress to ~64 KiB
  const std::string bomb = Gzip(zeros);
  ASSERT_LT(bomb.size(), 200u * 1024);
  auto out = Gunzip(bomb, 1024 * 1024);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), ErrorCode::kFileTooLarge);
}

TEST(Gzip, TruncatedAndCorruptNameTheByte) {
  const std::string gz = Gzip(std::string(5000, 'x') + "tail");
  auto cut = Gunzip(gz.substr(0, gz.size() / 2), 1 << 20);
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().code(), ErrorCode::kInvalidRequest);
  EXPECT_NE(cut.status().message().find("truncated"), std::string::npos);
  std::string bad = gz;
  bad[12] = static_cast<char>(bad[12] ^ 0xFF);
  bad[13] = static_cast<char>(bad[13] ^ 0xFF);
  auto corrupt = Gunzip(bad, 1 << 20);
  ASSERT_FALSE(corrupt.ok());
  EXPECT_NE(corrupt.status().message().find("byte"), std::string::npos);
  EXPECT_FALSE(Gunzip("", 10).ok());
}

TEST(ContentEncoding, GzipIdentityAndOthers) {
  auto none = DecodeContentEncoding("", "abc", 10);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  auto gz = DecodeContentEncoding(" GZIP ", Gzip("abc"), 10);
  ASSERT_TRUE(gz.ok());
  EXPECT_EQ(**gz, "abc");
  auto br = DecodeContentEncoding("br", "abc", 10);
  ASSERT_FALSE(br.ok());
  EXPECT_EQ(br.status().code(), ErrorCode::kUnsupportedMediaType);
}

struct EncodingCase {
  std::string name;
  std::string bytes;
  std::string declared;
  std::string encoding;  // "" = error expected
  std::string utf8;      // expected text (when converted), or the error's fragment
};

class Encodings : public ::testing::TestWithParam<EncodingCase> {};

TEST_P(Encodings, DecideAndConvert) {
  const EncodingCase& c = GetParam();
  auto r = DecodeText(c.bytes, c.declared);
  if (c.encoding.empty()) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidRequest);
    EXPECT_NE(r.status().message().find(c.utf8), std::string::npos) << r.status().message();
    return;
  }
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->encoding, c.encoding);
  EXPECT_EQ(r->was_converted ? r->converted : c.bytes, c.utf8);
}

INSTANTIATE_TEST_SUITE_P(
    Ingest, Encodings,
    ::testing::Values(
        EncodingCase{"ascii", "sku\nA\n", "", "utf-8", "sku\nA\n"},
        EncodingCase{"utf8_bom_kept_for_the_reader", "\xEF\xBB\xBFsku\n", "", "utf-8",
                     "\xEF\xBB\xBFsku\n"},
        EncodingCase{"utf16le_bom", std::string("\xFF\xFEs\0k\0u\0\n\0\xE9\0", 12), "",
                     "utf-16le", "sku\n\xC3\xA9"},
        EncodingCase{"utf16be_bom", std::string("\xFE\xFF\0s\0k\0u\x20\xAC", 10), "", "utf-16be",
                     "sku\xE2\x82\xAC"},
        EncodingCase{"utf16_unpaired_surrogate", std::string("\xFF\xFEs\0\x00\xD8" "a\0", 8), "",
                     "", "Byte 4"},
        EncodingCase{"utf16_odd_length", std::string("\xFF\xFEs\0k", 5), "", "", "byte 4"},
        EncodingCase{"windows1252_detected",
                     "title,price\nCaf\xE9 cr\xE8me br\xFBl\xE9\x65 \x80 \x93 d\xE9j\xE0 vu,1\n"
                     "Na\xEFve fa\xE7\x61\x64\x65 \xE0 la carte,2\nGar\xE7on \xE9t\xE9,3\n",
                     "", "windows-1252",
                     "title,price\nCaf\xC3\xA9 cr\xC3\xA8me br\xC3\xBBl\xC3\xA9\x65 \xE2\x82\xAC "
                     "\xE2\x80\x9C d\xC3\xA9j\xC3\xA0 vu,1\nNa\xC3\xAFve fa\xC3\xA7\x61\x64\x65 "
                     "\xC3\xA0 la carte,2\nGar\xC3\xA7on \xC3\xA9t\xC3\xA9,3\n"},
        EncodingCase{"iso8859_15_declared_euro", "price\n\xA4 5\n", "iso-8859-15", "iso-8859-15",
                     "price\n\xE2\x82\xAC 5\n"},
        EncodingCase{"latin1_declared", "x\n\xA4\n", "latin1", "iso-8859-1", "x\n\xC2\xA4\n"},
        // A wrong label never corrupts valid UTF-8.
        EncodingCase{"mislabelled_utf8_as_windows1252", "x\nCaf\xC3\xA9\n", "windows-1252",
                     "utf-8", "x\nCaf\xC3\xA9\n"},
        EncodingCase{"mislabelled_latin1_as_utf8", "x\nCaf\xE9\n", "utf-8", "", "Byte 5 (0xE9)"},
        EncodingCase{"windows1252_undefined_byte", "x\n\x81\n", "windows-1252", "", "Byte 2"},
        EncodingCase{"unknown_charset", "x\n", "koi8-r", "", "koi8-r"}),
    [](const auto& info) { return info.param.name; });

TEST(CharsetParam, FromContentType) {
  EXPECT_EQ(CharsetParam("text/csv; charset=Windows-1252"), "windows-1252");
  EXPECT_EQ(CharsetParam("text/csv;charset=\"ISO-8859-1\""), "iso-8859-1");
  EXPECT_EQ(CharsetParam("text/csv"), "");
}

TEST(PrepareFile, GzipFileNamedCsvGz) {
  auto f = PrepareFile("application/gzip", "products.csv.gz", Gzip("sku\nA\n"), 1000);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_TRUE(f->gzipped);
  EXPECT_EQ(f->format, FileFormat::kCsv);
  EXPECT_EQ(f->data(), "sku\nA\n");
}

TEST(PrepareFile, Utf16TsvAsExcelSavesUnicodeText) {
  const std::string text("\xFF\xFEs\0k\0u\0\t\0t\0\n\0A\0\t\0B\0\n\0", 22);
  auto f = PrepareFile("", "export.txt", text, 1000);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->encoding, "utf-16le");
  auto out = ReadAll(f->format, f->data());
  EXPECT_EQ(out.header, (std::vector<std::string>{"sku", "t"}));
  EXPECT_EQ(out.rows, (testing::Rows{{"A", "B"}}));
}

TEST(PrepareFile, XlsxDecisions) {
  const std::string zip_head("PK\x03\x04rest", 8);
  EXPECT_EQ(PrepareFile("", "a.xlsx", zip_head, 100)->format, FileFormat::kXlsx);
  EXPECT_EQ(PrepareFile("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "",
                        zip_head, 100)->format,
            FileFormat::kXlsx);
  EXPECT_EQ(PrepareFile("", "a.zip", zip_head, 100).status().code(),
            ErrorCode::kUnsupportedMediaType);
  auto enc = PrepareFile("", "secret.xlsx",
                         std::string("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8) + std::string(50, '\0'),
                         100);
  EXPECT_EQ(enc.status().code(), ErrorCode::kInvalidRequest);
  EXPECT_NE(enc.status().message().find("password"), std::string::npos);
  EXPECT_EQ(PrepareFile("", "a.xls", std::string("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8), 100)
                .status().code(),
            ErrorCode::kUnsupportedMediaType);
}

TEST(PrepareFile, ConvertedSizeCountsAgainstTheLimit) {
  const std::string latin(100, '\xE9');
  auto f = PrepareFile("text/csv; charset=iso-8859-1", "", "x\n" + latin, 150);
  EXPECT_EQ(f.status().code(), ErrorCode::kFileTooLarge);
}

TEST(ExcelNumbers, AsAPersonSeesThem) {
  EXPECT_EQ(ExcelNumberText("4006381333931"), "4006381333931");
  EXPECT_EQ(ExcelNumberText("4.006381333931E+12"), "4006381333931");
  EXPECT_EQ(ExcelNumberText("10.0"), "10");
  EXPECT_EQ(ExcelNumberText("19.989999999999998"), "19.99");
  EXPECT_EQ(ExcelNumberText("0.1"), "0.1");
  EXPECT_EQ(ExcelNumberText("-3"), "-3");
  EXPECT_EQ(ExcelNumberText("1E+20"), "1E+20");
  EXPECT_EQ(ExcelNumberText("abc"), "abc");
}

// ExcelNumberText returns text already in its form as it is, without strtod and printf: it must
// give what the conversion gives for every text, formatted or not.
TEST(ExcelNumbers, TheShortcutGivesWhatTheConversionGives) {
  for (std::string_view s :
       {"0", "-0", "00", "0.0", "0.5", "-0.5", "0.0001", "0.00012", "-0.0001", "0.00001", "1.5",
        "1.50", "01", "-", ".5", "5.", "", "+5", " 5", "5 ", "1e5", "999999999999999",
        "-999999999999999", "1000000000000000", "123456789012345.5", "12345678901234.5",
        "0.123456789012345", "0.1234567890123456", "0.000123456789012345", "19.99", "7.0E-3"}) {
    EXPECT_EQ(ExcelNumberText(s), internal::FormatExcelNumber(s)) << "'" << s << "'";
  }
  std::mt19937_64 rng(20261124);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  auto digits = [&](int n, bool zeros) {
    std::string d;
    for (int k = 0; k < n; ++k) d += static_cast<char>('0' + (zeros && pick(3) == 0 ? 0 : pick(10)));
    return d;
  };
  int unchanged = 0;
  const int kTexts = 200000;
  for (int t = 0; t < kTexts; ++t) {
    std::string s;
    const int sign = pick(6);
    if (sign == 0) s += '-';
    if (sign == 1 && pick(4) == 0) s += '+';
    s += digits(pick(18), true);
    if (pick(2) == 0) {  // a fraction
      s += '.';
      s += digits(pick(18), true);
    }
    if (pick(12) == 0) {  // an exponent
      s += pick(2) ? 'E' : 'e';
      s += pick(2) ? '-' : '+';
      s += digits(1 + pick(3), false);
    }
    if (pick(40) == 0) s.insert(static_cast<size_t>(pick(static_cast<int>(s.size()) + 1)), 1, ' ');
    const std::string want = internal::FormatExcelNumber(s);
    ASSERT_EQ(ExcelNumberText(s), want) << "'" << s << "'";
    unchanged += want == s;
  }
  EXPECT_GT(unchanged, kTexts / 10);  // the shortcut's case came up often
}

TEST(ExcelNumbers, SerialDates) {
  EXPECT_EQ(ExcelSerialDate(46387, false, false), "2026-12-31");
  EXPECT_EQ(ExcelSerialDate(1, false, false), "1900-01-01");
  EXPECT_EQ(ExcelSerialDate(59, false, false), "1900-02-28");
  EXPECT_EQ(ExcelSerialDate(61, false, false), "1900-03-01");
  EXPECT_EQ(ExcelSerialDate(60, false, false), "");
  EXPECT_EQ(ExcelSerialDate(0, true, false), "1904-01-01");
  EXPECT_EQ(ExcelSerialDate(46082.604166666664, false, true), "2026-03-01 14:30:00");
}

std::string Workbook(const std::vector<std::string>& header, const testing::Rows& rows,
                     const std::vector<CellKind>& kinds = {}) {
  RowWriter w(FileFormat::kXlsx, {}, header);
  w.set_sheet_name("Stock & Co");
  for (const auto& r : rows) {
    std::vector<std::string_view> cells(r.begin(), r.end());
    w.WriteRow(cells, kinds);
  }
  EXPECT_TRUE(w.Finish().ok());
  return w.out();
}

TEST(Xlsx, WriterOutputReadsBackIdentically) {
  const testing::Rows rows = {{"A-1", "4006381333931", "19.99", "TRUE", "x<y & \"z\""},
                              {"", "", "", "", "tab\there\x01 _x0041_"}};
  const std::vector<CellKind> kinds = {CellKind::kString, CellKind::kNumber, CellKind::kNumber,
                                       CellKind::kBool, CellKind::kString};
  const std::string book = Workbook({"sku", "gtin", "price", "active", "note"}, rows, kinds);
  ASSERT_TRUE(book.starts_with("PK"));
  auto reader = MakeRowReader(FileFormat::kXlsx);
  reader->Feed(book);
  reader->Finish();
  auto s = reader->Next();
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(reader->sheet_name(), "Stock & Co");
  auto out = ReadAll(FileFormat::kXlsx, book, 100);  // chunked feeding too
  ASSERT_EQ(out.code, ErrorCode::kOk) << out.message;
  EXPECT_EQ(out.header, (std::vector<std::string>{"sku", "gtin", "price", "active", "note"}));
  ASSERT_EQ(out.rows.size(), 2u);
  EXPECT_EQ(out.rows[0], rows[0]);
  EXPECT_EQ(out.rows[1], rows[1]);
  EXPECT_EQ(out.kinds[0][1], CellKind::kNumber);
  EXPECT_EQ(out.kinds[0][3], CellKind::kBool);
}

// Every part is dated 1980-01-01 00:00 (DOS time 0, date 0x0021), as Excel dates them, so the
// same rows make the same bytes whenever they are written: a job's workbook, written again by a
// retried attempt, is the same file.
TEST(Xlsx, WriterDatesEveryPartTheSameFixedDay) {
  const std::string book = Workbook({"sku"}, {{"A-1"}, {"B-2"}});
  size_t parts = 0;
  for (size_t at = book.find("PK\x03\x04"); at != std::string::npos;
       at = book.find("PK\x03\x04", at + 4)) {
    ASSERT_LE(at + 14, book.size());
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(book[at + i]); };
    EXPECT_EQ(byte(10) | byte(11) << 8, 0) << "time of part " << parts;
    EXPECT_EQ(byte(12) | byte(13) << 8, 0x21) << "date of part " << parts;
    ++parts;
  }
  EXPECT_EQ(parts, 6u);
}

TEST(Xlsx, RowLimit) {
  testing::Rows rows;
  for (int i = 0; i < 5; ++i) rows.push_back({"S" + std::to_string(i)});
  ReaderLimits limits;
  limits.max_xlsx_rows = 3;
  auto out = ReadAll(FileFormat::kXlsx, Workbook({"sku"}, rows), 0, limits);
  EXPECT_EQ(out.code, ErrorCode::kInvalidRequest);
  EXPECT_NE(out.message.find("more than 3 data rows"), std::string::npos) << out.message;
}

TEST(Xlsx, PartLimitIsFileTooLarge) {
  testing::Rows rows(200, {std::string(100, 'x')});
  ReaderLimits limits;
  limits.max_xlsx_part_bytes = 4096;
  auto out = ReadAll(FileFormat::kXlsx, Workbook({"sku"}, rows), 0, limits);
  EXPECT_EQ(out.code, ErrorCode::kFileTooLarge) << out.message;
}

TEST(Xlsx, HeaderOnlyIsEmptyAndGarbageIsInvalid) {
  EXPECT_EQ(ReadAll(FileFormat::kXlsx, Workbook({"sku"}, {})).code, ErrorCode::kEmptyFile);
  auto bad = ReadAll(FileFormat::kXlsx, std::string("PK\x03\x04garbage", 11));
  EXPECT_EQ(bad.code, ErrorCode::kInvalidRequest);
  EXPECT_NE(bad.message.find("zip"), std::string::npos);
}

}  // namespace
}  // namespace dq::ingest
