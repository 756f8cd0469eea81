// The Meta pack (social_catalog), several templates at once (issue channels, merged messages,
// readiness per channel), the platform list, and the pure helpers the packs use (listing text,
// Google's taxonomy).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "dq/common/platform_list.h"
#include "listing_text.h"
#include "rule_case.h"
#include "taxonomy.h"
#include "worker_pool.h"

namespace dq::validator {
namespace {

using Row = std::vector<std::pair<std::string, std::string>>;

const Row kValid = {
    {"sku", "AC-MUG-350"},
    {"title", "Acme Ceramic Coffee Mug 350 ml, Blue"},
    {"description", "Stoneware mug with a glazed finish. Holds 350 ml."},
    {"price", "12.50"},
    {"currency", "USD"},
    {"link", "https://acme-mugs.com/p/ac-mug-350"},
    {"image_url", "https://cdn.acme-mugs.com/img/ac-mug-350.jpg"},
    {"availability", "in_stock"},
    {"brand", "Acme"},
    {"gtin", "4006381333931"},
    {"mpn", "AC-MUG-350"},
    {"condition", "new"},
};

Row With(std::vector<std::pair<std::string, std::string>> overrides) {
  Row row = kValid;
  for (const auto& [field, value] : overrides) {
    auto it = std::find_if(row.begin(), row.end(), [&](const auto& p) { return p.first == field; });
    if (it != row.end()) {
      it->second = value;
    } else {
      row.emplace_back(field, value);
    }
  }
  return row;
}

std::vector<Issue> RunRow(const Row& row, const std::string& platform, Stats* stats = nullptr) {
  std::vector<std::string> fields, values;
  for (const auto& [f, v] : row) fields.push_back(f), values.push_back(v);
  return testing::RunRows(fields, "product", platform, {values}, stats);
}

// "CODE@field" of each issue, sorted.
std::vector<std::string> Codes(const Row& row, const std::string& platform) {
  std::vector<std::string> got;
  for (const Issue& i : RunRow(row, platform)) {
    got.push_back(std::string(Def(i.code).code) + "@" + std::string(FieldName(i.field)));
  }
  std::sort(got.begin(), got.end());
  return got;
}

std::string Repeat(char c, size_t n, std::string prefix = "") { return prefix.append(n, c); }

struct MetaCase {
  std::string name;
  Row row;
  std::vector<std::string> expect;
};

// Meta's catalog field specification (developers.facebook.com/docs/marketing-api/catalog/
// reference), its best practices and its product title specifications.
const MetaCase kMetaCases[] = {
    {"valid", kValid, {}},
    // Meta's spelling is left as it is (no AVAILABILITY_NORMALIZED) when social_catalog is
    // selected.
    {"valid_spaced_availability", With({{"availability", "out of stock"}}), {}},
    {"valid_available_for_order", With({{"availability", "available for order"}}), {}},
    {"valid_age_group_teen", With({{"age_group", "teen"}}), {}},
    {"valid_html_free_description", With({{"description", "Holds 350 ml; 3 colours"}}), {}},
    {"id_101", With({{"sku", Repeat('A', 101)}}), {"PLATFORM_VALUE_TOO_LONG@sku"}},
    {"id_100", With({{"sku", Repeat('A', 100)}}), {}},
    {"title_201", With({{"title", Repeat('t', 201)}}), {"PLATFORM_TITLE_TOO_LONG@title"}},
    {"title_question_mark", With({{"title", "Acme Mug?"}}), {"PLATFORM_GIMMICKY_CHARACTERS@title"}},
    {"title_asterisk", With({{"title", "Acme *Mug*"}}), {"PLATFORM_GIMMICKY_CHARACTERS@title"}},
    {"title_sale", With({{"title", "Acme Mug Sale"}}), {"PLATFORM_PROMOTIONAL_TEXT@title"}},
    {"title_caps",
     With({{"title", "ACME COFFEE MUG BLUE"}}),
     {"PLATFORM_EXCESSIVE_CAPITALS@title"}},
    {"title_repeated_word_is_google_only", With({{"title", "Acme Mug Mug"}}), {}},
    {"description_9999", With({{"description", Repeat('d', 9999)}}), {}},
    {"description_10000",
     With({{"description", Repeat('d', 10000)}}),
     {"PLATFORM_VALUE_TOO_LONG@description"}},
    {"description_any_tag",
     With({{"description", "<p>Stoneware mug.</p>"}}),
     {"PLATFORM_DESCRIPTION_HTML@description"}},
    {"description_entity",
     With({{"description", "Mugs &amp; cups"}}),
     {"PLATFORM_DESCRIPTION_HTML@description"}},
    {"description_link",
     With({{"description", "See https://acme-mugs.com/care for care."}}),
     {"PLATFORM_LINK_IN_DESCRIPTION@description"}},
    {"description_promotion_is_google_only", With({{"description", "Free shipping today."}}), {}},
    {"condition_missing", With({{"condition", ""}}), {"PLATFORM_MISSING_FIELD@condition"}},
    {"link_missing", With({{"link", ""}}), {"PLATFORM_MISSING_FIELD@link"}},
    {"link_to_facebook",
     With({{"link", "https://www.facebook.com/acmemugs"}}),
     {"PLATFORM_INVALID_URL@link"}},
    {"image_webp",
     With({{"image_url", "https://cdn.acme-mugs.com/img/ac-mug-350.webp"}}),
     {"PLATFORM_IMAGE_FORMAT@image_url"}},
    // Neither dq's value nor Meta's: the product check says it, for every channel.
    {"availability_backorder",
     With({{"availability", "backorder"}}),
     {"INVALID_AVAILABILITY@availability"}},
    {"age_group_unknown", With({{"age_group", "baby"}}), {"PLATFORM_INVALID_VALUE@age_group"}},
    {"brand_101",
     With({{"brand", Repeat('b', 101)}}),
     {"BRAND_TOO_LONG@brand", "PLATFORM_VALUE_TOO_LONG@brand"}},
    {"brand_placeholder_is_google_only", With({{"brand", "Generic"}}), {}},
    {"no_identifiers_is_google_only", With({{"gtin", ""}, {"mpn", ""}}), {}},
    {"sale_not_lower",
     With({{"sale_price", "13.00 USD"}}),
     {"PLATFORM_SALE_PRICE_NOT_LOWER@sale_price"}},
    {"price_without_currency", With({{"currency", ""}}), {"PLATFORM_PRICE_CURRENCY@price"}},
    {"additional_images_separated_by_bars",
     With({{"additional_image_link",
            "https://cdn.acme-mugs.com/1.jpg|https://cdn.acme-mugs.com/2.png"}}),
     {}},
    // shipping_weight: "Include the unit of measurement (lb/oz/g/kg)" (Meta's catalog
    // template). Meta publishes no limit.
    {"valid_weight_kg", With({{"weight", "10 kg"}}), {}},
    {"valid_weight_without_space_in_capitals", With({{"weight", "2LB"}}), {}},
    {"valid_weight_heavy_no_limit", With({{"weight", "2000 kg"}}), {}},
    {"weight_zero_left_to_the_shipping_check", With({{"weight", "0 kg"}}), {}},
    {"weight_without_unit", With({{"weight", "300"}}), {"PLATFORM_INVALID_WEIGHT@weight"}},
    {"weight_unit_lbs", With({{"weight", "2 lbs"}}), {"PLATFORM_INVALID_WEIGHT@weight"}},
    {"weight_unit_stone", With({{"weight", "3 stone"}}), {"PLATFORM_INVALID_WEIGHT@weight"}},
    {"weight_negative", With({{"weight", "-1 kg"}}), {"PLATFORM_INVALID_WEIGHT@weight"}},
    {"weight_not_a_number", With({{"weight", "heavy"}}), {"PLATFORM_INVALID_WEIGHT@weight"}},
    {"weight_empty_not_required", With({{"weight", ""}}), {}},
    {"additional_images_2001_characters",
     With({{"additional_image_link", Repeat('a', 2001 - 26, "https://cdn.acme-mugs.com/")}}),
     {"PLATFORM_VALUE_TOO_LONG@additional_image_link"}},
};

class MetaPack : public ::testing::TestWithParam<MetaCase> {};
TEST_P(MetaPack, Case) {
  std::vector<std::string> want = GetParam().expect;
  std::sort(want.begin(), want.end());
  EXPECT_EQ(Codes(GetParam().row, "social_catalog"), want);
}
INSTANTIATE_TEST_SUITE_P(Meta, MetaPack, ::testing::ValuesIn(kMetaCases),
                         [](const auto& info) { return info.param.name; });

// --- several templates at once ---

// One shipping-weight issue for both channels that want a unit, its message naming them.
TEST(ChannelWeight, MessagesNameTheChannelsAndTheUnits) {
  auto messages = [](const std::string& weight, const std::string& platform) {
    std::vector<std::string> out;
    for (const Issue& i : RunRow(With({{"weight", weight}}), platform)) {
      if (i.code == IssueCode::PLATFORM_INVALID_WEIGHT) out.push_back(i.message);
    }
    return out;
  };
  EXPECT_EQ(messages("300", "search_merchant,social_catalog"),
            (std::vector<std::string>{
                "shipping weight 300 has no unit; search_merchant and social_catalog want a "
                "number and its unit (lb, oz, g or kg), such as 0.3 kg"}));
  // Without the shipping check selected, nothing rewrites a unit it knows: the message says
  // what it would write (WEIGHT_UNIT_NORMALIZED).
  EXPECT_EQ(messages("2 lbs", "social_catalog"),
            (std::vector<std::string>{
                "shipping weight unit 'lbs' is not one social_catalog takes: lb, oz, g or kg; "
                "the shipping check writes it 2 lb"}));
  EXPECT_EQ(messages("3 stone", "social_catalog"),
            (std::vector<std::string>{
                "shipping weight unit 'stone' is not one social_catalog takes: lb, oz, g or kg"}));
  EXPECT_EQ(messages("heavy", "social_catalog"),
            (std::vector<std::string>{"shipping weight 'heavy' is not a number and a unit; "
                                      "social_catalog wants a number and its unit (lb, oz, g "
                                      "or kg), such as 0.3 kg"}));
  EXPECT_EQ(messages("-1 kg", "social_catalog"),
            (std::vector<std::string>{"shipping weight -1 kg is negative"}));
  // Over Google's limit only: Meta publishes none.
  EXPECT_EQ(messages("1200 kg", "search_merchant,social_catalog"),
            (std::vector<std::string>{
                "shipping weight 1200 kg is over the limit of 1000 kg (search_merchant)"}));
  EXPECT_EQ(messages("300", "marketplace2"), std::vector<std::string>{});
}

// A bare weight in a column whose unit is certain (Shopify's "Variant Grams"), checked without
// the shipping check: still reported (the feed needs the unit), and the message says how to get
// it added.
TEST(ChannelWeight, ABareWeightOfACertainUnitSaysTheShippingCheckAddsIt) {
  const auto issues = testing::RunRows({"sku", "price", "weight"}, "product", "search_merchant",
                                       {{"SKU-1", "9.99 USD", "300"}}, nullptr,
                                       testing::CaseOptions{}.WeightUnit("g"));
  std::vector<std::string> messages;
  for (const Issue& i : issues) {
    if (i.code == IssueCode::PLATFORM_INVALID_WEIGHT) messages.push_back(i.message);
  }
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "shipping weight 300 has no unit; search_merchant wants a number and "
                          "its unit (lb, oz, g or kg), such as 0.3 kg; the column is in g: the "
                          "shipping check adds the unit"}));
}

