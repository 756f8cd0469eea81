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

}  // namespace
}  // namespace dq::report
