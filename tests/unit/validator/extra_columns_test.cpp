// Issue 31, point 4: further columns checked as one field's (BatchSpec::extras), Magento 2's
// small_image, thumbnail_image and swatch_image beside base_image (image_url): each non-empty
// value checked with the image rule, report-only, each issue naming its column in its message,
// with the column's cell as its original value and image_url as its field.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rule_case.h"

namespace dq::validator {
namespace {

using testing::MakeSpec;
using testing::Options;
using testing::TestReferenceData;

const std::vector<std::string> kMagentoExtensions = {"jpg", "jpeg", "gif", "png"};
const std::string kNotAFileName =
    "Neither an absolute http or https URL nor a file name the source's import takes from its "
    "import folder (ASCII letters, digits and - _ . / only, ending in .jpg, .jpeg, .gif, .png)";

// A Magento 2 products spec as its profile (libs/ingest/sources/magento2.json) makes it:
// sku, price and base_image (image_url, with its import-folder file names), and the further
// image columns small_image, thumbnail_image and swatch_image; every image column reads
// no_selection as empty, and swatch_image takes any file name (its import renames it).
BatchSpec MagentoSpec(const std::string& platform = "", const std::string& checks = "product",
                      std::vector<std::string> fields = {"sku", "price", "image_url"},
                      bool extras = true) {
  const bool image = std::find(fields.begin(), fields.end(), "image_url") != fields.end();
  BatchSpec spec = MakeSpec(fields, checks, platform,
                            image ? Options().FileNames("image_url", kMagentoExtensions)
                                  : Options());
  if (image) {
    auto& conv = spec.conventions[static_cast<size_t>(Field::kImageUrl)];
    EXPECT_TRUE(spec.SetEmptyValues(conv, {"no_selection"}, Field::kImageUrl).ok());
  }
  for (const char* column : {"small_image", "thumbnail_image", "swatch_image"}) {
    if (!extras) break;
    EXPECT_TRUE(spec.AddExtraColumn("image_url", column, "", kMagentoExtensions).ok());
    FieldConvention& conv = spec.extras.back().convention;
    EXPECT_TRUE(spec.SetEmptyValues(conv, {"no_selection"}, std::nullopt).ok());
    conv.renamed_file_names = std::string_view(column) == "swatch_image";
  }
  return spec;
}

// One row: values in the spec's fields order, then small_image, thumbnail_image, swatch_image.
std::vector<Issue> Check(const BatchSpec& spec, const std::vector<std::string>& row,
                       RowKind kind = RowKind::kProduct) {
  Session s(TestReferenceData(), spec);
  std::vector<Issue> issues;
  const std::vector<std::string_view> values(row.begin(), row.end());
  s.AddRow(values, issues, kind);
  s.Finish(issues);
  return issues;
}

// Each issue as "CODE field 'original': message", to compare lists and to show them.
std::vector<std::string> Described(const std::vector<Issue>& issues) {
  std::vector<std::string> out;
  for (const Issue& i : issues) {
    out.push_back(std::string(Def(i.code).code) + " " + std::string(FieldName(i.field)) + " '" +
                  i.original + "': " + std::string(i.Message()));
  }
  return out;
}

TEST(ExtraColumnsTest, AFileNameWithASpaceInSmallImageIsOneIssueNamingTheColumn) {
  const auto issues = Check(MagentoSpec(), {"SKU-1", "10.00", "base.jpg", "x y.jpg", "", ""});
  ASSERT_EQ(issues.size(), 1u) << ::testing::PrintToString(Described(issues));
  EXPECT_EQ(issues[0].code, IssueCode::INVALID_IMAGE_URL);
  EXPECT_EQ(issues[0].field, Field::kImageUrl);
  EXPECT_EQ(issues[0].original, "x y.jpg");
  EXPECT_FALSE(issues[0].fixed.has_value());
  EXPECT_EQ(issues[0].Message(), kNotAFileName + ": column small_image, 'x y.jpg'");
}

TEST(ExtraColumnsTest, ABrokenUrlAndAHostWithoutSchemeAreReportedInTheirColumns) {
  const auto issues = Check(MagentoSpec(), {"SKU-1", "10.00", "", "", "https://exa mple.com/t.jpg",
                                          " www.example.com/s.jpg "});
  ASSERT_EQ(issues.size(), 2u);
  EXPECT_EQ(issues[0].Message(), kNotAFileName + ": column thumbnail_image, "
                                                 "'https://exa mple.com/t.jpg'");
  EXPECT_EQ(issues[1].Message(),
            "A URL without its scheme: www.example.com is a host name, not a folder of the import "
            "folder; write the URL with https:// (or http://) before it: column swatch_image, "
            "'www.example.com/s.jpg'");
  EXPECT_EQ(issues[1].original, " www.example.com/s.jpg ");  // the cell as it is
}

// Magento writes no_selection for an image role that was cleared (Catalog's Gallery
// CreateHandler stores it; its export writes the stored value on the default row as on a store
// view's), and its import drops it from every image column (Import\Product::
// clearNoSelectionImages, magento/magento2#25026): no value, in base_image as in the further
// columns, whatever its case and surrounding spaces.
TEST(ExtraColumnsTest, ThePlaceholderNoSelectionIsNoIssueInAnyImageColumn) {
  EXPECT_EQ(Described(Check(MagentoSpec(), {"SKU-1", "10.00", "no_selection", "no_selection",
                                          " NO_SELECTION ", "No_Selection"})),
            std::vector<std::string>{});
  // Only the whole value: a file name holding it is a file name.
  EXPECT_TRUE(Check(MagentoSpec(), {"SKU-1", "10.00", "no_selection.jpg", "", "", ""}).empty());
  EXPECT_EQ(Check(MagentoSpec(), {"SKU-1", "10.00", "", "no_selection x", "", ""}).size(), 1u);
}

// In base_image (the mapped field) no_selection is an empty image: a template that requires an
// image reports it as it reports an empty cell, with no_selection as the original value.
TEST(ExtraColumnsTest, NoSelectionInBaseImageIsAnEmptyImageToATemplate) {
  const std::vector<std::string> fields = {"sku",  "title",        "description", "price",
                                           "image_url", "availability", "brand",  "link"};
  auto image_issues = [&](const std::string& image) {
    std::vector<std::string> out;
    for (const Issue& i : Check(MagentoSpec("search_merchant", "product", fields),
                                {"a1", "Acme Mug", "A mug.", "15.00 USD", image, "in stock",
                                 "Acme", "https://acme-mugs.com/p/a1", "", "", ""})) {
      if (i.field == Field::kImageUrl) {
        out.push_back(std::string(Def(i.code).code) + " '" + i.original + "' " +
                      std::string(i.Message()));
      }
    }
    return out;
  };
  const auto empty = image_issues("");
  ASSERT_EQ(empty.size(), 1u);
  EXPECT_EQ(image_issues("no_selection"),
            std::vector<std::string>{std::string(empty[0]).replace(empty[0].find("''"), 2,
                                                                   "'no_selection'")});
}

// Magento's import validates base_image, small_image and thumbnail_image before it uploads
// anything (its Media validator's PATH_REGEXP: letters, digits, _ - . / \), so a space there is
// refused ("Wrong URL/path used for attribute"); swatch_image it does not validate, and its
// uploader renames the file (File\Uploader::getCorrectFileName: "my image.jpg" becomes
// my_image.jpg). The name must still end in an image extension and stay in the import folder.
TEST(ExtraColumnsTest, SwatchImageTakesAnyFileNameItsImportRenames) {
  for (const char* v : {"my image.jpg", "café/mug (2).PNG", "m/a/x.jpeg"}) {
    EXPECT_EQ(Described(Check(MagentoSpec(), {"SKU-1", "10.00", "", "", "", v})),
              std::vector<std::string>{})
        << v;
  }
  const std::string renamed =
      "Neither an absolute http or https URL nor a file name in the source's import folder "
      "(ending in .jpg, .jpeg, .gif, .png)";
  for (const char* v : {"my image.txt", "../up/x.jpg", "a\tb.jpg"}) {
    const auto issues = Check(MagentoSpec(), {"SKU-1", "10.00", "", "", "", v});
    ASSERT_EQ(issues.size(), 1u) << v;
    EXPECT_EQ(issues[0].Message(), renamed + ": column swatch_image, '" + v + "'");
  }
  const auto small = Check(MagentoSpec(), {"SKU-1", "10.00", "my image.jpg", "my image.jpg",
                                           "my image.jpg", ""});
  EXPECT_EQ(small.size(), 3u) << ::testing::PrintToString(Described(small));
}

// A long cell is quoted by its first 80 bytes, cut between characters (review45: a 3,000-byte
// "//host" value gave a 3,134-byte message, naming the host whole and the cell whole).
TEST(ExtraColumnsTest, ALongCellIsQuotedByItsBeginningOnly) {
  const std::string host = "//" + std::string(3000, 'e') + ".example.com/x.jpg";
  const std::string cut = std::string(1000, 'a') + "\xc3\xa9.jpg";  // an e-acute at byte 1000
  for (const std::string& cell : {host, std::string(79, 'a') + "\xc3\xa9 y.jpg", cut}) {
    const auto issues = Check(MagentoSpec(), {"SKU-1", "10.00", "base.jpg", cell, "", ""});
    ASSERT_EQ(issues.size(), 1u) << ::testing::PrintToString(Described(issues));
    EXPECT_EQ(issues[0].original, cell);  // the cell itself stays whole
    const std::string message(issues[0].Message());
    EXPECT_LT(message.size(), 400u) << message;
    // Cut between characters: never a lead byte without its continuation.
    EXPECT_EQ(message.find("\xc3'"), std::string::npos) << message;
    EXPECT_NE(message.find(": column small_image, '"), std::string::npos) << message;
  }
}

TEST(ExtraColumnsTest, ValidValuesAndEmptyCellsGiveNoIssue) {
  for (const char* v : {"magento_small_image.jpg", "m/a/magento_image.PNG",
                        "https://cdn.example.com/s.jpg", "", "  "}) {
    EXPECT_TRUE(Check(MagentoSpec(), {"SKU-1", "10.00", "base.jpg", v, v, v}).empty()) << v;
  }
}

// One issue per column: the same bad value in base_image and small_image is two issues, not one
// merged (code, field) of the row; base_image's message names no column (its own field's).
TEST(ExtraColumnsTest, TheSameBadValueInBaseImageAndSmallImageIsOneIssueEach) {
  const auto issues =
      Check(MagentoSpec(), {"SKU-1", "10.00", "x y.jpg", "x y.jpg", "x y.jpg", ""});
  ASSERT_EQ(issues.size(), 3u);
  EXPECT_EQ(issues[0].Message(), kNotAFileName);
  EXPECT_EQ(issues[1].Message(), kNotAFileName + ": column small_image, 'x y.jpg'");
  EXPECT_EQ(issues[2].Message(), kNotAFileName + ": column thumbnail_image, 'x y.jpg'");
  for (const Issue& i : issues) {
    EXPECT_EQ(i.field, Field::kImageUrl);
    EXPECT_EQ(i.original, "x y.jpg");
  }
}

// The templates judge image_url's own column (PLATFORM_IMAGE_NOT_HTTPS) and never see a further
// column: there the product check's warning stays.
TEST(ExtraColumnsTest, HttpIsAWarningInAFurtherColumnWithOrWithoutATemplate) {
  for (const char* platform : {"", "search_merchant"}) {
    const auto issues = Check(MagentoSpec(platform), {"SKU-1", "10.00", "https://cdn.example.com/b.jpg",
                                                    "http://cdn.example.com/s.jpg", "", ""});
    std::vector<std::string> http;
    for (const Issue& i : issues) {
      if (i.code == IssueCode::IMAGE_URL_NOT_HTTPS) http.emplace_back(i.Message());
    }
    EXPECT_EQ(http, std::vector<std::string>{std::string(Def(IssueCode::IMAGE_URL_NOT_HTTPS).message) +
                                             ": column small_image, "
                                             "'http://cdn.example.com/s.jpg'"})
        << platform;
  }
}

// No channel's feed takes a further column: an error there blocks no channel (the row stays
// ready for search_merchant), while the same value in base_image's own column blocks it.
TEST(ExtraColumnsTest, AnErrorInAFurtherColumnBlocksNoChannel) {
  const std::vector<std::string> fields = {"sku",  "title",        "description", "price",
                                           "image_url", "availability", "brand",  "link"};
  const BatchSpec spec = MagentoSpec("search_merchant", "product", fields);
  Session s(TestReferenceData(), spec);
  std::vector<Issue> issues;
  auto row = [](const std::string& sku, const std::string& image, const std::string& small) {
    return std::vector<std::string>{sku, "Acme Mug", "A mug.", "15.00 USD", image, "in stock",
                                    "Acme", "https://acme-mugs.com/p/" + sku, small, "", ""};
  };
  const auto further = row("a1", "https://cdn.acme-mugs.com/1.jpg", "x y.jpg");
  const auto own = row("a2", "x y.jpg", "");
  for (const auto* r : {&further, &own}) {
    const std::vector<std::string_view> values(r->begin(), r->end());
    s.AddRow(values, issues, RowKind::kProduct);
  }
  s.Finish(issues);
  std::vector<std::string> invalid;  // "row channel-bits"
  for (const Issue& i : issues) {
    if (i.code == IssueCode::INVALID_IMAGE_URL) {
      invalid.push_back(std::to_string(i.row) + " " + std::to_string(i.channels));
    }
  }
  EXPECT_EQ(invalid, (std::vector<std::string>{
                         "1 0", "2 " + std::to_string(ChannelBit(Platform::kSearchMerchant))}))
      << ::testing::PrintToString(Described(issues));
  const Stats st = s.stats();
  ASSERT_EQ(st.channels.size(), 1u);
  EXPECT_EQ(st.channels[0].ready, 1u);    // row 1
  EXPECT_EQ(st.channels[0].blocked, 1u);  // row 2
  EXPECT_EQ(st.rows_error, 2u);           // both rows hold an error all the same
}

// A variant leaves its images to its product, as for image_url: an empty further column is never
// its fault (a template requires image_url, not these), a non-empty bad one is still reported; an
// image row (a Magento store view's) gets no issue at all.
TEST(ExtraColumnsTest, AVariantLeavesItsFurtherImagesToItsProduct) {
  for (const char* platform : {"", "search_merchant"}) {
    EXPECT_EQ(Described(Check(MagentoSpec(platform), {"SKU-2", "10.00", "", "", "", ""},
                            RowKind::kVariant)),
              Described(Check(MagentoSpec(platform, "product", {"sku", "price", "image_url"}, false),
                            {"SKU-2", "10.00", ""}, RowKind::kVariant)))
        << platform;
  }
  const auto bad = Check(MagentoSpec(), {"SKU-2", "10.00", "", "x y.jpg", "", ""}, RowKind::kVariant);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0].Message(), kNotAFileName + ": column small_image, 'x y.jpg'");
  EXPECT_TRUE(Check(MagentoSpec(), {"SKU-2", "", "", "x y.jpg", "x", "y"}, RowKind::kImage).empty());
}