std::vector<std::string> ChannelNamesOf(const Issue& i) {
  std::vector<std::string> out;
  for (size_t p = 1; p <= kPlatforms.size(); ++p) {
    if (i.channels & ChannelBit(static_cast<Platform>(p))) out.emplace_back(kPlatforms[p - 1]);
  }
  return out;
}

TEST(SeveralChannels, IssuesSayWhichChannelsTheyConcern) {
  // A description with HTML: social_catalog's rule only. A missing brand: both packs (one
  // issue, both channels). An invalid GTIN: a general rule, so every selected channel.
  const Row row =
      With({{"description", "<p>Stoneware mug.</p>"}, {"brand", ""}, {"gtin", "4006381333932"}});
  const auto issues = RunRow(row, "search_merchant,social_catalog");
  std::vector<std::string> got;
  for (const Issue& i : issues) {
    std::string line = std::string(Def(i.code).code) + " " + std::string(FieldName(i.field)) + ":";
    for (const std::string& c : ChannelNamesOf(i)) line += " " + c;
    got.push_back(line + " | " + std::string(i.Message()));
  }
  EXPECT_EQ(got, (std::vector<std::string>{
                     "INVALID_GTIN_CHECKSUM gtin: search_merchant social_catalog | GTIN check "
                     "digit is wrong",
                     "PLATFORM_MISSING_FIELD brand: search_merchant social_catalog | "
                     "search_merchant and social_catalog require brand",
                     "PLATFORM_DESCRIPTION_HTML description: social_catalog | Description contains "
                     "HTML '<p>'; social_catalog takes plain text"}));
}

