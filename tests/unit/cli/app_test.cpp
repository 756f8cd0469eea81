// `dq` as a command line, with files and streams in memory: the exit codes a CI pipeline reads,
// the three formats, the cleaned file, standard input, progress, and the exact words of every
// usage error.
#include "app.h"
#include "in_memory_io.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "dq/ingest/row_reader.h"
#include "dq/ingest/row_writer.h"
#include "dq/report/issue_json.h"

namespace dq::offline {
namespace {

// Errors (MISSING_SKU, INVALID_PRICE, INVALID_GTIN_CHECKSUM) and fixes (a price, currencies, a
// title's spaces).
constexpr const char* kProducts =
    "SKU,Title,Price,Currency,GTIN\n"
    "A1,Blue mug,12.50,EUR,4006381333931\n"
    ",Red plate,abc,EUR,\n"
    "A3,\"Bowl, large\",\"$1,299.00\",usd,1234567890123\n"
    "A4,Green cup,7.00,EUR,036000291452\n"
    "A5,  Spoon ,3.10,eur,\n";
// Warnings only (a currency upper-cased).
constexpr const char* kWarningsOnly = "SKU,Title,Price,Currency\nB1,Lamp,5.00,eur\n";
constexpr const char* kClean = "SKU,Title,Price\nC1,Lamp,5.00\n";

class AppTest : public InMemoryIoTest {
 protected:
  AppTest() {
    files_["products.csv"] = kProducts;
    files_["warnings.csv"] = kWarningsOnly;
    files_["clean.csv"] = kClean;
    files_["empty.csv"] = "";
    io_.cpus = 2;
  }

