// A platform template as data: the specification's template (title limit, required fields,
// English only) and how deep dq checks each attribute against that channel's own published
// listing rules. One ChannelPack per platform: the Merchant Center pack (search_merchant) in
// rules/merchant_center.cpp, the Meta pack (social_catalog) in rules/meta.cpp, the marketplace
// templates in rules/platform.cpp. Each pack's definition cites the page every limit and value
// comes from; a member left at its zero value is not checked for that channel.
//
// rules/channel_rules.cpp runs the checks once per row for all selected templates together: a
// check computes what it needs once and reports one issue carrying the mask of the channels
// whose pack finds fault (Issue::channels).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "listing_text.h"
#include "rules.h"

namespace dq::validator::rules {

struct ChannelPack {
  Platform platform = Platform::kNone;

  // --- The specification's template (docs/channels.md, "The six marketplace templates").
  size_t title_limit = 0;
  std::array<Field, 10> required{};
  size_t required_count = 0;  // required[0..required_count) must not be empty
  bool english_only = false;
  // image_url (each URL of a list cell) must be https: PLATFORM_IMAGE_NOT_HTTPS. The
  // specification's rule for the six marketplace templates; Merchant Center and Meta accept
  // http (docs/channels.md).
  bool image_https = false;

  // --- Identifier and text.
  size_t id_limit = 0;                  // characters of sku (the channel's id)
  bool unique_id = false;               // sku unique in the batch (DUPLICATE_SKU)
  size_t description_limit = 0;         // over it: PLATFORM_VALUE_TOO_LONG
  size_t description_truncated_at = 0;  // over it: PLATFORM_DESCRIPTION_TRUNCATED
  enum class Html : uint8_t {
    kAllowed,     // not checked
    kSafeSubset,  // tags without attributes, no unsafe tags
    kNone,        // no tag and no character entity
  };
  Html description_html = Html::kAllowed;
  bool title_capitals = false;        // PLATFORM_EXCESSIVE_CAPITALS
  bool title_promotional = false;     // PLATFORM_PROMOTIONAL_TEXT
  uint8_t title_gimmicks = 0;         // listing::Gimmick bits: PLATFORM_GIMMICKY_CHARACTERS
  bool title_repeated_words = false;  // PLATFORM_REPEATED_WORDS
  bool description_capitals = false;
  bool description_promotional = false;
  bool description_links = false;  // PLATFORM_LINK_IN_DESCRIPTION

  // --- URLs: link, image_url, additional_image_link.
  bool check_urls = false;                                 // absolute http(s): PLATFORM_INVALID_URL
  size_t url_limit = 0;                                    // characters of each URL
  bool placeholder_hosts = false;                          // listing::PlaceholderHost
  bool placeholder_image_names = false;                    // listing::PlaceholderImageName
  std::span<const std::string_view> image_extensions;      // accepted, lower case
  std::span<const std::string_view> forbidden_link_hosts;  // and their subdomains
  size_t additional_images_max = 0;
  std::string_view additional_image_separators;  // characters that separate the URLs
  size_t additional_images_field_limit = 0;      // characters of the whole field

  // --- Price and availability.
  bool price_currency = false;  // price (and sale_price) must name an ISO 4217 currency
  bool sale_price = false;      // sale_price below price, sale_price_effective_date in order
  size_t sale_dates_limit = 0;
  std::span<const std::string_view> availability;  // accepted values, lower case
  bool availability_date_required = false;         // for preorder and backorder
  size_t availability_date_limit = 0;
  bool availability_date_within_a_year = false;  // for preorder

  // --- Identifiers, condition, category, apparel.
  std::span<const std::string_view> condition;
  bool condition_from_title = false;  // "refurbished" in the title requires condition
  std::span<const std::string_view> identifier_exists;
  bool identifiers = false;  // a GTIN, or brand + MPN, unless identifier_exists is no
  bool brand_placeholder = false;
  size_t brand_limit = 0;  // checked when the product check does not (BRAND_TOO_LONG)
  size_t mpn_limit = 0;
  size_t product_type_limit = 0;
  bool google_category = false;  // a known google_product_category
  std::span<const std::string_view> gender;
  std::span<const std::string_view> age_group;
  bool apparel_attributes = false;  // Apparel & Accessories require color, gender, age_group
  bool color_words = false;         // a colour is a word, not a number, hex code or "N/A"
  size_t color_limit = 0;
  size_t color_each_limit = 0;  // each '/'-separated colour
  size_t size_limit = 0;
  size_t item_group_id_limit = 0;
  bool distinct_variants = false;  // PLATFORM_DUPLICATE_VARIANT

  // --- Shipping weight (the weight field): a number and one of these units, lower case
  // ("0.3 kg"); empty: not checked. PLATFORM_INVALID_WEIGHT. A fix never takes the unit away
  // while a selected template's pack lists units (rules/shipping.cpp).
  std::span<const std::string_view> weight_units;
  double weight_max_lb = 0;  // lb and oz: at most this many pounds (0: no limit)
  double weight_max_kg = 0;  // g and kg: at most this many kilograms (0: no limit)

  std::span<const Field> required_fields() const {
    return std::span<const Field>(required).first(required_count);
  }
};

extern const ChannelPack kMerchantCenterPack;  // rules/merchant_center.cpp
extern const ChannelPack kMetaPack;            // rules/meta.cpp
// Indexed by Platform (kNone: nullptr); rules/platform.cpp.
extern const ChannelPack* const kPacks[9];

// The pack of platform p (not kNone). A table lookup: the checks ask it for every selected
// template several times a row.
inline const ChannelPack& PackOf(Platform p) { return *kPacks[static_cast<size_t>(p)]; }

// The selected templates' packs that satisfy pred, as a mask.
// A predicate of the pack alone (a lambda that captures nothing) is asked of every template
// once per process, and the answer for a batch is that set's intersection with the batch's
// templates (BatchSpec::channels): the checks ask dozens of these a row.
template <typename Pred>
ChannelMask PacksWhere(const BatchSpec& spec, Pred pred) {
  if constexpr (std::is_empty_v<Pred>) {
    static const ChannelMask every = [&pred] {
      ChannelMask mask = 0;
      for (size_t p = 1; p <= kPlatforms.size(); ++p) {
        if (pred(PackOf(static_cast<Platform>(p)))) mask |= ChannelBit(static_cast<Platform>(p));
      }
      return mask;
    }();
    return spec.channels & every;
  } else {
    ChannelMask mask = 0;
    for (Platform p : spec.platforms) {
      if (pred(PackOf(p))) mask |= ChannelBit(p);
    }
    return mask;
  }
}

// "search_merchant", "search_merchant and social_catalog", "a, b and c": the names of the
// platforms in mask, in the order the caller listed them.
std::string ChannelNames(const BatchSpec& spec, ChannelMask mask);

// The checks of the packs beyond the specification's template (rules/channel_rules.cpp).
void CheckChannelPacks(RowContext& ctx);

}  // namespace dq::validator::rules