// An empty field that a check type's rule reports only because templates require it (the
// shipping check's weight) blocks those templates' channels, not every selected one: Merchant
// Center and Meta take an item without a weight. Listed after a template that does not require
// it, it is still required (every selected template counts, not only the first).
TEST(SeveralChannels, AnEmptyFieldOnlyTemplatesRequireBlocksOnlyThem) {
  const Row row = With({{"weight", ""}, {"category", "Mugs"}});
  std::vector<std::string> fields, values;
  for (const auto& [f, v] : row) fields.push_back(f), values.push_back(v);
  for (const std::string platforms : {"search_merchant,marketplace1_tw,social_catalog",
                                      "marketplace1_tw,search_merchant,social_catalog"}) {
    const auto issues = testing::RunRows(fields, "product,shipping", platforms, {values});
    std::vector<std::string> got;
    for (const Issue& i : issues) {
      std::string line = std::string(Def(i.code).code) + " " + std::string(FieldName(i.field)) + ":";
      for (const std::string& c : ChannelNamesOf(i)) line += " " + c;
      got.push_back(line + " | " + std::string(i.Message()));
    }
    EXPECT_EQ(got, (std::vector<std::string>{"INVALID_WEIGHT weight: marketplace1_tw | Weight is empty"}))
        << platforms;
  }
  // A field a check type's core requires blocks every selected channel when empty.
  const auto sku = RunRow(With({{"sku", ""}, {"category", "Mugs"}, {"weight", "300 g"}}),
                          "search_merchant,marketplace1_tw");
  ASSERT_EQ(sku.size(), 1u);
  EXPECT_EQ(sku[0].code, IssueCode::MISSING_SKU);
  EXPECT_EQ(ChannelNamesOf(sku[0]),
            (std::vector<std::string>{"marketplace1_tw", "search_merchant"}));
}

// The inventory check's core requires a SKU too: with it alone, an empty SKU is its
// MISSING_SKU, blocking every selected channel (search_merchant requires an id,
// marketplace1_tw no SKU), and the templates do not report it again.
TEST(SeveralChannels, TheInventoryChecksMissingSkuBlocksEveryChannelOnce) {
  for (const std::string platforms : {"marketplace1_tw,search_merchant",
                                      "search_merchant,marketplace1_tw"}) {
    const auto issues =
        testing::RunRows({"sku", "stock_qty"}, "inventory", platforms, {{"", "5"}});
    std::vector<std::string> sku;
    for (const Issue& i : issues) {
      if (i.field != Field::kSku) continue;
      std::string line = std::string(Def(i.code).code) + ":";
      for (const std::string& c : ChannelNamesOf(i)) line += " " + c;
      sku.push_back(line);
    }
    EXPECT_EQ(sku, (std::vector<std::string>{"MISSING_SKU: marketplace1_tw search_merchant"}))
        << platforms;
  }
}

// A message that names its channels agrees with how many it names.
TEST(SeveralChannels, AMessageNamingChannelsAgreesWithTheirNumber) {
  auto message = [](const Row& row, const std::string& platforms, IssueCode code) {
    for (const Issue& i : RunRow(row, platforms)) {
      if (i.code == code) return std::string(i.Message());
    }
    return std::string("(none)");
  };
  const Row bare = With({{"price", "12.50"}, {"currency", ""}});
  EXPECT_EQ(message(bare, "search_merchant", IssueCode::PLATFORM_PRICE_CURRENCY),
            "price has no ISO 4217 currency; search_merchant wants the amount and the code, "
            "such as 15.00 USD, or a currency column");
  EXPECT_EQ(message(bare, "search_merchant,social_catalog", IssueCode::PLATFORM_PRICE_CURRENCY),
            "price has no ISO 4217 currency; search_merchant and social_catalog want the amount "
            "and the code, such as 15.00 USD, or a currency column");
  const Row facebook = With({{"link", "https://www.facebook.com/acme-mug"}});
  const std::string one = message(facebook, "social_catalog", IssueCode::PLATFORM_INVALID_URL);
  EXPECT_NE(one.find("social_catalog wants the product page"), std::string::npos) << one;
}

