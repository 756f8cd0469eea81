// The Meta pack: platform social_catalog, checked against Meta's catalog field specification
// (developers.facebook.com/docs/marketing-api/catalog/reference, "Supported fields", and the
// product data specifications of facebook.com/business/help/120325381656392), its catalog
// best practices (developers.facebook.com/docs/marketing-api/catalog/best-practices) and its
// product title specifications (facebook.com/business/help/2104231189874655), as read for
// issue 32. docs/channels.md lists every rule with its source.
#include "channel_pack.h"

namespace dq::validator::rules {
namespace {

using F = Field;

// Supported fields, availability: "in stock" and "out of stock" (the catalog reference also
// lists preorder, available for order and discontinued). dq accepts Google's underscore
// spelling as well, which its AVAILABILITY_NORMALIZED fix writes.
constexpr std::string_view kAvailability[] = {
    "in stock",     "out of stock", "preorder",    "available for order",
    "discontinued", "in_stock",     "out_of_stock"};
constexpr std::string_view kCondition[] = {"new", "refurbished", "used"};
constexpr std::string_view kGender[] = {"female", "male", "unisex"};
constexpr std::string_view kAgeGroup[] = {"adult",   "all ages", "teen",   "kids",
                                          "toddler", "infant",   "newborn"};
// image_link: "Images must be in JPEG or PNG format".
constexpr std::string_view kImageExtensions[] = {"jpg", "jpeg", "png"};
// link: "Don't provide a link to a Facebook domain (such as your business's Facebook Page)".
constexpr std::string_view kForbiddenLinkHosts[] = {"facebook.com", "fb.com", "fb.me"};
// shipping_weight: "Include the unit of measurement (lb/oz/g/kg)" (the field's description in
// Commerce Manager's catalog template; docs/channels.md).
constexpr std::string_view kWeightUnits[] = {"lb", "oz", "g", "kg"};

constexpr ChannelPack MakePack() {
  ChannelPack p;
  p.platform = Platform::kSocialCatalog;
  // Supported fields: title up to 200 characters; required: id, title, description,
  // availability, condition, price, link, image_link, brand.
  p.title_limit = 200;
  p.required = {F::kSku,          F::kTitle, F::kDescription, F::kPrice,    F::kImageUrl,
                F::kAvailability, F::kBrand, F::kLink,        F::kCondition};
  p.required_count = 9;
  // id: max 100 characters; "each content ID must appear only once in your catalog".
  p.id_limit = 100;
  p.unique_id = true;
  // description: max 9999 characters, plain text (not HTML), not all capital letters, no
  // links. Best practices: no HTML tags or character entities.
  p.description_limit = 9999;
  p.description_html = ChannelPack::Html::kNone;
  // Product title specifications: no ALL CAPS, no symbols such as ! * ?, no extra characters
  // such as box drawing, no promotional messages such as "Sale" or "Free delivery".
  p.title_capitals = true;
  p.title_promotional = true;
  p.title_gimmicks =
      listing::kExclamation | listing::kQuestionMark | listing::kAsterisk | listing::kDecorative;
  p.description_capitals = true;
  p.description_links = true;
  // link: begins with http:// or https://, valid, on the business's own website domain.
  p.check_urls = true;
  p.placeholder_hosts = true;
  p.image_extensions = kImageExtensions;
  p.forbidden_link_hosts = kForbiddenLinkHosts;
  // additional_image_link: up to 20 URLs separated by a comma, semicolon, space or vertical
  // bar, at most 2000 characters in all.
  p.additional_images_max = 20;
  p.additional_image_separators = ",; |";
  p.additional_images_field_limit = 2000;
  // price: a number, a space and the ISO 4217 code ("9.99 USD"). sale_price: less than the
  // full price, in the same format. sale_price_effective_date: two ISO 8601 timestamps
  // separated by '/'.
  p.price_currency = true;
  p.sale_price = true;
  p.availability = kAvailability;
  p.condition = kCondition;
  // brand: max 100 characters. mpn: max 100. product_type: max 750.
  p.brand_limit = 100;
  p.mpn_limit = 100;
  p.product_type_limit = 750;
  // google_product_category: a category name (not case sensitive) or its id from Google's
  // taxonomy.
  p.google_category = true;
  p.gender = kGender;
  p.age_group = kAgeGroup;
  // color and size: max 200 characters. item_group_id: max 100.
  p.color_limit = 200;
  p.size_limit = 200;
  p.item_group_id_limit = 100;
  // shipping_weight: the number and its unit, lb, oz, g or kg ("10 kg"). Meta publishes no
  // limit.
  p.weight_units = kWeightUnits;
  return p;
}

}  // namespace

// Constant-initialized: usable from other files' static tables at any time.
constinit const ChannelPack kMetaPack = MakePack();

}  // namespace dq::validator::rules