  int Dq(std::vector<std::string> args) {
    out_.str("");
    err_.str("");
    return offline::Run(args, io_);
  }
};

TEST_F(AppTest, ExitCodesFollowFailOn) {
  EXPECT_EQ(Dq({"check", "products.csv"}), kExitIssues);  // errors, and --fail-on error by default
  EXPECT_EQ(Dq({"check", "products.csv", "--fail-on", "none"}), kExitClean);
  EXPECT_EQ(Dq({"check", "warnings.csv"}), kExitClean);  // warnings are not errors
  EXPECT_EQ(Dq({"check", "warnings.csv", "--fail-on", "warning"}), kExitIssues);
  EXPECT_EQ(Dq({"check", "clean.csv", "--fail-on", "warning"}), kExitClean);
  EXPECT_EQ(err_.str(), "");
}

TEST_F(AppTest, TheReportShowsScoreCountsAndTopCodesWithExamples) {
  EXPECT_EQ(Dq({"check", "products.csv"}), kExitIssues);
  EXPECT_EQ(out_.str(),
            "products.csv: csv, utf-8, 5 rows; checks product\n"
            "Mapping (inferred): sku = \"SKU\", title = \"Title\", price = \"Price\", "
            "currency = \"Currency\", gtin = \"GTIN\"\n"
            "\n"
            "  Health score  50 / 100\n"
            "  Rows          2 with errors, 1 with warnings only, 2 with fixes\n"
            "  Issues        3 errors, 4 warnings, 4 fixes\n"
            "\n"
            "Top issues\n"
            "  error   INVALID_GTIN_CHECKSUM       gtin                      1\n"
            "      row 3        \"1234567890123\"\n"
            "  error   INVALID_PRICE               price                     1\n"
            "      row 2        \"abc\"\n"
            "  error   MISSING_SKU                 sku                       1\n"
            "      row 2        \"\"\n"
            "  warning CURRENCY_UPPERCASED         currency                  2\n"
            "      row 3        \"usd\" -> \"USD\"\n"
            "      row 5        \"eur\" -> \"EUR\"\n"
            "  warning PRICE_REFORMATTED           price                     1\n"
            "      row 3        \"$1,299.00\" -> \"1299.00\"\n"
            "  warning WHITESPACE_TRIMMED          title                     1\n"
            "      row 5        \"  Spoon \" -> \"Spoon\"\n");
  EXPECT_EQ(Dq({"check", "clean.csv"}), kExitClean);
  EXPECT_NE(out_.str().find("  Health score  100 / 100\n"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("\nNo issues.\n"), std::string::npos) << out_.str();
}

TEST_F(AppTest, JsonIsTheJobDetailsMembersWithTheStoredIssueRecords) {
  ASSERT_EQ(Dq({"check", "products.csv", "--format", "json"}), kExitIssues);
  const std::string text = out_.str();
  auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["filename"], "products.csv");
  EXPECT_EQ(j["format"], "csv");
  EXPECT_EQ(j["check_types"], "product");
  EXPECT_EQ(j["stats"], nlohmann::json::parse(
                            R"({"rows":5,"errors":3,"warnings":4,"fixes":4,"score":50})"));
  EXPECT_EQ(j["health_score"], 50);
  EXPECT_EQ(j["issues_total"], 7);
  EXPECT_EQ(j["issues_truncated"], false);
  // Errors first, then the most frequent (issue 33).
  EXPECT_EQ(j["summary"]["by_code"][0]["severity"], "error");
  EXPECT_EQ(j["summary"]["by_code"][0]["code"], "INVALID_GTIN_CHECKSUM");
  ASSERT_EQ(j["issues"].size(), 7u);
  // The records as the store keeps them, spliced in unchanged: the ids count from 1.
  EXPECT_NE(text.find(",\"issues\":[{\"id\":1,\"issue_row\":2,\"severity\":\"error\",\"field\":"
                      "\"sku\",\"code\":\"MISSING_SKU\""),
            std::string::npos)
      << text;
  EXPECT_EQ(text.substr(text.size() - 4), "}]}\n");
}

TEST_F(AppTest, CsvIsTheIssuesDownload) {
  ASSERT_EQ(Dq({"check", "products.csv", "--format", "csv"}), kExitIssues);
  const std::string csv = out_.str();
  EXPECT_EQ(csv.substr(0, report::IssuesCsvHeader().size()), report::IssuesCsvHeader());
  EXPECT_NE(csv.find("\r\n4,3,warning,price,PRICE_REFORMATTED,Price was rewritten as a plain "
                     "decimal number,\"$1,299.00\",1299.00,A3,,\"Bowl, large\"\r\n"),
            std::string::npos)
      << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 8);  // the header and 7 issues
}

TEST_F(AppTest, MaxIssuesCapsTheListNotTheCounts) {
  ASSERT_EQ(Dq({"check", "products.csv", "--format", "json", "--max-issues", "2"}), kExitIssues);
  auto j = nlohmann::json::parse(out_.str());
  EXPECT_EQ(j["issues"].size(), 2u);
  EXPECT_EQ(j["issues_total"], 7);
  EXPECT_EQ(j["issues_truncated"], true);
  EXPECT_EQ(j["stats"]["errors"], 3);
}

// As the service writes it: the upload's bytes, with only the fixed cells rewritten (in the
// upload's quoting).
TEST_F(AppTest, TheCleanedFileHasTheFixesInPlace) {
  ASSERT_EQ(Dq({"check", "products.csv", "--cleaned", "out.csv", "--fail-on", "none"}),
            kExitClean);
  EXPECT_EQ(written_["out.csv"].str(),
            "SKU,Title,Price,Currency,GTIN\n"
            "A1,Blue mug,12.50,EUR,4006381333931\n"
            ",Red plate,abc,EUR,\n"
            "A3,\"Bowl, large\",\"1299.00\",USD,1234567890123\n"
            "A4,Green cup,7.00,EUR,036000291452\n"
            "A5,Spoon,3.10,EUR,\n");
}

// As the download: a CSV cell that starts like a formula gets a leading ', unless kept.
TEST_F(AppTest, TheCleanedCsvNeutralisesFormulasUnlessKept) {
  files_["formula.csv"] = "SKU,Title,Price\nF1,=HYPERLINK(\"x\"),5.00\n";
  ASSERT_EQ(Dq({"check", "formula.csv", "--cleaned", "n.csv"}), kExitClean);
  EXPECT_EQ(written_["n.csv"].str(), "SKU,Title,Price\nF1,\"'=HYPERLINK(\"\"x\"\")\",5.00\n");
  ASSERT_EQ(Dq({"check", "formula.csv", "--cleaned", "k.csv", "--formulas", "keep"}),
            kExitClean);
  EXPECT_EQ(written_["k.csv"].str(), files_["formula.csv"]);
}

TEST_F(AppTest, StandardInputIsReadWithTheNameItStandsFor) {
  ingest::RowWriter w(ingest::FileFormat::kXlsx, {}, {"SKU", "Price"});
  std::vector<std::string_view> row = {"X1", "12,50"};
  w.WriteRow(row, {});
  ASSERT_TRUE(w.Finish().ok());
  files_["-"] = w.out();
  ASSERT_EQ(Dq({"check", "-", "--name", "book.xlsx", "--format", "json", "--cleaned", "o.xlsx"}),
            kExitClean);
  auto j = nlohmann::json::parse(out_.str());
  EXPECT_EQ(j["format"], "xlsx");
  EXPECT_EQ(j["filename"], "book.xlsx");
  auto reader = ingest::MakeRowReader(ingest::FileFormat::kXlsx);
  const std::string book = written_["o.xlsx"].str();
  reader->Feed(book);
  reader->Finish();
  auto state = reader->Next();
  ASSERT_TRUE(state.ok() && *state == ingest::ReadState::kRow);
  EXPECT_EQ(reader->row()[1], "12.50");
  // Without a name the bytes decide, as for an upload with no filename.
  ASSERT_EQ(Dq({"check", "-", "--format", "json"}), kExitClean);
  EXPECT_EQ(nlohmann::json::parse(out_.str())["format"], "xlsx");
  // A name whose extension the service does not read is refused, as an upload's.
  EXPECT_EQ(Dq({"check", "-", "--name", "book.xls"}), kExitUsage);
  EXPECT_EQ(err_.str(),
            "dq: book.xls: The file is a zip archive that is not named or typed as an XLSX "
            "workbook; upload CSV, TSV, a JSON array of objects, NDJSON, XLSX or an XML feed "
            "(RSS 2.0 or Atom), optionally gzip-compressed\n");
}

// A Shopify export mixing products with variants (a first row that names the option, then
// variant rows) and without (Option1 Value "Default Title" on the product's own row; or a row that
// names an option and no variant follows, so it is the product: its empty price is reported).
// Such a row is placed last in the first chunk (row 4096, StreamOptions::chunk_rows) and last in
// the file: the chunk waits for the next row to know the kind. A record with a field too many is
// ROW_FIELD_COUNT, as on the job path.
TEST_F(AppTest, AShopifyProductWithoutVariantsIsJudgedAsAProductAcrossChunks) {
  std::string csv = "Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price\n";
  size_t rows = 0;
  std::vector<size_t> lone;  // rows of parents without variants
  for (int p = 0; rows < 4200; ++p) {
    const std::string h = "p" + std::to_string(p);
    if (rows == 4095 || rows == 7) {
      csv += h + ",Cap,Color,,,\n";
      lone.push_back(++rows);
    } else if (p % 2 == 0 || (rows < 7 && rows + 3 > 7) || (rows < 4095 && rows + 3 > 4095)) {
      csv += h + ",Mug,Title,Default Title," + h + ",9.00\n";
      ++rows;
    } else {
      csv += h + ",Tee,Size,,,\n" + h + ",,,S," + h + "-S,5.00\n" + h + ",,,M," + h + "-M,5.00\n";
      rows += 3;
    }
  }
  csv += "ragged,Bag,Title,Default Title,R-1,4.00,\n";
  const size_t ragged = ++rows;
  csv += "last,Hat,Color,,,\n";
  lone.push_back(++rows);
  files_["shop.csv"] = csv;
  ASSERT_EQ(Dq({"check", "shop.csv", "--format", "json"}), kExitIssues) << err_.str();
  const auto j = nlohmann::json::parse(out_.str());
  EXPECT_EQ(j["source"], "shopify_products");
  EXPECT_EQ(j["stats"]["rows"], rows);
  std::vector<std::pair<size_t, std::string>> issues;
  for (const auto& i : j["issues"]) {
    issues.emplace_back(i["issue_row"].get<size_t>(), i["code"].get<std::string>());
  }
  std::vector<std::pair<size_t, std::string>> expected;
  for (size_t r : lone) {
    if (r == rows) expected.emplace_back(ragged, "ROW_FIELD_COUNT");
    expected.emplace_back(r, "MISSING_SKU");
    expected.emplace_back(r, "INVALID_PRICE");
  }
  EXPECT_EQ(issues, expected);
  EXPECT_EQ(lone.size(), 3u);
  EXPECT_EQ(lone[1], 4096u);
}

TEST_F(AppTest, ProgressIsShownOnATerminalForALargeFileAndErased) {
  std::string big = "SKU,Price\n";
  for (int i = 0; i < 25000; ++i) big += "S" + std::to_string(i) + ",1.00\n";
  files_["big.csv"] = big;
  io_.err_is_terminal = true;
  ASSERT_EQ(Dq({"check", "big.csv"}), kExitClean);
  const std::string err = err_.str();
  EXPECT_EQ(err.rfind("\r\033[Kchecking ", 0), 0u) << err;
  EXPECT_NE(err.find(" of 25000 rows ("), std::string::npos) << err;
  EXPECT_EQ(err.substr(err.size() - 4), "\r\033[K");  // erased before the report
  ASSERT_EQ(Dq({"check", "big.csv", "--no-progress"}), kExitClean);
  EXPECT_EQ(err_.str(), "");
  io_.err_is_terminal = false;
  ASSERT_EQ(Dq({"check", "big.csv"}), kExitClean);
  EXPECT_EQ(err_.str(), "");
  io_.err_is_terminal = true;
  ASSERT_EQ(Dq({"check", "products.csv"}), kExitIssues);  // a small file: no meter
  EXPECT_EQ(err_.str(), "");
}

struct UsageCase {
  const char* name;
  std::vector<std::string> args;
  const char* error;
};

void PrintTo(const UsageCase& c, std::ostream* os) { *os << c.name; }

class UsageTest : public AppTest, public ::testing::WithParamInterface<UsageCase> {};

TEST_P(UsageTest, IsExitTwoWithTheExactWords) {
  EXPECT_EQ(Dq(GetParam().args), kExitUsage);
  EXPECT_EQ(err_.str(), GetParam().error);
  EXPECT_EQ(out_.str(), "");
}

INSTANTIATE_TEST_SUITE_P(
    Cases, UsageTest,
    ::testing::Values(
        UsageCase{"NoCommand", {}, "dq: A subcommand is required\nRun 'dq check --help' for the "
                                   "options.\n"},
        UsageCase{"NoFile", {"check"}, "dq: FILE is required\nRun 'dq check --help' for the "
                                       "options.\n"},
        UsageCase{"MissingFile", {"check", "nope.csv"}, "dq: nope.csv: cannot be opened\n"},
        UsageCase{"EmptyFile", {"check", "empty.csv"}, "dq: empty.csv: The file is empty.\n"},
        UsageCase{"UnknownFormat",
                  {"check", "products.csv", "--format", "xml"},
                  "dq: --format: xml not in {text,json,csv}\nRun 'dq check --help' for the "
                  "options.\n"},
        UsageCase{"UnknownCheckType",
                  {"check", "products.csv", "--checks", "product,colour"},
                  "dq: check_types: unknown check type 'colour'; use product, customer, "
                  "shipping, inventory or price\n"},
        UsageCase{"UnknownPlatform",
                  {"check", "products.csv", "--platform", "ebay"},
                  "dq: platform: unknown platform 'ebay'; see docs/api.md for the eight "
                  "template names\n"},
        UsageCase{"MappingNotJson",
                  {"check", "products.csv", "--mapping", "{sku"},
                  "dq: mapping: is not valid JSON; send a JSON object such as {\"sku\": "
                  "\"Variant SKU\"}\n"},
        UsageCase{"MappingUnknownField",
                  {"check", "products.csv", "--mapping", "{\"colour\":\"SKU\"}"},
                  "dq: mapping.colour: is not a standard field name\n"},
        UsageCase{"MappingColumnMissing",
                  {"check", "products.csv", "--mapping", "{\"sku\":\"Variant SKU\"}"},
                  "dq: products.csv: mapping.sku: column 'Variant SKU' is not in the file\n"},
        UsageCase{"MappingFileMissing",
                  {"check", "products.csv", "--mapping", "@map.json"},
                  "dq: map.json: cannot be opened\n"},
        UsageCase{"CleanedNotWritable",
                  {"check", "products.csv", "--cleaned", "/readonly/out.csv"},
                  "dq: /readonly/out.csv: cannot be written\n"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace dq::offline
