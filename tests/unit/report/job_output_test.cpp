// JobOutput's part of the row model: each row's kind in the chunk sent to the validator, the
// check plan in the spec, and issues stored with the names of their item.
#include "dq/report/job_output.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace dq::report {
namespace {

FileCheck ShopifyJob() {
  FileCheck job;
  job.check_types = CheckTypeList::FromText("product");
  job.header = {"Handle", "Title", "Variant SKU", "Variant Price", "Image Src"};
  job.mapping = {{"sku", "Variant SKU"}, {"title", "Title"}, {"price", "Variant Price"}};
  job.source = "shopify_products";
  job.planned = true;
  job.weight_unit = "unknown";
  job.conventions = R"([{"field":"image_url","list_separator":",","value_aliases":{"x":"y"}}])";
  job.gtin_padding_evidence = true;
  return job;
}

void Add(JobOutput& out, RowBatch& batch, validator::v1::RowChunk& chunk,
         std::vector<std::string> row) {
  std::vector<std::string_view> cells(row.begin(), row.end());
  out.AddRow(cells, batch, &chunk);
}

TEST(JobOutputTest, KindsAreSentAndIssuesNameTheirItem) {
  const FileCheck job = ShopifyJob();
  JobOutput out(job, {});
  const validator::v1::BatchSpec spec = out.Spec();
  EXPECT_EQ(spec.source(), "shopify_products");
  EXPECT_EQ(spec.weight_unit(), "unknown");
  EXPECT_TRUE(spec.gtin_padding_evidence());
  ASSERT_EQ(spec.conventions_size(), 1);
  EXPECT_EQ(spec.conventions(0).list_separator(), ",");
  EXPECT_EQ(spec.conventions(0).value_aliases().at("x"), "y");

  RowBatch batch;
  validator::v1::RowChunk chunk;
  Add(out, batch, chunk, {"gloves", "Gloves", "GL-G", "9", "a.jpg"});
  Add(out, batch, chunk, {"gloves", "", "GL-Y", "abc", ""});
  Add(out, batch, chunk, {"gloves", "", "", "", "c.jpg"});
  out.Seal(batch, &chunk);
  const auto& kinds = chunk.packed().kinds();
  ASSERT_EQ(kinds.size(), 3);
  EXPECT_EQ(kinds[0], validator::v1::ROW_KIND_PRODUCT);
  EXPECT_EQ(kinds[1], validator::v1::ROW_KIND_VARIANT);
  EXPECT_EQ(kinds[2], validator::v1::ROW_KIND_IMAGE);

  validator::v1::IssueChunk answer;
  auto* issue = answer.add_issues();
  issue->set_row(2);
  issue->set_severity(validator::v1::SEVERITY_ERROR);
  issue->set_field("price");
  issue->set_code("INVALID_PRICE");
  out.Apply(answer, batch);
  JobWrite w = out.TakeWrite();
  ASSERT_EQ(w.issues.size(), 1u);
  const auto stored = nlohmann::json::parse(w.issues[0]);
  EXPECT_EQ(stored["sku"], "GL-Y");
  EXPECT_EQ(stored["item_id"], "gloves");
  EXPECT_EQ(stored["title"], "Gloves");

  // The next chunk starts its kinds afresh.
  batch.Clear();
  Add(out, batch, chunk, {"hat", "Hat", "H", "5", ""});
  out.Seal(batch, &chunk);
  ASSERT_EQ(chunk.packed().kinds().size(), 1);
  EXPECT_EQ(chunk.packed().kinds(0), validator::v1::ROW_KIND_PRODUCT);
}

TEST(JobOutputTest, GenericFilesSendNoKindsAndTailIssuesAreNamedWhenTheRunnerSaysSo) {
  FileCheck job = ShopifyJob();
  job.source = "generic";
  JobOutput out(job, {});
  RowBatch batch;
  validator::v1::RowChunk chunk;
  Add(out, batch, chunk, {"gloves", "Gloves", "GL-G", "9", "a.jpg"});
  out.Seal(batch, &chunk);
  EXPECT_EQ(chunk.packed().kinds_size(), 0);

  validator::v1::IssueChunk tail;
  auto* issue = tail.add_issues();
  issue->set_row(1);
  issue->set_field("price");
  issue->set_code("PRICE_OUTLIER");
  out.ApplyTail(tail);
  EXPECT_EQ(out.TailRows(), (std::vector<uint64_t>{1}));
  EXPECT_TRUE(out.TakeWrite().issues.empty());  // held until named
  out.NameTailRow(1, {"GL-G", "", "Gloves"});
  out.FlushTail();
  JobWrite w = out.TakeWrite();
  ASSERT_EQ(w.issues.size(), 1u);
  const auto stored = nlohmann::json::parse(w.issues[0]);
  EXPECT_EQ(stored["sku"], "GL-G");
  EXPECT_EQ(stored["item_id"], nullptr);
  EXPECT_EQ(stored["title"], "Gloves");
}

// The batch-level issues are named from the names kept as rows were sealed, over several
// batches (a variant row takes its product's names): the names a fresh row model gives reading
// the rows again, which is what the runner reads the file again for when they were not kept.
TEST(JobOutputTest, TailIssuesAreNamedFromTheKeptNamesOrNotAtAllWhenTooMany) {
  const FileCheck job = ShopifyJob();
  const std::vector<std::vector<std::string>> rows = {
      {"gloves", "Gloves", "GL-G", "9", "a.jpg"},
      {"gloves", "", "GL-Y", "abc", ""},
      {"hat", "Hat", "H", "5", ""},
      {"hat", "", "H-2", "6", ""},
  };
  auto run = [&](size_t kept_bytes, bool* named) {
    OutputOptions options;
    options.kept_names_bytes = kept_bytes;
    JobOutput out(job, options);
    RowBatch batch;
    validator::v1::RowChunk chunk;
    for (size_t r = 0; r < rows.size(); ++r) {
      Add(out, batch, chunk, rows[r]);
      if (r % 2 == 1) {  // two rows a batch
        out.Seal(batch, &chunk);
        batch.Clear();
      }
    }
    validator::v1::IssueChunk tail;
    for (uint64_t row : {4, 2, 0}) {
      auto* issue = tail.add_issues();
      issue->set_row(row);
      issue->set_field("sku");
      issue->set_code("DUPLICATE_SKU");
    }
    out.ApplyTail(tail);
    *named = out.NameTailFromKept();
    out.FlushTail();
    return out.TakeWrite().issues;
  };
  bool named = false;
  const std::vector<std::string> issues = run(OutputOptions{}.kept_names_bytes, &named);
  EXPECT_TRUE(named);
  ASSERT_EQ(issues.size(), 3u);
  // What a fresh model says each row names.
  const JobOutput reference(job, {});
  auto model = reference.NewRowModel();
  std::vector<std::vector<std::string>> expected;
  for (const auto& row : rows) {
    std::vector<std::string_view> cells(row.begin(), row.end());
    model->Next(cells);
    expected.push_back({std::string(model->sku()), std::string(model->item_id()),
                        std::string(model->title())});
  }
  const auto at4 = nlohmann::json::parse(issues[0]);
  EXPECT_EQ(at4["sku"], expected[3][0]);
  EXPECT_EQ(at4["item_id"], expected[3][1]);
  EXPECT_EQ(at4["title"], expected[3][2]);
  EXPECT_EQ(at4["title"], "Hat");  // the variant's product's
  const auto at2 = nlohmann::json::parse(issues[1]);
  EXPECT_EQ(at2["sku"], expected[1][0]);
  EXPECT_EQ(at2["title"], expected[1][2]);
  const auto at0 = nlohmann::json::parse(issues[2]);  // about no row: no names
  EXPECT_EQ(at0["sku"], nullptr);
  EXPECT_EQ(at0["title"], nullptr);

  // Too small a budget keeps nothing, names nothing and says so: the file is read again.
  const std::vector<std::string> unnamed = run(8, &named);
  EXPECT_FALSE(named);
  ASSERT_EQ(unnamed.size(), 3u);
  EXPECT_EQ(nlohmann::json::parse(unnamed[0])["sku"], nullptr);
}

// A record with more fields than the header has columns gets ROW_FIELD_COUNT, an error first
// among its row's issues; one with fewer gets ROW_FIELDS_MISSING, a warning first among them
// (issue 31: its missing trailing cells are read as empty). The stats count them: a long clean
// row becomes a row in error, a long row with a warning too, a short clean row becomes a row
// with a warning, a row already in error stays one; the channels' readiness, warnings, top
// blockers (long rows only) and scores follow.
// The validator's channels come as names (a validator before BatchSpec.channel_bits) or as
// Issue.channel_bits (bit i: kPlatforms[i], not the job's order); both count the same.
void RaggedRowsCounted(bool as_bits) {
  FileCheck job = ShopifyJob();
  job.platform = "search_merchant,social_catalog";
  JobOutput out(job, {});
  EXPECT_TRUE(out.Spec().channel_bits());
  RowBatch batch;
  validator::v1::RowChunk chunk;
  auto add = [&](std::vector<std::string> row, uint64_t fields) {
    std::vector<std::string_view> cells(row.begin(), row.end());
    out.AddRow(cells, batch, &chunk, fields);
  };
  add({"a", "A", "A1", "9", ""}, 5);  // row 1: as the header
  add({"b", "B", "B1", "9", ""}, 6);  // row 2: one more field, otherwise clean
  add({"c", "C", "C1", "x", ""}, 4);  // row 3: one fewer, and an invalid price
  add({"d", "D", "D1", "9", ""}, 6);  // row 4: one more, and a warning
  add({"e", "E", "E1", "9", ""}, 0);  // row 5: no field count (not CSV)
  add({"f", "F", "F1", "", ""}, 3);   // row 6: two fewer, otherwise clean
  out.Seal(batch, &chunk);

  validator::v1::IssueChunk answer;
  auto* price = answer.add_issues();
  price->set_row(3);
  price->set_severity(validator::v1::SEVERITY_ERROR);
  price->set_field("price");
  price->set_code("INVALID_PRICE");
  if (as_bits) {
    price->set_channel_bits(1u << 3);  // kPlatforms[3]: search_merchant
  } else {
    price->add_channels("search_merchant");
  }
  auto* warn = answer.add_issues();
  warn->set_row(4);
  warn->set_severity(validator::v1::SEVERITY_WARNING);
  warn->set_field("price");
  warn->set_code("PRICE_REFORMATTED");
  out.Apply(answer, batch);
  JobWrite w = out.TakeWrite();
  std::vector<std::string> seen;
  for (const std::string& text : w.issues) {
    const auto j = nlohmann::json::parse(text);
    seen.push_back(std::to_string(j["issue_row"].get<int>()) + " " + j["code"].get<std::string>());
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"2 ROW_FIELD_COUNT", "3 ROW_FIELDS_MISSING",
                                            "3 INVALID_PRICE", "4 ROW_FIELD_COUNT",
                                            "4 PRICE_REFORMATTED", "6 ROW_FIELDS_MISSING"}));
  const auto first = nlohmann::json::parse(w.issues[0]);
  EXPECT_EQ(first["message"], "Row has 6 fields; the header has 5 columns");
  EXPECT_EQ(first["field"], "row");
  EXPECT_EQ(first["severity"], "error");
  EXPECT_EQ(first["sku"], "B1");
  EXPECT_EQ(first["channels"], nlohmann::json::parse(R"(["search_merchant","social_catalog"])"));
  const auto short_row = nlohmann::json::parse(w.issues[1]);
  EXPECT_EQ(short_row["message"],
            "Row has 4 fields; the header has 5 columns: the last one, 'Image Src', was read as "
            "empty");
  EXPECT_EQ(short_row["severity"], "warning");
  EXPECT_EQ(short_row["field"], "row");
  EXPECT_EQ(short_row["channels"], nlohmann::json::array());
  EXPECT_EQ(nlohmann::json::parse(w.issues[5])["message"],
            "Row has 3 fields; the header has 5 columns: the last 2, from 'Variant Price' on, "
            "were read as empty");
  EXPECT_EQ(nlohmann::json::parse(w.issues[2])["channels"],
            nlohmann::json::parse(R"(["search_merchant"])"));

  // What the validator counted: 6 rows, row 3 in error (search_merchant only), row 4 warned.
  validator::v1::Stats stats;
  stats.set_rows(6);
  stats.set_errors(1);
  stats.set_warnings(1);
  stats.set_rows_error(1);
  stats.set_rows_warning(1);
  for (const char* name : {"search_merchant", "social_catalog"}) {
    auto* ch = stats.add_channels();
    ch->set_platform(name);
    const bool merchant = std::string(name) == "search_merchant";
    ch->set_blocked(merchant ? 1 : 0);
    ch->set_ready(merchant ? 5 : 6);
    ch->set_rows_warning(1);
    if (merchant) {
      auto* b = ch->add_top_blockers();
      b->set_code("INVALID_PRICE");
      b->set_rows(1);
    }
  }
  out.AdjustStats(&stats);
  EXPECT_EQ(stats.errors(), 3u);        // + rows 2 and 4
  EXPECT_EQ(stats.warnings(), 3u);      // + rows 3 and 6
  EXPECT_EQ(stats.rows_error(), 3u);    // rows 2, 3, 4
  EXPECT_EQ(stats.rows_warning(), 1u);  // row 6 (row 4 is now in error, row 3 was already)
  const auto& merchant = stats.channels(0);
  EXPECT_EQ(merchant.blocked(), 3u);
  EXPECT_EQ(merchant.ready(), 3u);
  EXPECT_EQ(merchant.rows_warning(), 1u);  // row 6
  EXPECT_EQ(merchant.score(), 42u);        // (6 - 3 - 0.5) / 6
  ASSERT_EQ(merchant.top_blockers_size(), 2);
  EXPECT_EQ(merchant.top_blockers(0).code(), "ROW_FIELD_COUNT");
  EXPECT_EQ(merchant.top_blockers(0).rows(), 2u);
  const auto& meta = stats.channels(1);
  EXPECT_EQ(meta.blocked(), 2u);  // row 3's price error did not block it; rows 2 and 4 do
  EXPECT_EQ(meta.ready(), 4u);
  EXPECT_EQ(meta.rows_warning(), 2u);  // rows 3 and 6
  EXPECT_EQ(meta.score(), 50u);        // (6 - 2 - 1) / 6
  EXPECT_EQ(stats.score(), 42u);       // the first template's
}