TEST(ExtraColumnsTest, AListColumnIsCheckedItemByItem) {
  BatchSpec spec = MakeSpec({"sku", "price"}, "product", "");
  ASSERT_TRUE(spec.AddExtraColumn("additional_image_link", "more_images", ",", {"jpg"}).ok());
  const auto issues = Check(spec, {"SKU-1", "10.00", "a.jpg, x y.jpg ,https://cdn.example.com/c.jpg"});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].field, Field::kAdditionalImageLink);
  EXPECT_EQ(issues[0].original, "a.jpg, x y.jpg ,https://cdn.example.com/c.jpg");
  EXPECT_EQ(issues[0].Message(),
            "Neither an absolute http or https URL nor a file name the source's import takes from "
            "its import folder (ASCII letters, digits and - _ . / only, ending in .jpg): column "
            "more_images, item 2 of 3, 'x y.jpg'");
}

// Without base_image (image_url unmapped) the further columns are still checked; without the
// product check, which owns images, they are not; and a row may omit their trailing values.
TEST(ExtraColumnsTest, CheckedWithTheProductCheckWhetherOrNotImageUrlIsMapped) {
  const auto issues = Check(MagentoSpec("", "product", {"sku", "price"}), {"SKU-1", "10.00", "x"});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].Message(), kNotAFileName + ": column small_image, 'x'");
  EXPECT_TRUE(Check(MagentoSpec("", "inventory", {"sku", "stock_qty"}), {"SKU-1", "3", "x", "y", "z"})
                  .empty());
  EXPECT_TRUE(Check(MagentoSpec(), {"SKU-1", "10.00", "b.jpg"}).empty());
}

