// Good data must produce no issues: rows made by gen_catalog.py with --defects 0, embedded here
// so the test generates nothing and reads no files. And each of gen_catalog's defects is caught.
#include <string>
#include <string_view>
#include <vector>

#include "rule_case.h"

namespace dq::validator {
namespace {

// gen_catalog.py products --rows 8 --defects 0 --seed 7, then rows of --seed 3 with every VAT
// country, compare-at prices and expiry dates (SKUs renumbered to stay unique).
constexpr std::string_view kProducts =
    R"csv(Variant SKU,Title,Body (HTML),Variant Price,Variant Compare At Price,Cost per item,Currency,Availability,Image Src,Vendor,Type,Variant Barcode,Variant Grams,HS Code,Country of Origin,Supplier VAT,Variant Inventory Qty,Reorder Point,Best Before,Location
SKU-00000001,Orbit Premium Sneakers,"<p>Orbit Premium Sneakers. Made with care, ships in 2 days.</p>",261.42,358.28,87.89,JPY,in_stock,https://cdn.example.com/img/1.jpg,Orbit,Home & Garden,4166131860916,1848,6109100010,IT,IT00743110157,590,42,,WH-TPE-1
SKU-00000002,Kirei Vintage Sneakers,"<p>Kirei Vintage Sneakers. Made with care, ships in 2 days.</p>",60.27,,21.63,SGD,in_stock,https://cdn.example.com/img/2.jpg,Kirei,Home & Garden,4993518190935,4086,640411,TW,,795,25,,WH-FRA-6
SKU-00000003,Kirei Lightweight T-Shirt,"<p>Kirei Lightweight T-Shirt. Made with care, ships in 2 days.</p>",231.05,,129.99,GBP,in_stock,https://cdn.example.com/img/3.jpg,Kirei,Home & Garden,4862527601896,2590,851830,JP,,711,27,,WH-NYC-8
SKU-00000004,Nordwind Vintage Notebook,"<p>Nordwind Vintage Notebook. Made with care, ships in 2 days.</p>",279.73,,93.01,SGD,preorder,https://cdn.example.com/img/4.jpg,Nordwind,Electronics,4650752917031,2374,940520,SG,,756,20,,WH-FRA-2
SKU-00000005,Hanami Vintage Backpack,"<p>Hanami Vintage Backpack. Made with care, ships in 2 days.</p>",328.25,,240.28,GBP,preorder,https://cdn.example.com/img/5.jpg,Hanami,Apparel,4212233079241,2329,6109100010,TW,,149,31,,WH-NYC-6
SKU-00000006,Acme Deluxe Wallet,"<p>Acme Deluxe Wallet. Made with care, ships in 2 days.</p>",312.65,396.89,230.50,USD,preorder,https://cdn.example.com/img/6.jpg,Acme,Beauty,4603137215901,858,6109100010,IT,IT00743110157,580,14,,WH-FRA-1
SKU-00000007,Solace Compact Backpack,"<p>Solace Compact Backpack. Made with care, ships in 2 days.</p>",254.86,284.82,198.21,TWD,preorder,https://cdn.example.com/img/7.jpg,Solace,Sports,4741215472805,1701,851830,ES,ESA28017895,150,49,,WH-TPE-9
SKU-00000008,Nordwind Vintage Headphones,"<p>Nordwind Vintage Headphones. Made with care, ships in 2 days.</p>",148.58,,56.98,JPY,out_of_stock,https://cdn.example.com/img/8.jpg,Nordwind,Beauty,4393363387502,248,392410,GB,GB980780684,483,21,2029-08-26,WH-NYC-6
SKU-90000000,Solace Premium Water Bottle,"<p>Solace Premium Water Bottle. Made with care, ships in 2 days.</p>",366.63,387.62,196.89,TWD,out_of_stock,https://cdn.example.com/img/1.jpg,Solace,Stationery,4337887623289,3214,6109100010,ES,ESA28017895,687,9,2027-05-25,WH-TPE-5
SKU-90000001,Hanami Compact Sneakers,"<p>Hanami Compact Sneakers. Made with care, ships in 2 days.</p>",292.07,,171.87,USD,in_stock,https://cdn.example.com/img/2.jpg,Hanami,Apparel,4734646869580,4812,640411,FR,FR40303265045,598,19,,WH-NYC-1
SKU-90000002,Kirei Eco Headphones,"<p>Kirei Eco Headphones. Made with care, ships in 2 days.</p>",362.16,,211.70,SGD,out_of_stock,https://cdn.example.com/img/3.jpg,Kirei,Electronics,4117715162049,3519,640411,SG,,893,12,2027-07-23,WH-NYC-6
SKU-90000003,Solace Vintage Sneakers,"<p>Solace Vintage Sneakers. Made with care, ships in 2 days.</p>",391.19,580.38,219.29,JPY,out_of_stock,https://cdn.example.com/img/5.jpg,Solace,Home & Garden,4699205755943,4030,6109100010,IT,IT00743110157,603,8,,WH-TPE-6
SKU-90000004,Tamarind Eco Yoga Mat,"<p>Tamarind Eco Yoga Mat. Made with care, ships in 2 days.</p>",78.86,82.95,36.62,SGD,preorder,https://cdn.example.com/img/11.jpg,Tamarind,Home & Garden,4920579860965,454,851830,DE,DE136695976,642,36,,WH-FRA-7
SKU-90000005,Verdant Lightweight Notebook,"<p>Verdant Lightweight Notebook. Made with care, ships in 2 days.</p>",233.47,,175.31,TWD,in_stock,https://cdn.example.com/img/16.jpg,Verdant,Sports,4073313433427,1553,6109100010,NL,NL004495445B01,261,15,,WH-FRA-3
SKU-90000006,Acme Organic Teapot,"<p>Acme Organic Teapot. Made with care, ships in 2 days.</p>",397.67,,317.71,EUR,preorder,https://cdn.example.com/img/23.jpg,Acme,Beauty,4375106132679,3897,420292,GB,GB980780684,550,32,,WH-FRA-5
)csv";

// gen_catalog.py customers --defects 0, seeds 7 and 3 (with the Ofcom drama range +44 20 7946).
constexpr std::string_view kCustomers = R"csv(Email,Phone,Country Code
li.1@example.de,+33 6 12 34 50 09,FR
tom.2@shop.fr,+1 650-253-0640,US
yuki.3@example.de,+1 650-253-0301,US
ana.4@shop.fr,+44 20 7946 0281,GB
ana.5@shop.fr,+886 2 2345 6509,TW
ana.6@shop.fr,+49 30 123456372,DE
ana.7@shop.fr,+886 2 2345 6714,TW
ana.8@shop.fr,+49 30 123456819,DE
sam.1@shop.fr,+49 30 123456472,DE
mia.2@shop.fr,+44 20 7946 0771,GB
tom.3@shop.fr,+44 20 7946 0243,GB
sam.4@shop.fr,+44 20 7946 0507,GB
li.5@proton.me,+49 30 123456662,DE
mia.6@gmail.com,+1 650-253-0972,US
tom.7@gmail.com,+1 650-253-0604,US
mia.8@example.de,+44 20 7946 0936,GB
li.9@yahoo.co.jp,+44 20 7946 0041,GB
tom.10@proton.me,+49 30 123456996,DE
yuki.11@shop.fr,+33 6 12 34 56 73,FR
yuki.12@shop.fr,+886 2 2345 6433,TW
)csv";