// Only short rows: warnings, no blocker, and a row the validator warned about stays one row.
TEST(JobOutputTest, ShortRowsAloneAreWarnings) {
  JobOutput out(ShopifyJob(), {});
  RowBatch batch;
  validator::v1::RowChunk chunk;
  for (uint64_t fields : {4, 2}) {
    std::vector<std::string_view> cells = {"a", "A", "A1", "9", ""};
    out.AddRow(cells, batch, &chunk, fields);
  }
  out.Seal(batch, &chunk);
  validator::v1::IssueChunk answer;
  auto* warn = answer.add_issues();
  warn->set_row(2);
  warn->set_severity(validator::v1::SEVERITY_WARNING);
  warn->set_field("price");
  warn->set_code("PRICE_REFORMATTED");
  out.Apply(answer, batch);
  validator::v1::Stats stats;
  stats.set_rows(2);
  stats.set_warnings(1);
  stats.set_rows_warning(1);
  out.AdjustStats(&stats);
  EXPECT_EQ(stats.errors(), 0u);
  EXPECT_EQ(stats.warnings(), 3u);
  EXPECT_EQ(stats.rows_error(), 0u);
  EXPECT_EQ(stats.rows_warning(), 2u);
  EXPECT_EQ(stats.score(), 50u);
}