TEST(SeveralChannels, MessagesOfOneCodeFromSeveralTemplatesAreJoined) {
  const Row row = With({{"title", Repeat('t', 170)}, {"category", "Mugs"}, {"weight", "300 g"}});
  const auto issues = RunRow(row, "marketplace1_tw,search_merchant,social_catalog");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].code, IssueCode::PLATFORM_TITLE_TOO_LONG);
  EXPECT_EQ(issues[0].Message(),
            "Title has 170 characters; marketplace1_tw allows 60, search_merchant allows 150");
  EXPECT_EQ(ChannelNamesOf(issues[0]),
            (std::vector<std::string>{"marketplace1_tw", "search_merchant"}));
  EXPECT_EQ(issues[0].blocks(), issues[0].channels);
}

// Each template splits additional_image_link by its own separators and reports each URL it
// sees; a URL both report is named once in the joined message, not once per template.
TEST(SeveralChannels, AMessagePartTwoTemplatesReportIsJoinedOnce) {
  const Row row = With({{"condition", "new"},
                        {"additional_image_link",
                         "https://shop.test/a.jpg,https://cdn.example.com/b.jpg"}});
  const auto issues = RunRow(row, "search_merchant,social_catalog");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].code, IssueCode::PLATFORM_PLACEHOLDER_URL);
  EXPECT_EQ(issues[0].Message(),
            "additional_image_link 'shop.test': the host is a name reserved for examples and "
            "tests (RFC 2606), not a live site; additional_image_link 'cdn.example.com': the "
            "host is a name reserved for examples and tests (RFC 2606), not a live site");
  EXPECT_EQ(ChannelNamesOf(issues[0]),
            (std::vector<std::string>{"search_merchant", "social_catalog"}));
}

// A link quoted in a message is cut at 80 bytes where a character starts: the message stays
// well-formed UTF-8 (it was cut inside an é, which the gateway showed as U+FFFD).
TEST(MerchantCenterPack, AQuotedLinkIsCutBetweenCharacters) {
  std::string description = "See https://shop.com/";
  for (int i = 0; i < 40; ++i) description += "\xC3\xA9";  // é
  const auto issues = RunRow(With({{"description", description}}), "search_merchant");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].code, IssueCode::PLATFORM_LINK_IN_DESCRIPTION);
  const std::string link = "https://shop.com/";  // 17 bytes, then 31 whole é in the 80
  std::string want = "Description contains the link '" + link;
  for (int i = 0; i < 31; ++i) want += "\xC3\xA9";
  EXPECT_EQ(issues[0].Message(), want + "'");
}

TEST(SeveralChannels, WarningsBlockNoChannel) {
  const Row row = With({{"google_product_category", "999999"}});
  const auto issues = RunRow(row, "search_merchant,social_catalog");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].code, IssueCode::PLATFORM_UNKNOWN_GOOGLE_CATEGORY);
  EXPECT_EQ(ChannelNamesOf(issues[0]),
            (std::vector<std::string>{"search_merchant", "social_catalog"}));
  EXPECT_EQ(issues[0].blocks(), 0);
}

TEST(SeveralChannels, ReadinessPerChannel) {
  // Row 1: ready everywhere. Row 2: blocked on social_catalog (HTML) only. Row 3: blocked on
  // search_merchant by two codes (all caps and "sale") and on social_catalog by the same two.
  // Row 4: a general error (no price) blocks both. Row 5: a warning only (truncation: Google).
  // (One GTIN per item: the rows after the first have a brand and an MPN instead.)
  const std::vector<Row> rows = {
      kValid,
      With({{"sku", "B"}, {"gtin", ""}, {"description", "<b>Mug</b>"}}),
      With({{"sku", "C"}, {"gtin", ""}, {"title", "ACME MUG GREAT SALE"}}),
      With({{"sku", "D"}, {"gtin", ""}, {"price", ""}}),
      With({{"sku", "E"}, {"gtin", ""}, {"description", Repeat('d', 5001)}}),
  };
  std::vector<std::string> fields;
  for (const auto& [f, v] : kValid) fields.push_back(f);
  std::vector<std::vector<std::string>> values;
  for (const Row& r : rows) {
    values.emplace_back();
    for (const auto& [f, v] : r) values.back().push_back(v);
  }
  Stats stats;
  testing::RunRows(fields, "product", "search_merchant,social_catalog", values, &stats);
  ASSERT_EQ(stats.channels.size(), 2u);
  const ChannelStats& google = stats.channels[0];
  const ChannelStats& meta = stats.channels[1];
  EXPECT_EQ(google.platform, Platform::kSearchMerchant);
  EXPECT_EQ(google.ready, 3u);
  EXPECT_EQ(google.blocked, 2u);
  EXPECT_EQ(google.rows_warning, 1u);
  EXPECT_EQ(meta.platform, Platform::kSocialCatalog);
  EXPECT_EQ(meta.ready, 2u);
  EXPECT_EQ(meta.blocked, 3u);
  EXPECT_EQ(meta.rows_warning, 0u);
  auto names = [](const ChannelStats& c) {
    std::vector<std::string> out;
    for (const auto& b : c.top_blockers) {
      out.push_back(std::string(Def(b.code).code) + "=" + std::to_string(b.rows));
    }
    return out;
  };
  // Ties keep the catalogue's order.
  EXPECT_EQ(names(google),
            (std::vector<std::string>{"INVALID_PRICE=1", "PLATFORM_EXCESSIVE_CAPITALS=1",
                                      "PLATFORM_PROMOTIONAL_TEXT=1"}));
  EXPECT_EQ(names(meta), (std::vector<std::string>{
                             "INVALID_PRICE=1", "PLATFORM_EXCESSIVE_CAPITALS=1",
                             "PLATFORM_PROMOTIONAL_TEXT=1", "PLATFORM_DESCRIPTION_HTML=1"}));
  // Scores per channel; the top-level score is the first listed template's.
  EXPECT_EQ(google.score, HealthScore(5, 2, 1));
  EXPECT_EQ(meta.score, HealthScore(5, 3, 0));
  EXPECT_EQ(stats.score, google.score);
  EXPECT_EQ(stats.rows_error, 3u);  // rows with any error, as before
}

