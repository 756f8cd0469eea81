// The Merchant Center pack: platform search_merchant, checked against Google's product data
// specification (support.google.com/merchants/answer/7052112) and its attribute pages, as read
// for issue 32 (docs/issue-codes.md cites each code's page; docs/channels.md lists every rule
// with its source). Attribute pages are cited by their answer number under
// support.google.com/merchants/answer/.
#include "channel_pack.h"

namespace dq::validator::rules {
namespace {

using F = Field;

// 12472827 (availability): in_stock, out_of_stock, preorder, backorder; the product check also
// takes Merchant Center's spaced spellings as written with this template (issue 31).
constexpr std::string_view kAvailability[] = {"in_stock",  "out_of_stock", "preorder",
                                              "backorder", "in stock",     "out of stock"};
// 12471921 (condition): new, refurbished, used.
constexpr std::string_view kCondition[] = {"new", "refurbished", "used"};
// 12472746 (identifier_exists): yes, no; the attribute page also accepts true and false.
constexpr std::string_view kIdentifierExists[] = {"yes", "no", "true", "false"};
// 12471626 (gender): male, female, unisex.
constexpr std::string_view kGender[] = {"male", "female", "unisex"};
// 12472028 (age_group): newborn, infant, toddler, kids, adult.
constexpr std::string_view kAgeGroup[] = {"newborn", "infant", "toddler", "kids", "adult"};
// 12472547 / 6324350 (image_link): JPEG (.jpg/.jpeg), WebP, PNG, non-animated GIF, BMP, TIFF.
constexpr std::string_view kImageExtensions[] = {"jpg", "jpeg", "webp", "png",
                                                 "gif", "bmp",  "tif",  "tiff"};
// 6324503 (shipping_weight): "Number plus unit"; supported values lb, oz, g and kg.
constexpr std::string_view kWeightUnits[] = {"lb", "oz", "g", "kg"};

constexpr ChannelPack MakePack() {
  ChannelPack p;
  p.platform = Platform::kSearchMerchant;
  // 6324415 (title): 1-150 characters. 7052112: id, title, description, link, image_link,
  // availability, price are required; brand for all new products except media. The template's
  // own list (sku, title, description, price, image, availability, brand) gains link.
  p.title_limit = 150;
  p.required = {F::kSku,      F::kTitle,        F::kDescription, F::kPrice,
                F::kImageUrl, F::kAvailability, F::kBrand,       F::kLink};
  p.required_count = 8;
  // 6324405 (id): 1-50 characters; a unique id for each product.
  p.id_limit = 50;
  p.unique_id = true;
  // 6324468 (description): 1-5000 characters; longer text is truncated with a warning. Some
  // plain HTML is supported; attributes of all tags and unsafe tags (style, canvas) are not.
  p.description_truncated_at = 5000;
  p.description_html = ChannelPack::Html::kSafeSubset;
  // 7052112 / 6324415 (title): no promotional text like "free shipping", no all capital
  // letters, no gimmicky characters; Google's editorial guidelines (manufacturers/answer/
  // 6124110): no exclamation points in titles, no repeated punctuation or symbols, no
  // gimmicky repetition.
  p.title_capitals = true;
  p.title_promotional = true;
  p.title_gimmicks = listing::kExclamation | listing::kRepeatedSymbol | listing::kDecorative;
  p.title_repeated_words = true;
  // 7052112 / 6324468 (description): no promotional text, no all capital letters, no links to
  // your store or other websites.
  p.description_capitals = true;
  p.description_promotional = true;
  p.description_links = true;
  // 6324416 (link) and 12472547 (image_link): start with http or https, an encoded URL
  // (RFC 2396 / 1738), at most 2000 characters; use your verified domain; no placeholder
  // image; the file in an accepted format.
  p.check_urls = true;
  p.url_limit = 2000;
  p.placeholder_hosts = true;
  p.placeholder_image_names = true;
  p.image_extensions = kImageExtensions;
  // 12472826 (additional_image_link): up to 10 more images, each at most 2000 characters;
  // in text feeds separated by commas.
  p.additional_images_max = 10;
  p.additional_image_separators = ",";
  // 12471842 (price) and 12471623 (sale_price): a number and an ISO 4217 currency; the sale
  // price below the price. 12471843 (sale_price_effective_date): ISO 8601 start and end
  // separated by '/', at most 51 characters, the start before the end.
  p.price_currency = true;
  p.sale_price = true;
  p.sale_dates_limit = 51;
  p.availability = kAvailability;
  // 12472827 / 6324470 (availability_date): required for preorder and backorder; ISO 8601,
  // at most 25 characters; for preorder a date up to one year in the future.
  p.availability_date_required = true;
  p.availability_date_limit = 25;
  p.availability_date_within_a_year = true;
  // 12471921 (condition): required if the product is used or refurbished.
  p.condition = kCondition;
  p.condition_from_title = true;
  // 12472746 / 12474954 (identifier_exists, mpn): an MPN is required when the product has no
  // manufacturer-assigned GTIN; identifier_exists no when it has neither a GTIN nor brand +
  // MPN, and not when it has them. 12468352 (brand): at most 70 characters; don't submit
  // "N/A", "Generic", "No brand" or "Does not exist".
  p.identifier_exists = kIdentifierExists;
  p.identifiers = true;
  p.brand_placeholder = true;
  p.brand_limit = 70;
  p.mpn_limit = 70;
  // 6324406 (product_type): at most 750 characters. 6324436 (google_product_category): a
  // category id or full path from Google's product taxonomy.
  p.product_type_limit = 750;
  p.google_category = true;
  p.gender = kGender;
  p.age_group = kAgeGroup;
  // 7052112: color, gender and age_group are required for Apparel & Accessories (166), size
  // for Clothing (1604) and Shoes (187), for free listings and in Brazil, France, Germany,
  // Japan, the UK and the US. 12471922 (color): no number, no hex code, not one letter, not
  // "multicolor", "various", "N/A"; at most 100 characters, 40 per colour.
  p.apparel_attributes = true;
  p.color_words = true;
  p.color_limit = 100;
  p.color_each_limit = 40;
  // 12471627 (size): at most 100 characters. 12472646 (item_group_id): at most 50
  // characters; variants in one group differ in their variant attributes (color, size,
  // gender, age_group, ...).
  p.size_limit = 100;
  p.item_group_id_limit = 50;
  p.distinct_variants = true;
  // 6324503 (shipping_weight): a number plus its unit (lb, oz, g, kg); limits 0-2000 lbs for
  // imperial, 0-1000 kg for metric.
  p.weight_units = kWeightUnits;
  p.weight_max_lb = 2000;
  p.weight_max_kg = 1000;
  return p;
}

}  // namespace

// Constant-initialized: usable from other files' static tables at any time.
constinit const ChannelPack kMerchantCenterPack = MakePack();

}  // namespace dq::validator::rules