// PrestaShop's product list export names Position last but writes it only when the list is
// filtered by a category: a record without it is complete; one that stops earlier, or runs
// longer, is still ragged.
TEST(JobOutputTest, PrestaShopRowsWithoutPositionAreComplete) {
  FileCheck job;
  job.check_types = CheckTypeList::FromText("product");
  job.header = {"Product ID", "Image", "Name", "Reference", "Category", "Price (tax excl.)",
                "Price (tax incl.)", "Quantity", "Status", "Position"};
  job.mapping = {{"sku", "Reference"}, {"title", "Name"}, {"price", "Price (tax excl.)"}};
  job.source = "prestashop";
  JobOutput out(job, {});
  RowBatch batch;
  validator::v1::RowChunk chunk;
  for (uint64_t fields : {9, 10, 8, 11}) {
    std::vector<std::string_view> cells = {"1", "", "Mug", "M1", "Home", "9.000000",
                                           "10.8", "3", "0", ""};
    out.AddRow(cells, batch, &chunk, fields);
  }
  ASSERT_EQ(batch.ragged.size(), 2u);
  EXPECT_EQ(batch.ragged[0], (std::pair<uint32_t, uint64_t>{2, 8}));
  EXPECT_EQ(batch.ragged[1], (std::pair<uint32_t, uint64_t>{3, 11}));
  // Another source's header ending in Position: every short record is ragged.
  job.source = "generic";
  JobOutput generic(job, {});
  RowBatch generic_batch;
  validator::v1::RowChunk generic_chunk;
  std::vector<std::string_view> cells(10, "x");
  generic.AddRow(cells, generic_batch, &generic_chunk, 9);
  EXPECT_EQ(generic_batch.ragged.size(), 1u);
}