TEST(SeveralChannels, OneTemplateKeepsTheSpecificationsScore) {
  Stats stats;
  RunRow(With({{"description", "<b>Mug</b>"}}), "social_catalog", &stats);
  ASSERT_EQ(stats.channels.size(), 1u);
  EXPECT_EQ(stats.score, HealthScore(stats.rows, stats.rows_error, stats.rows_warning));
  EXPECT_EQ(stats.channels[0].score, stats.score);
  EXPECT_EQ(stats.channels[0].blocked, 1u);
}

TEST(SeveralChannels, TopBlockersCountRowsNotIssuesAndKeepFive) {
  // Seven codes on one row and one code on another: at most five, the most rows first.
  const Row bad = With({{"sku", Repeat('A', 101)},
                        {"title", "ACME MUG GREAT SALE!"},
                        {"description", "<b>VISIT WWW.ACME-MUGS.COM</b>"},
                        {"link", "https://fb.com/acme"},
                        {"image_url", "https://cdn.acme-mugs.com/a.gif"},
                        {"condition", "mint"}});
  const Row caps = With({{"sku", "B"}, {"title", "ACME COFFEE MUG"}});
  std::vector<std::string> fields;
  for (const auto& [f, v] : kValid) fields.push_back(f);
  std::vector<std::vector<std::string>> values;
  for (const Row& r : {bad, caps}) {
    values.emplace_back();
    for (const auto& [f, v] : r) values.back().push_back(v);
  }
  Stats stats;
  testing::RunRows(fields, "product", "social_catalog", values, &stats);
  ASSERT_EQ(stats.channels.size(), 1u);
  const auto& top = stats.channels[0].top_blockers;
  ASSERT_EQ(top.size(), 5u);
  EXPECT_EQ(top[0].code, IssueCode::PLATFORM_EXCESSIVE_CAPITALS);  // title and description
  EXPECT_EQ(top[0].rows, 2u);                                      // of row 1: counted once
  for (size_t i = 1; i < top.size(); ++i) EXPECT_EQ(top[i].rows, 1u);
}

TEST(SeveralChannels, AllIsEveryTemplateInOrder) {
  Stats stats;
  RunRow(kValid, "all", &stats);
  ASSERT_EQ(stats.channels.size(), kPlatforms.size());
  for (size_t i = 0; i < kPlatforms.size(); ++i) {
    EXPECT_EQ(PlatformName(stats.channels[i].platform), kPlatforms[i]);
  }
}

TEST(SeveralChannels, ChunksOnSeveralThreadsGiveTheOneThreadIssuesAndReadiness) {
  // Variants repeated across the file, shouting titles and bad descriptions: the duplicate
  // variants name their first row, and the channels and readiness are those of one thread.
  const std::vector<std::string> fields = {
      "sku",   "title",     "description",  "price",     "currency",
      "link",  "image_url", "availability", "brand",     "google_product_category",
      "color", "size",      "gender",       "age_group", "item_group_id"};
  std::mt19937_64 rng(7);
  auto pick = [&](size_t k) { return static_cast<size_t>(rng() % k); };
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < 6000; ++i) {
    const std::string n = std::to_string(i);
    rows.push_back(
        {std::string("S").append(n),
         pick(7) ? std::string("Acme Shirt ").append(n) : "ACME SHIRT GREAT SALE",
         pick(5) ? "Soft cotton." : "<p>Soft cotton.</p>", pick(40) ? "19.99" : "", "USD",
         std::string("https://acme.com/p/").append(n),
         std::string("https://cdn.acme.com/").append(n).append(pick(30) ? ".jpg" : ".html"),
         pick(9) ? "in_stock" : "backorder", "Acme", "212",
         std::vector<std::string>{"Red", "Blue", "Green"}[pick(3)],
         std::vector<std::string>{"S", "M", "L", "XL"}[pick(4)], "unisex", "adult",
         std::string("G").append(std::to_string(pick(300)))});
  }
  const std::string platforms = "social_catalog,search_merchant,marketplace2";
  auto describe = [](const Issue& i) {
    return std::to_string(i.row) + "|" + std::string(Def(i.code).code) + "|" +
           std::string(FieldName(i.field)) + "|" + std::to_string(i.channels) + "|" + i.message;
  };
  std::vector<Issue> serial;
  Session one(testing::TestReferenceData(), testing::MakeSpec(fields, "product", platforms));
  for (const auto& r : rows) {
    std::vector<std::string_view> values(r.begin(), r.end());
    one.AddRow(values, serial);
  }
  one.Finish(serial);
  WorkerPool pool(4);
  Session many(testing::TestReferenceData(), testing::MakeSpec(fields, "product", platforms), &pool);
  std::vector<Issue> parallel;
  for (size_t begin = 0; begin < rows.size(); begin += 700) {
    const size_t n = std::min<size_t>(700, rows.size() - begin);
    many.AddRows(
        n,
        [&rows, begin](size_t i, std::vector<std::string_view>& values) {
          values.assign(rows[begin + i].begin(), rows[begin + i].end());
        },
        parallel);
  }
  many.Finish(parallel);
  ASSERT_EQ(serial.size(), parallel.size());
  size_t variants = 0;
  for (size_t i = 0; i < serial.size(); ++i) {
    ASSERT_EQ(describe(serial[i]), describe(parallel[i]));
    variants += serial[i].code == IssueCode::PLATFORM_DUPLICATE_VARIANT;
  }
  EXPECT_GT(variants, 1000u);  // 300 groups x 12 variants for 6000 rows: many repeats
  const Stats a = one.stats(), b = many.stats();
  ASSERT_EQ(a.channels.size(), 3u);
  ASSERT_EQ(b.channels.size(), 3u);
  for (size_t c = 0; c < 3; ++c) {
    EXPECT_EQ(a.channels[c].ready, b.channels[c].ready);
    EXPECT_EQ(a.channels[c].blocked, b.channels[c].blocked);
    EXPECT_EQ(a.channels[c].score, b.channels[c].score);
    ASSERT_EQ(a.channels[c].top_blockers.size(), b.channels[c].top_blockers.size());
    for (size_t k = 0; k < a.channels[c].top_blockers.size(); ++k) {
      EXPECT_EQ(a.channels[c].top_blockers[k].code, b.channels[c].top_blockers[k].code);
      EXPECT_EQ(a.channels[c].top_blockers[k].rows, b.channels[c].top_blockers[k].rows);
    }
  }
  EXPECT_EQ(a.score, a.channels[0].score);  // social_catalog, listed first
  EXPECT_EQ(a.channels[2].ready, 0u);       // marketplace2 requires category and stock_qty
  EXPECT_GT(a.channels[1].ready, 0u);
}