TEST(ExtraColumnsTest, AddExtraColumnRefusesWhatItCannotCheck) {
  BatchSpec spec = MakeSpec({"sku"}, "product", "");
  EXPECT_EQ(spec.AddExtraColumn("price", "Price 2", "", {}).message(),
            "extra_columns: field 'price' cannot be checked in a further column; only image_url, "
            "additional_image_link and phone can");
  EXPECT_EQ(spec.AddExtraColumn("picture", "x", "", {}).message(),
            "extra_columns: unknown standard field 'picture'");
  EXPECT_EQ(spec.AddExtraColumn("image_url", "", "", {}).message(),
            "extra_columns: a column of field 'image_url' has no name");
  EXPECT_EQ(spec.AddExtraColumn("image_url", "small_image", "", {".j pg"}).message(),
            "extra_columns: column 'small_image' gives the file extension '.j pg'; an extension "
            "is 1 to 10 ASCII letters and digits");
  ASSERT_TRUE(spec.AddExtraColumn("image_url", "small_image", "", {".JPG"}).ok());
  EXPECT_EQ(spec.extras[0].convention.file_extensions, std::vector<std::string>{"jpg"});
  EXPECT_EQ(spec.AddExtraColumn("additional_image_link", "small_image", "", {}).message(),
            "extra_columns: column 'small_image' is listed twice");
  for (size_t k = 1; k < BatchSpec::kMaxExtraColumns; ++k) {
    ASSERT_TRUE(spec.AddExtraColumn("image_url", "c" + std::to_string(k), "", {}).ok());
  }
  EXPECT_EQ(spec.AddExtraColumn("image_url", "one more", "", {}).message(),
            "extra_columns: more than 64 columns");
}

}  // namespace
}  // namespace dq::validator