// A source's number format and import-folder file names survive the stored job (ConventionsJson)
// into the validator's spec; a convention without them is stored as before.
TEST(JobOutputTest, NumberFormatAndFileExtensionsReachTheSpec) {
  ingest::SourceConvention qty{.field = "stock_qty", .own_number_format = true};
  ingest::SourceConvention images{.field = "image_url", .list_separator = ","};
  images.file_extensions = {"jpg", "png"};
  ingest::SourceConvention plain{.field = "availability"};
  const std::string stored = ConventionsJson({qty, images, plain});
  EXPECT_EQ(nlohmann::json::parse(stored)[2],
            nlohmann::json::parse(
                R"({"field":"availability","list_separator":"","value_aliases":{}})"));
  FileCheck job = ShopifyJob();
  job.conventions = stored;
  const validator::v1::BatchSpec spec = JobOutput(job, {}).Spec();
  ASSERT_EQ(spec.conventions_size(), 3);
  EXPECT_TRUE(spec.conventions(0).own_number_format());
  EXPECT_EQ(spec.conventions(0).file_extensions_size(), 0);
  EXPECT_FALSE(spec.conventions(1).own_number_format());
  ASSERT_EQ(spec.conventions(1).file_extensions_size(), 2);
  EXPECT_EQ(spec.conventions(1).file_extensions(1), "png");
  EXPECT_EQ(spec.conventions(1).list_separator(), ",");
  EXPECT_FALSE(spec.conventions(2).own_number_format());
}