// --- the platform list ---

TEST(PlatformList, ParsesOneSeveralAllAndNone) {
  EXPECT_EQ(*ParsePlatformList(""), (std::vector<size_t>{}));
  EXPECT_EQ(*ParsePlatformList("social_catalog"), (std::vector<size_t>{4}));
  EXPECT_EQ(*ParsePlatformList(" social_catalog , marketplace2"), (std::vector<size_t>{4, 1}));
  EXPECT_EQ(ParsePlatformList("all")->size(), kPlatforms.size());
}

TEST(PlatformList, NamesWhatIsWrong) {
  EXPECT_EQ(ParsePlatformList("search_merchant,shopee").status().message(),
            "unknown platform 'shopee'");
  EXPECT_EQ(ParsePlatformList("marketplace2,marketplace2").status().message(),
            "platform 'marketplace2' is listed twice");
  EXPECT_EQ(ParsePlatformList("marketplace2,,marketplace3").status().message(),
            "platform list has an empty item");
  EXPECT_EQ(ParsePlatformList("all,marketplace2").status().message(),
            "'all' cannot be combined with other platforms");
  EXPECT_EQ(ParsePlatformList("x").status().code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(BatchSpec::Make({}, {}, "marketplace2,nope").status().message(),
            "unknown platform 'nope'");
}

// --- listing text ---

TEST(ListingText, Capitals) {
  EXPECT_TRUE(listing::ExcessiveCapitals("BEST PRICE!!! FREE SHIPPING"));
  EXPECT_TRUE(listing::ExcessiveCapitals("SAMSUNG GALAXY S23 ULTRA 256GB"));
  EXPECT_FALSE(listing::ExcessiveCapitals("USB-C HDMI Adapter"));
  EXPECT_FALSE(listing::ExcessiveCapitals("NIKE AIR MAX 90"));  // one word of 4+ letters
  EXPECT_FALSE(listing::ExcessiveCapitals("IKEA KALLAX Shelf Insert"));
  EXPECT_TRUE(listing::ExcessiveCapitals("\xC3\x89T\xC3\x89 ROUGE FONC\xC3\x89"));  // ÉTÉ ROUGE
  EXPECT_FALSE(listing::ExcessiveCapitals(""));
}

TEST(ListingText, PromotionalPhrases) {
  EXPECT_EQ(listing::PromotionalPhrase("Acme Mug - FREE Shipping", true), "FREE Shipping");
  EXPECT_EQ(listing::PromotionalPhrase("Acme Mug 20% off", true), "% off");
  EXPECT_EQ(listing::PromotionalPhrase("Acme Mug \xE2\x82\xAC"
                                       "12,50",
                                       true),
            "\xE2\x82\xAC"
            "12,50");
  EXPECT_EQ(listing::PromotionalPhrase("Acme Sale Mug", true), "Sale");
  EXPECT_EQ(listing::PromotionalPhrase("Acme Sale Mug", false), "");  // "sale": titles only
  EXPECT_EQ(listing::PromotionalPhrase("Not for resale; wholesale only", true), "");
  EXPECT_EQ(listing::PromotionalPhrase("Ke$ha poster", true), "");
}

TEST(ListingText, Gimmicks) {
  using listing::Gimmicks;
  EXPECT_EQ(Gimmicks("Mug!", 0xFF).first, "!");
  EXPECT_EQ(Gimmicks("Mug $$ deal", listing::kRepeatedSymbol).first, "$$");
  EXPECT_EQ(Gimmicks("Mug \xE2\x98\x85", listing::kDecorative).first, "\xE2\x98\x85");  // ★
  EXPECT_EQ(Gimmicks("Mug \xE2\x84\xA2 - 350 ml...", 0xFF).kinds, 0);  // ™, a dash, an ellipsis
  EXPECT_EQ(Gimmicks("What? Mug", listing::kExclamation).first, "");
}

TEST(ListingText, RepeatedWords) {
  EXPECT_EQ(listing::RepeatedWord("Shoes Shoes Running"), "Shoes");
  EXPECT_EQ(listing::RepeatedWord("Mug mug cup"), "Mug");
  EXPECT_EQ(listing::RepeatedWord("Red Mug, Blue Mug, Green Mug"), "Mug");
  EXPECT_EQ(listing::RepeatedWord("Salt and Pepper and Oil and Vinegar"), "");
  EXPECT_EQ(listing::RepeatedWord("Pack 2 Pack"), "");  // not in a row, twice only
}

TEST(ListingText, Html) {
  EXPECT_EQ(listing::FindHtml("<em>Mug</em>").first_tag, "<em>");
  EXPECT_EQ(listing::FindHtml("<em>Mug</em>").unsafe, "");
  EXPECT_EQ(listing::FindHtml("<p>x</p><a href=\"/y\">y</a>").unsafe, "<a href=\"/y\">");
  EXPECT_EQ(listing::FindHtml("a<STYLE>b").unsafe, "<STYLE>");
  EXPECT_EQ(listing::FindHtml("Fish &amp; chips").first_entity, "&amp;");
  EXPECT_EQ(listing::FindHtml("&#39; &#x27;").first_entity, "&#39;");
  EXPECT_EQ(listing::FindHtml("I <3 mugs & 2 < 3 > 1").first_tag, "");
  EXPECT_EQ(listing::FindHtml("I <3 mugs & 2 < 3 > 1").first_entity, "");
}

TEST(ListingText, Links) {
  EXPECT_EQ(listing::FindLink("See www.acme.com now"), "www.acme.com");
  EXPECT_EQ(listing::FindLink("at HTTPS://acme.com/x."), "HTTPS://acme.com/x.");
  EXPECT_EQ(listing::FindLink("awww.nope and http:// alone"), "");
}

TEST(ListingText, FileTypes) {
  using listing::FileKind;
  EXPECT_EQ(listing::FileTypeOf("https://a.com/p/mug.JPG?w=400").kind, FileKind::kImage);
  EXPECT_EQ(listing::FileTypeOf("https://a.com/p/mug.html").kind, FileKind::kPage);
  EXPECT_EQ(listing::FileTypeOf("https://a.com/p/mug.svg").kind, FileKind::kOtherImage);
  EXPECT_EQ(listing::FileTypeOf("https://a.com/GetImage.ashx?Path=x.jpg").kind, FileKind::kScript);
  EXPECT_EQ(listing::FileTypeOf("https://a.com/img/12345").kind, FileKind::kNoExtension);
  EXPECT_EQ(listing::FileTypeOf("https://a.com/v1.2").kind, FileKind::kNoExtension);
  EXPECT_EQ(listing::FileTypeOf("https://a.com").kind, FileKind::kNoExtension);
  EXPECT_EQ(listing::FileTypeOf("https://a.com/p/mug.html").extension, "html");
}

TEST(ListingText, PlaceholderHostsAndNames) {
  EXPECT_NE(listing::PlaceholderHost("http://localhost/x.jpg"), nullptr);
  EXPECT_NE(listing::PlaceholderHost("https://cdn.example.com/x.jpg"), nullptr);
  EXPECT_NE(listing::PlaceholderHost("https://shop.test/x"), nullptr);
  EXPECT_NE(listing::PlaceholderHost("http://192.168.1.20:8080/x"), nullptr);
  EXPECT_NE(listing::PlaceholderHost("http://user@127.0.0.1/x"), nullptr);
  EXPECT_EQ(listing::PlaceholderHost("https://example.de/x"), nullptr);  // a real domain
  EXPECT_EQ(listing::PlaceholderHost("https://myexample.com/x"), nullptr);
  EXPECT_EQ(listing::PlaceholderHost("https://8.8.8.8/x"), nullptr);
  EXPECT_TRUE(listing::PlaceholderImageName("https://a.com/img/No_Image.png"));
  EXPECT_TRUE(listing::PlaceholderImageName("https://a.com/placeholder.jpg?v=2"));
  EXPECT_FALSE(listing::PlaceholderImageName("https://a.com/img/mug-placeholder-holder.jpg"));
}

// --- Google's taxonomy ---

TEST(GoogleTaxonomy, FindsIdsAndPathsAndKnowsAncestors) {
  const GoogleTaxonomy& t = testing::TestReferenceData().taxonomy();
  EXPECT_EQ(t.version(), "excerpt for dq's tests");
  EXPECT_EQ(t.size(), 9u);  // every line but the version's
  EXPECT_EQ(t.Find("1604"), 1604u);
  EXPECT_EQ(t.Find("Apparel & Accessories > Clothing > Shirts & Tops"), 212u);
  EXPECT_EQ(t.Find(" apparel & accessories>clothing >  shirts & tops "), 212u);
  EXPECT_FALSE(t.Find("99999999"));
  EXPECT_FALSE(t.Find("Apparel"));
  EXPECT_FALSE(t.Find(std::string(5000, 'x')));
  EXPECT_TRUE(t.IsUnder(212, GoogleTaxonomy::kClothing));
  EXPECT_TRUE(t.IsUnder(212, GoogleTaxonomy::kApparelAndAccessories));
  EXPECT_FALSE(t.IsUnder(2169, GoogleTaxonomy::kApparelAndAccessories));
}

// A build without Google's file (the repository does not ship it) calls no category unknown and
// asks no apparel attribute: it cannot tell, and a guess would be a false alarm.
TEST(GoogleTaxonomy, WithoutTheFileNoCategoryIsCalledUnknown) {
  const auto none = ReferenceData::WithTaxonomy("");
  EXPECT_TRUE(none->taxonomy().empty());
  const std::vector<std::string> fields = {"sku", "title", "google_product_category"};
  for (const char* category : {"999999", "212", "Home > Mugs"}) {
    Session s(*none, testing::MakeSpec(fields, "", "search_merchant"));
    std::vector<Issue> issues;
    std::vector<std::string_view> row = {"S1", "Acme Shirt", category};
    s.AddRow(row, issues);
    s.Finish(issues);
    for (const Issue& i : issues) {
      EXPECT_NE(i.code, IssueCode::PLATFORM_UNKNOWN_GOOGLE_CATEGORY) << category;
      EXPECT_FALSE(i.code == IssueCode::PLATFORM_MISSING_FIELD && i.field == Field::kColor)
          << category;
    }
  }
  // The same rows with the excerpt: 999999 is unknown, and 212 (a shirt) needs a colour.
  Session s(testing::TestReferenceData(), testing::MakeSpec(fields, "", "search_merchant"));
  std::vector<Issue> issues;
  std::vector<std::string_view> unknown = {"S1", "Acme Shirt", "999999"};
  std::vector<std::string_view> shirt = {"S2", "Acme Shirt", "212"};
  s.AddRow(unknown, issues);
  s.AddRow(shirt, issues);
  s.Finish(issues);
  EXPECT_TRUE(std::any_of(issues.begin(), issues.end(), [](const Issue& i) {
    return i.row == 1 && i.code == IssueCode::PLATFORM_UNKNOWN_GOOGLE_CATEGORY;
  }));
  EXPECT_TRUE(std::any_of(issues.begin(), issues.end(), [](const Issue& i) {
    return i.row == 2 && i.code == IssueCode::PLATFORM_MISSING_FIELD && i.field == Field::kColor;
  }));
}

TEST(GoogleTaxonomy, ParsesItsFormat) {
  const GoogleTaxonomy t(
      "# Google_Product_Taxonomy_Version: 2030-01-01\r\n1 - A\r\n2 - A > B\n3 - A > B > C\n"
      "not a line\n4 - Z > Y\n");
  EXPECT_EQ(t.version(), "2030-01-01");
  EXPECT_EQ(t.size(), 4u);
  EXPECT_TRUE(t.IsUnder(3, 1));
  EXPECT_FALSE(t.IsUnder(4, 1));  // its parent is not listed: no parent
  EXPECT_EQ(t.Find("a > b > c"), 3u);
}

}  // namespace
}  // namespace dq::validator

