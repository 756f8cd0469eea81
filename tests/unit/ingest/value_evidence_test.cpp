#include "dq/ingest/value_evidence.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dq::ingest {
namespace {

std::string_view SeparatorOf(std::initializer_list<std::string_view> cells) {
  ListSeparatorEvidence e;  // its separator views a literal, which outlives it
  for (std::string_view c : cells) e.Add(c);
  return e.separator();
}

TEST(ListSeparatorEvidenceTest, PipeSeparatedUrlsAreAList) {
  // A public dataset's gallery (Amazon product dataset 2020's Image column), beside one-URL cells.
  EXPECT_EQ(SeparatorOf({"https://img.example/a.jpg|https://img.example/b.jpg",
                         "https://img.example/c.jpg", ""}),
            "|");
  EXPECT_EQ(SeparatorOf({" HTTP://img.example/a.jpg | https://img.example/b.jpg "}), "|");
}

TEST(ListSeparatorEvidenceTest, EachSeparatorIsTriedInTurn) {
  EXPECT_EQ(SeparatorOf({"https://a.example/1.png; https://a.example/2.png"}), ";");
  EXPECT_EQ(SeparatorOf({"https://a.example/1.png, https://a.example/2.png"}), ",");
  EXPECT_EQ(SeparatorOf({"https://a.example/1.png https://a.example/2.png"}), " ");
}

TEST(ListSeparatorEvidenceTest, OneCellThatHoldsTheSeparatorAndIsNoListRefutesIt) {
  // A comma inside one URL's query string: the column's commas are not separators.
  EXPECT_EQ(SeparatorOf({"https://a.example/1.png,https://a.example/2.png",
                         "https://cdn.example/i.jpg?w=100,h=100"}),
            "");
  // File names, not URLs (Magento's import folder): not a list of URLs.
  EXPECT_EQ(SeparatorOf({"a.jpg,b.jpg"}), "");
  // A pipe with one URL only is no list.
  EXPECT_EQ(SeparatorOf({"https://a.example/1.png|"}), "");
}

TEST(ListSeparatorEvidenceTest, OneBadItemDoesNotUnmakeAList) {
  EXPECT_EQ(SeparatorOf({"https://a.example/1.png|https://a.example/2.png|a.example/3.png"}), "|");
  // One odd cell in more than ten lists is tolerated; one in two is not.
  std::vector<std::string_view> cells(10, "https://a.example/1.png|https://a.example/2.png");
  ListSeparatorEvidence e;
  for (std::string_view c : cells) e.Add(c);
  e.Add("https://a.example/x|y.png");
  EXPECT_EQ(e.separator(), "|");
  e.Add("https://a.example/x|z.png");
  EXPECT_EQ(e.separator(), "");
}

TEST(ListSeparatorEvidenceTest, SingleUrlsAndJsonArraysAreNoEvidence) {
  EXPECT_EQ(SeparatorOf({"https://a.example/1.png", "http://a.example/2.png"}), "");
  // Flipkart's image cell: a JSON array, which the validator reads as a list by its own syntax.
  EXPECT_EQ(SeparatorOf({R"(["http://img.example/a.jpeg", "http://img.example/b.jpeg"])"}), "");
  EXPECT_EQ(SeparatorOf({}), "");
}

TEST(NamesWeightUnitTest, NumberThenUnitWord) {
  EXPECT_TRUE(NamesWeightUnit("10.7 pounds"));
  EXPECT_TRUE(NamesWeightUnit("12.8 ounces"));
  EXPECT_TRUE(NamesWeightUnit("2 kg"));
  EXPECT_TRUE(NamesWeightUnit("500g"));
  EXPECT_TRUE(NamesWeightUnit(" 1,5 lbs. "));
  EXPECT_FALSE(NamesWeightUnit("1.5"));
  EXPECT_FALSE(NamesWeightUnit("pounds"));
  EXPECT_FALSE(NamesWeightUnit("1.5 stone"));
  EXPECT_FALSE(NamesWeightUnit("4 pounds (View shipping rates)"));
}

TEST(ColumnEvidenceTest, ReadsTheMappedUrlAndWeightColumns) {
  const Mapping mapping = {{"image_url", "Image"}, {"weight", "Shipping Weight"},
                           {"additional_image_link", "More"}};
  const std::vector<std::string> header = {"Image", "More", "Shipping Weight", "Other"};
  ColumnEvidence e(mapping, header);
  const std::vector<std::vector<std::string_view>> rows = {
      {"https://i.example/a.jpg|https://i.example/b.jpg", "https://i.example/c.jpg",
       "10.7 pounds", "x|y"},
      {"https://i.example/d.jpg", "", "4 pounds", ""},
      {"", "", "", ""},
      {"https://i.example/e.jpg", "", "3", ""},
  };
  for (const auto& r : rows) e.Row(r);
  EXPECT_EQ(e.list_separators(), (Mapping{{"image_url", "|"}}));
  EXPECT_EQ(e.weight_unit_example(), "10.7 pounds");  // 2 of 3 weights name their unit
}

TEST(ColumnEvidenceTest, BareWeightsGiveNoExample) {
  const Mapping mapping = {{"weight", "Weight"}};
  const std::vector<std::string> header = {"Weight"};
  ColumnEvidence e(mapping, header);
  for (std::string_view w : {"1.5", "2 kg", "3"}) {
    const std::vector<std::string_view> row = {w};
    e.Row(row);
  }
  EXPECT_EQ(e.weight_unit_example(), "");  // one of three: not most
  EXPECT_TRUE(e.list_separators().empty());
}

// A column named twice: the job checks the last one's values (JobOutput, SourceScan's zero
// rows), so the evidence is read from the last one too.
TEST(ColumnEvidenceTest, AColumnNamedTwiceIsReadFromTheLastOne) {
  const Mapping mapping = {{"image_url", "Image"}, {"weight", "Weight"}};
  const std::vector<std::string> header = {"Image", "Weight", "Image", "Weight"};
  ColumnEvidence e(mapping, header);
  const std::vector<std::string_view> row = {"https://i.example/a.jpg", "3",
                                             "https://i.example/b.jpg|https://i.example/c.jpg",
                                             "3 pounds"};
  e.Row(row);
  EXPECT_EQ(e.list_separators(), (Mapping{{"image_url", "|"}}));
  EXPECT_EQ(e.weight_unit_example(), "3 pounds");
}

}  // namespace
}  // namespace dq::ingest