TEST(JobOutputTest, RaggedRowsGetTheirCodeAndTheStatsCountIt) { RaggedRowsCounted(false); }

TEST(JobOutputTest, RaggedRowsCountedWithChannelBits) { RaggedRowsCounted(true); }

// Magento's further image columns (ingest::AlsoCheckedColumns) go to the validator after the
// mapped fields' values, each with its column name and import-folder file names; a column the
// mapping takes is not sent twice, and another source sends none.
TEST(JobOutputTest, FurtherImageColumnsAreSentAfterTheFields) {
  FileCheck job;
  job.check_types = CheckTypeList::FromText("product");
  job.header = {"sku", "small_image", "base_image", "price", "thumbnail_image", "swatch_image"};
  job.mapping = {{"sku", "sku"}, {"price", "price"}, {"image_url", "base_image"}};
  job.source = "magento2";
  JobOutput out(job, {});
  const validator::v1::BatchSpec spec = out.Spec();
  ASSERT_EQ(spec.extra_columns_size(), 3);
  EXPECT_EQ(spec.extra_columns(0).field(), "image_url");
  EXPECT_EQ(spec.extra_columns(0).column(), "small_image");
  EXPECT_EQ(spec.extra_columns(1).column(), "thumbnail_image");
  EXPECT_EQ(spec.extra_columns(2).column(), "swatch_image");
  EXPECT_EQ(spec.extra_columns(2).list_separator(), "");
  EXPECT_EQ(std::vector<std::string>(spec.extra_columns(0).file_extensions().begin(),
                                     spec.extra_columns(0).file_extensions().end()),
            (std::vector<std::string>{"jpg", "jpeg", "gif", "png"}));
  // Magento's no_selection is no value in each; only swatch_image's file names are renamed by
  // its import rather than refused.
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(std::vector<std::string>(spec.extra_columns(k).empty_values().begin(),
                                       spec.extra_columns(k).empty_values().end()),
              std::vector<std::string>{"no_selection"})
        << k;
    EXPECT_EQ(spec.extra_columns(k).renamed_file_names(), k == 2) << k;
  }

  RowBatch batch;
  validator::v1::RowChunk chunk;
  Add(out, batch, chunk, {"S-1", "s.jpg", "b.jpg", "9.00", "t.jpg", "w.jpg"});
  Add(out, batch, chunk, {"S-2", "x y.jpg", "", "1.00"});  // short: its last two cells are empty
  out.Seal(batch, &chunk);
  const auto& packed = chunk.packed();
  EXPECT_EQ(packed.width(), 6u);
  EXPECT_EQ(packed.rows(), 2u);
  EXPECT_EQ(packed.data(), "S-19.00b.jpgs.jpgt.jpgw.jpgS-21.00x y.jpg");
  EXPECT_EQ(std::vector<uint32_t>(packed.lengths().begin(), packed.lengths().end()),
            (std::vector<uint32_t>{3, 4, 5, 5, 5, 5, 3, 4, 0, 7, 0, 0}));

  job.mapping.emplace_back("additional_image_link", "small_image");
  EXPECT_EQ(JobOutput(job, {}).Spec().extra_columns_size(), 2);
  EXPECT_EQ(JobOutput(ShopifyJob(), {}).Spec().extra_columns_size(), 0);
}

}  // namespace
// An HTML column (Shopify's Body (HTML)) survives the stored job into the validator's spec; a
// convention without it is stored as before.
TEST(JobOutputTest, HtmlColumnReachesTheSpec) {
  ingest::SourceConvention body{.field = "description", .html = true};
  ingest::SourceConvention plain{.field = "availability"};
  const std::string stored = ConventionsJson({body, plain});
  EXPECT_EQ(nlohmann::json::parse(stored)[0]["html"], true);
  EXPECT_FALSE(nlohmann::json::parse(stored)[1].contains("html"));
  FileCheck job = ShopifyJob();
  job.conventions = stored;
  const validator::v1::BatchSpec spec = JobOutput(job, {}).Spec();
  ASSERT_EQ(spec.conventions_size(), 2);
  EXPECT_TRUE(spec.conventions(0).html());
  EXPECT_FALSE(spec.conventions(1).html());
}