// Minimal RFC 4180 reader: quoted fields with "" escapes; no newlines inside fields.
std::vector<std::vector<std::string>> ParseCsv(std::string_view text) {
  std::vector<std::vector<std::string>> rows;
  size_t i = 0;
  while (i < text.size()) {
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (quoted) {
        if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.push_back(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        row.push_back(std::move(field));
        field.clear();
      } else if (c == '\n') {
        ++i;
        break;
      } else {
        field.push_back(c);
      }
    }
    row.push_back(std::move(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

const std::vector<std::string> kProductFields = {
    "sku",        "title",     "description",   "price",       "compare_at_price",
    "cost_price", "currency",  "availability",  "image_url",   "brand",
    "category",   "gtin",      "weight",        "hs_code",     "country_of_origin",
    "vat_number", "stock_qty", "reorder_point", "expiry_date", "warehouse_id"};
const std::vector<std::string> kCustomerFields = {"email", "phone", "country"};

std::vector<std::vector<std::string>> DataRows(std::string_view csv) {
  auto rows = ParseCsv(csv);
  rows.erase(rows.begin());  // header
  return rows;
}

TEST(CleanData, ProductFamilyRaisesNoIssues) {
  const auto rows = DataRows(kProducts);
  ASSERT_EQ(rows.size(), 15u);
  Stats st;
  auto issues = testing::RunRows(kProductFields, "product,price,inventory,shipping", "", rows, &st);
  for (const Issue& i : issues) ADD_FAILURE() << "row " << i.row << ": " << testing::Describe(i);
  EXPECT_EQ(st.score, 100u);
}

TEST(CleanData, CustomersRaiseNoIssues) {
  const auto rows = DataRows(kCustomers);
  ASSERT_EQ(rows.size(), 20u);
  auto issues = testing::RunRows(kCustomerFields, "customer", "", rows);
  for (const Issue& i : issues) ADD_FAILURE() << "row " << i.row << ": " << testing::Describe(i);
}

// gen_catalog.py's DEFECTS, each applied to the first clean product row: the issue it must raise.
struct Defect {
  std::string name, field, value, want;
};

class GenCatalogProductDefects : public ::testing::TestWithParam<Defect> {};

TEST_P(GenCatalogProductDefects, IsCaught) {
  const Defect& d = GetParam();
  auto rows = DataRows(kProducts);
  std::vector<std::string> row = rows[0];
  row[0] = "SKU-X";
  for (size_t i = 0; i < kProductFields.size(); ++i) {
    if (kProductFields[i] == d.field) row[i] = d.value;
  }
  if (d.name == "stock_at_reorder") row[17] = "20";
  // The duplicate defect reuses row 1's SKU.
  std::vector<std::vector<std::string>> batch = {rows[0], row};
  bool found = false;
  for (const Issue& i :
       testing::RunRows(kProductFields, "product,price,inventory,shipping", "", batch)) {
    if (i.row == 2 && Def(i.code).code == d.want) found = true;
  }
  EXPECT_TRUE(found) << d.field << "=" << d.value << " should raise " << d.want;
}

std::string DefectName(const ::testing::TestParamInfo<Defect>& info) { return info.param.name; }

const Defect kProductDefects[] = {
    {"sku_empty", "sku", "", "MISSING_SKU"},
    {"sku_duplicate", "sku", "SKU-00000001", "DUPLICATE_SKU"},
    {"price_abc", "price", "abc", "INVALID_PRICE"},
    {"price_minus_5", "price", "-5", "INVALID_PRICE"},
    {"price_0", "price", "0", "INVALID_PRICE"},
    {"price_empty", "price", "", "INVALID_PRICE"},
    {"price_bad_grouping", "price", "12,5.3", "INVALID_PRICE"},
    {"price_symbol", "price", "$1,299.00", "PRICE_REFORMATTED"},
    {"title_long", "title",
     "Orbit Premium Sneakers extra words extra words extra words extra words extra words extra "
     "words extra words extra words extra words extra words extra words extra words extra words "
     "extra words extra words extra words extra words extra words extra words extra words ",
     "TITLE_TOO_LONG"},
    {"title_padded", "title", "  Orbit Premium Sneakers  ", "WHITESPACE_TRIMMED"},
    {"title_empty", "title", "", "MISSING_TITLE"},
    {"image_not_url", "image_url", "not a url", "INVALID_IMAGE_URL"},
    {"image_ftp", "image_url", "ftp://x/y.jpg", "INVALID_IMAGE_URL"},
    {"image_http", "image_url", "http://cdn.example.com/a.jpg", "IMAGE_URL_NOT_HTTPS"},
    {"availability_in_stock", "availability", "In Stock", "AVAILABILITY_NORMALIZED"},
    {"availability_out_of_stock", "availability", "OUT OF STOCK", "AVAILABILITY_NORMALIZED"},
    {"availability_maybe", "availability", "maybe", "INVALID_AVAILABILITY"},
    {"availability_pre_order", "availability", "pre-order", "AVAILABILITY_NORMALIZED"},
    {"gtin_check_digit", "gtin", "4166131860917", "INVALID_GTIN_CHECKSUM"},
    {"gtin_short", "gtin", "12345", "INVALID_GTIN"},
    {"currency_lower", "currency", "usd", "CURRENCY_UPPERCASED"},
    {"currency_symbol", "currency", "US$", "INVALID_CURRENCY"},
    {"currency_xyz", "currency", "XYZ", "INVALID_CURRENCY"},
    {"currency_word", "currency", "euro", "INVALID_CURRENCY"},
    {"weight_negative", "weight", "-1", "INVALID_WEIGHT"},
    {"weight_word", "weight", "heavy", "INVALID_WEIGHT"},
    {"weight_zero", "weight", "0", "INVALID_WEIGHT"},
    {"hs_dotted", "hs_code", "12.34.56", "HS_CODE_REFORMATTED"},
    {"hs_five_digits", "hs_code", "99999", "HS_LEADING_ZERO_RESTORED"},
    {"hs_letters", "hs_code", "ABCDEF", "INVALID_HS_CODE"},
    {"origin_alpha3", "country_of_origin", "USA", "COUNTRY_CODE_NORMALIZED"},
    {"origin_zz", "country_of_origin", "zz", "INVALID_COUNTRY_CODE"},
    {"origin_name", "country_of_origin", "Germany", "INVALID_COUNTRY_CODE"},
    {"origin_lower", "country_of_origin", "de", "COUNTRY_CODE_NORMALIZED"},
    {"vat_short", "vat_number", "DE123", "INVALID_VAT_FORMAT"},
    {"vat_zeros", "vat_number", "FR00000000000", "INVALID_VAT_CHECKSUM"},
    {"vat_unknown", "vat_number", "XX999", "UNKNOWN_VAT_COUNTRY"},
    {"stock_negative", "stock_qty", "-3", "NEGATIVE_STOCK"},
    {"stock_word", "stock_qty", "ten", "INVALID_STOCK_QTY"},
    {"stock_fraction", "stock_qty", "4.5", "INVALID_STOCK_QTY"},
    {"stock_at_reorder", "stock_qty", "2", "STOCK_AT_REORDER_POINT"},
    {"expiry_past", "expiry_date", "2020-01-01", "EXPIRED"},
    {"expiry_impossible", "expiry_date", "31/02/2024", "INVALID_EXPIRY_DATE"},
    {"expiry_word", "expiry_date", "soon", "INVALID_EXPIRY_DATE"},
    {"compare_at_below", "compare_at_price", "260.42", "COMPARE_AT_NOT_HIGHER"},
    {"cost_above_price", "cost_price", "313.704", "NEGATIVE_MARGIN"},
};

INSTANTIATE_TEST_SUITE_P(GenCatalog, GenCatalogProductDefects, ::testing::ValuesIn(kProductDefects),
                         DefectName);

// gen_catalog.py's "defects" that are no longer wrong (issue 31): an empty value in a field that
// neither the check types' core nor a platform template requires gives no issue.
TEST(GenCatalogDefects, EmptyOptionalValuesRaiseNothing) {
  const auto rows = DataRows(kProducts);
  for (const std::string field : {"image_url", "brand", "warehouse_id", "availability", "currency",
                                  "gtin", "weight", "hs_code", "country_of_origin", "vat_number",
                                  "compare_at_price", "cost_price", "reorder_point",
                                  "expiry_date", "description", "category"}) {
    std::vector<std::string> row = rows[0];
    for (size_t i = 0; i < kProductFields.size(); ++i) {
      if (kProductFields[i] == field) row[i] = "";
    }
    for (const Issue& i :
         testing::RunRows(kProductFields, "product,price,inventory,shipping", "", {row})) {
      ADD_FAILURE() << "empty " << field << ": " << testing::Describe(i);
    }
  }
}

TEST(GenCatalogDefects, PriceOutlierIsCaught) {
  // Twice the fixture (SKUs made unique), so the batch has the 30 rows outliers need.
  auto rows = DataRows(kProducts);
  const size_t n = rows.size();
  for (size_t i = 0; i < n; ++i) {
    rows.push_back(rows[i]);
    rows.back()[0] += "-B";
  }
  ASSERT_GE(rows.size(), 30u);
  rows[3][3] = "99999.00";
  bool found = false;
  for (const Issue& i : testing::RunRows(kProductFields, "product,price", "", rows)) {
    found |= i.row == 4 && i.code == IssueCode::PRICE_OUTLIER_HIGH;
  }
  EXPECT_TRUE(found);
}

TEST(GenCatalogDefects, CustomerDefectsAreCaught) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"john@@example.com", "+1 650-253-0640", "US"}, "INVALID_EMAIL"},
      {{"no-at-sign.com", "+1 650-253-0640", "US"}, "INVALID_EMAIL"},
      {{"a@b", "+1 650-253-0640", "US"}, "INVALID_EMAIL"},
      {{"", "", "US"}, "MISSING_EMAIL"},  // and no phone: a phone-only customer is complete
      {{"  TOM.2@SHOP.FR ", "+1 650-253-0640", "US"}, "EMAIL_NORMALIZED"},
      {{"tom.2@mailinator.com", "+1 650-253-0640", "US"}, "DISPOSABLE_EMAIL"},
      {{"tom.2@yopmail.com", "+1 650-253-0640", "US"}, "DISPOSABLE_EMAIL"},
      {{"tom.2@shop.fr", "123", "US"}, "INVALID_PHONE"},
      {{"tom.2@shop.fr", "phone", "US"}, "INVALID_PHONE"},
      {{"tom.2@shop.fr", "+1 555", "US"}, "INVALID_PHONE"},
      {{"tom.2@shop.fr", "+1 650-253-0640", "USA"}, "COUNTRY_CODE_NORMALIZED"},
      {{"tom.2@shop.fr", "+1 650-253-0640", "ZZ"}, "INVALID_COUNTRY_CODE"},
      {{"tom.2@shop.fr", "+44 20 7946 0281", "uk"}, "COUNTRY_CODE_NORMALIZED"},
      {{"tom.2@shop.fr", "+49 30 123456372", "de"}, "COUNTRY_CODE_NORMALIZED"},
      {{"li.1@example.de", "+1 650-253-0640", "US"}, "DUPLICATE_CUSTOMER"},
  };
  const auto clean = DataRows(kCustomers);
  for (const auto& [row, want] : cases) {
    bool found = false;
    for (const Issue& i : testing::RunRows(kCustomerFields, "customer", "", {clean[0], row})) {
      found |= i.row == 2 && Def(i.code).code == want;
    }
    EXPECT_TRUE(found) << row[0] << " / " << row[1] << " / " << row[2] << " should raise " << want;
  }
}

}  // namespace
}  // namespace dq::validator