namespace dq::validator {
namespace {

// The platform URL checks read a JSON array of image URLs item by item, and name the item.
TEST(ChannelRules, JsonArrayOfImageUrlsIsCheckedItemByItem) {
  const Row row = With({{"image_url",
                         R"(["https://cdn.acme-mugs.com/1.jpg","https://cdn.acme-mugs.com/2.svg"])"}});
  std::vector<std::string> messages;
  for (const Issue& i : RunRow(row, "search_merchant")) {
    messages.push_back(std::string(Def(i.code).code) + ": " + i.message);
  }
  ASSERT_EQ(messages.size(), 1u) << ::testing::PrintToString(messages);
  EXPECT_EQ(messages[0].rfind("PLATFORM_IMAGE_FORMAT: image_url item 2 of 2 ends in .svg; ", 0), 0u)
      << messages[0];
}

// additional_image_link from a JSON source: the array's items, not its text split at commas.
TEST(ChannelRules, AdditionalImagesInAJsonArrayAreCheckedItemByItem) {
  const std::vector<std::string> base = Codes(kValid, "search_merchant");
  auto with_base = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), base.begin(), base.end());
    std::sort(extra.begin(), extra.end());
    return extra;
  };
  EXPECT_EQ(Codes(With({{"additional_image_link",
                         R"(["https://cdn.acme-mugs.com/2.jpg","https://cdn.acme-mugs.com/3.jpg"])"}}),
                  "search_merchant"),
            base);
  EXPECT_EQ(Codes(With({{"additional_image_link",
                         R"(["https://cdn.acme-mugs.com/2.jpg","not a url"])"}}),
                  "search_merchant"),
            with_base({"PLATFORM_INVALID_URL@additional_image_link"}));
  std::string eleven = "[";
  for (int k = 0; k < 11; ++k) {
    eleven += (k ? ",\"" : "\"") + std::string("https://cdn.acme-mugs.com/") +
              std::to_string(k) + ".jpg\"";
  }
  eleven += "]";
  EXPECT_EQ(Codes(With({{"additional_image_link", eleven}}), "search_merchant"),
            with_base({"PLATFORM_VALUE_TOO_LONG@additional_image_link"}));
}

TEST(ChannelRules, HttpItemOfAJsonArrayIsNamedForTheTemplatesThatRequireHttps) {
  const Row row = With({{"image_url",
                         R"(["https://cdn.acme-mugs.com/1.jpg","http://cdn.acme-mugs.com/2.jpg"])"}});
  std::vector<std::string> messages;
  for (const Issue& i : RunRow(row, "marketplace2,search_merchant")) {
    if (i.code == IssueCode::PLATFORM_IMAGE_NOT_HTTPS) messages.push_back(i.message);
  }
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0],
            "item 2 of 2, 'http://cdn.acme-mugs.com/2.jpg', uses http; marketplace2 requires https");
  // Merchant Center alone: http is accepted.
  for (const Issue& i : RunRow(row, "search_merchant")) {
    EXPECT_NE(i.code, IssueCode::PLATFORM_IMAGE_NOT_HTTPS);
  }
}

}  // namespace
}  // namespace dq::validator