// A stock column the source may leave empty (WooCommerce's Stock) survives the stored job into
// the validator's spec; a convention without it is stored as before.
TEST(JobOutputTest, MayBeEmptyReachesTheSpec) {
  ingest::SourceConvention stock{.field = "stock_qty", .may_be_empty = true};
  ingest::SourceConvention plain{.field = "availability"};
  const std::string stored = ConventionsJson({stock, plain});
  EXPECT_EQ(nlohmann::json::parse(stored)[0]["may_be_empty"], true);
  EXPECT_FALSE(nlohmann::json::parse(stored)[1].contains("may_be_empty"));
  FileCheck job = ShopifyJob();
  job.conventions = stored;
  const validator::v1::BatchSpec spec = JobOutput(job, {}).Spec();
  ASSERT_EQ(spec.conventions_size(), 2);
  EXPECT_TRUE(spec.conventions(0).may_be_empty());
  EXPECT_FALSE(spec.conventions(1).may_be_empty());
}


// A zero the source writes for no value (Shopify's Variant Grams 0) survives the stored job into
// the validator's spec; a convention without it is stored as before.
TEST(JobOutputTest, ZeroIsEmptyReachesTheSpec) {
  ingest::SourceConvention grams{.field = "weight", .zero_is_empty = true};
  ingest::SourceConvention plain{.field = "availability"};
  const std::string stored = ConventionsJson({grams, plain});
  EXPECT_EQ(nlohmann::json::parse(stored)[0]["zero_is_empty"], true);
  EXPECT_FALSE(nlohmann::json::parse(stored)[1].contains("zero_is_empty"));
  FileCheck job = ShopifyJob();
  job.conventions = stored;
  const validator::v1::BatchSpec spec = JobOutput(job, {}).Spec();
  ASSERT_EQ(spec.conventions_size(), 2);
  EXPECT_TRUE(spec.conventions(0).zero_is_empty());
  EXPECT_FALSE(spec.conventions(1).zero_is_empty());
}

}  // namespace dq::report
