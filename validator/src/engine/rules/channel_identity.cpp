// The channel packs' checks of what an item is: condition and the other vocabularies, identifiers
// (GTIN, brand and MPN, identifier_exists), Google's category, apparel attributes
// (channel_checks.h).
#include "channel_checks.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "iso_date.h"
#include "listing_text.h"
#include "reference_data.h"
#include "taxonomy.h"
#include "text.h"
#include "rules.h"

namespace dq::validator::rules::channel {

// --- Vocabularies, identifiers, categories, apparel ------------------------------------------

// f's value must be one of the pack's member list (compared ASCII case-insensitively).
void CheckVocabulary(RowContext& ctx, Field f,
                     std::span<const std::string_view> ChannelPack::*member) {
  const std::string_view v = ctx.value(f);
  if (v.empty()) return;
  char buf[32];
  const std::string_view lower = LowerInto(v, buf, sizeof(buf));
  for (Platform p : ctx.spec().platforms) {
    const std::span<const std::string_view> list = PackOf(p).*member;
    if (list.empty() || InList(list, lower)) continue;
    ctx.ReportFor(ChannelBit(p), IssueCode::PLATFORM_INVALID_VALUE, f,
                  Cat(PlatformName(p), " takes ", FieldName(f), " ", ListText(list), ", not '",
                      text::Utf8Prefix(v, 40), "'"));
  }
}

void CheckCondition(RowContext& ctx, std::string_view used_word) {
  CheckVocabulary(ctx, Field::kCondition, &ChannelPack::condition);
  if (!ctx.value(Field::kCondition).empty()) return;
  const ChannelMask m =
      PacksWhere(ctx.spec(), [](const ChannelPack& p) { return p.condition_from_title; });
  if (!m) return;
  if (const std::string_view w = used_word; !w.empty()) {
    ctx.ReportFor(m, IssueCode::PLATFORM_MISSING_FIELD, Field::kCondition,
                  Cat(ctx.channel_names(m),
                      " requires condition for used and refurbished items; the title says '", w,
                      "'"));
  }
}

bool IsNoBrand(std::string_view brand) {
  char buf[24];
  size_t n = 0;
  for (char c : brand) {
    if (c == ' ' || c == '-' || c == '_' || c == '.' || c == '/') continue;
    if (n == sizeof(buf)) return false;
    buf[n++] = text::ToLower(c);
  }
  const std::string_view b(buf, n);
  for (std::string_view x :
       {"na", "none", "generic", "nobrand", "unbranded", "doesnotexist", "notapplicable"}) {
    if (b == x) return true;
  }
  return false;
}

void CheckIdentifiers(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  CheckVocabulary(ctx, Field::kIdentifierExists, &ChannelPack::identifier_exists);
  const std::string_view brand = ctx.value(Field::kBrand);
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.brand_placeholder; });
      m && !brand.empty() && IsNoBrand(brand)) {
    ctx.ReportFor(m, IssueCode::PLATFORM_BRAND_PLACEHOLDER, Field::kBrand,
                  "brand " + Quote(brand) + " says there is no brand; leave brand empty instead");
  }
  const bool product = ctx.checks(kProductCheck);
  CheckLength(ctx, Field::kBrand, "brand", brand, [product](const ChannelPack& p) {
    return product && p.brand_limit <= 70 ? 0 : p.brand_limit;  // BRAND_TOO_LONG says it
  });
  CheckLength(ctx, Field::kMpn, "mpn", ctx.value(Field::kMpn),
              [](const ChannelPack& p) { return p.mpn_limit; });
  const ChannelMask m = PacksWhere(spec, [](const ChannelPack& p) { return p.identifiers; });
  if (!m) return;
  if (!ctx.mapped(Field::kGtin) && !ctx.mapped(Field::kMpn) &&
      !ctx.mapped(Field::kIdentifierExists)) {
    return;  // the file says nothing of identifiers: nothing to judge
  }
  char buf[16];
  const std::string_view exists_value = ctx.value(Field::kIdentifierExists);
  const std::string_view exists = LowerInto(exists_value, buf, sizeof(buf));
  if (exists.empty() && !exists_value.empty()) return;  // PLATFORM_INVALID_VALUE
  const bool has_gtin = !ctx.value(Field::kGtin).empty();
  const bool has_mpn = !ctx.value(Field::kMpn).empty();
  if (exists == "no" || exists == "false") {
    if (has_gtin || (has_mpn && !brand.empty())) {
      ctx.ReportFor(m, IssueCode::PLATFORM_IDENTIFIER_EXISTS_MISUSED, Field::kIdentifierExists,
                    "identifier_exists is " + std::string(exists_value) + ", but the item has " +
                        (has_gtin ? "a GTIN" : "a brand and an MPN"));
    }
    return;
  }
  if (!exists.empty() && exists != "yes" && exists != "true") return;  // PLATFORM_INVALID_VALUE
  // Google asks the identifiers of new products only: a used or refurbished item (a used car, a
  // second-hand book) need not carry a GTIN or an MPN (Google 12472746, 6324482). Any other
  // condition (empty, "new", or a value the channel does not know, which is its own issue) is
  // judged as new, so a merchant learns of both at once.
  char cbuf[16];
  const std::string_view condition =
      LowerInto(text::Trim(ctx.value(Field::kCondition)), cbuf, sizeof(cbuf));
  if (condition == "used" || condition == "refurbished") return;
  if (!has_gtin && (!has_mpn || brand.empty())) {
    ctx.ReportFor(m, IssueCode::PLATFORM_MISSING_IDENTIFIERS, has_mpn ? Field::kBrand : Field::kMpn,
                  Cat(ctx.channel_names(m), std::popcount(m) == 1 ? " needs" : " need",
                      " a GTIN, or a brand and an MPN; set identifier_exists to no for an item "
                      "that has none"));
  }
}

// A colour must be named in words: not a number, a hex code, one letter, or a word that names
// no colour. Returns why not, or nullptr.
const char* NotAColour(std::string_view color) {
  char buf[24];
  const std::string_view lower = LowerInto(text::Trim(color), buf, sizeof(buf));
  if (lower.empty()) return nullptr;  // long values are judged by length only
  if (lower.front() == '#') return "a hex code";
  if (text::IsAllDigits(lower)) return "a number";
  if (lower.size() == 1 && text::IsAsciiAlpha(lower[0])) return "a single letter";
  for (std::string_view w :
       {"multicolor", "multicolour", "multi", "various", "variety", "n/a", "na", "none",
        "see image", "see picture", "mens", "men's", "womens", "women's"}) {
    if (lower == w) return "not a colour";
  }
  return nullptr;
}

void CheckApparel(RowContext& ctx, std::optional<uint32_t> category) {
  const BatchSpec& spec = ctx.spec();
  CheckVocabulary(ctx, Field::kGender, &ChannelPack::gender);
  CheckVocabulary(ctx, Field::kAgeGroup, &ChannelPack::age_group);
  const std::string_view color = ctx.value(Field::kColor);
  if (const ChannelMask m = PacksWhere(spec, [](const ChannelPack& p) { return p.color_words; });
      m && !color.empty()) {
    if (const char* why = NotAColour(color)) {
      ctx.ReportFor(m, IssueCode::PLATFORM_INVALID_VALUE, Field::kColor,
                    "color " + Quote(color) + " is " + why + "; name the colour in words");
    }
  }
  CheckLength(ctx, Field::kColor, "color", color,
              [](const ChannelPack& p) { return p.color_limit; });
  if (!color.empty()) {
    size_t start = 0;
    while (start <= color.size()) {
      size_t end = color.find('/', start);
      if (end == std::string_view::npos) end = color.size();
      const std::string_view one = text::Trim(color.substr(start, end - start));
      start = end + 1;
      CheckLength(ctx, Field::kColor, "One colour in color", one,
                  [](const ChannelPack& p) { return p.color_each_limit; });
    }
  }
  CheckLength(ctx, Field::kSize, "size", ctx.value(Field::kSize),
              [](const ChannelPack& p) { return p.size_limit; });
  CheckLength(ctx, Field::kItemGroupId, "item_group_id", ctx.value(Field::kItemGroupId),
              [](const ChannelPack& p) { return p.item_group_id_limit; });
  const GoogleTaxonomy& taxonomy = ctx.ref().taxonomy();
  const bool apparel =
      category && taxonomy.IsUnder(*category, GoogleTaxonomy::kApparelAndAccessories);
  if (apparel) {
    const ChannelMask m =
        PacksWhere(spec, [](const ChannelPack& p) { return p.apparel_attributes; });
    if (m) {
      const bool sized = taxonomy.IsUnder(*category, GoogleTaxonomy::kClothing) ||
                         taxonomy.IsUnder(*category, GoogleTaxonomy::kShoes);
      for (Field f : {Field::kColor, Field::kGender, Field::kAgeGroup, Field::kSize}) {
        if (!ctx.value(f).empty() || (f == Field::kSize && !sized)) continue;
        ctx.ReportFor(m, IssueCode::PLATFORM_MISSING_FIELD, f,
                      Cat(ctx.channel_names(m),
                          std::popcount(m) == 1 ? " requires " : " require ", FieldName(f), " for ",
                          f == Field::kSize ? "clothing and shoes" : "apparel and accessories",
                          " (google_product_category ", Num(*category), ")"));
      }
    }
  }
  // Variants of one item group must differ in their variant attributes. Judged for apparel, and
  // for rows whose category is unknown but that give a variant attribute; other products may
  // differ in attributes dq does not see.
  const std::string_view group = ctx.value(Field::kItemGroupId);
  const ChannelMask m = PacksWhere(spec, [](const ChannelPack& p) { return p.distinct_variants; });
  if (!m || group.empty()) return;
  const Field variant_fields[] = {Field::kColor, Field::kSize, Field::kGender, Field::kAgeGroup};
  bool any = false;
  for (Field f : variant_fields) any = any || !ctx.value(f).empty();
  if (!apparel && (category || !any)) return;
  thread_local std::string key;  // no allocation once grown
  key.clear();
  for (char c : group) key.push_back(text::ToLower(c));
  for (Field f : variant_fields) {
    key.push_back('\x1f');
    for (char c : text::Trim(ctx.value(f))) key.push_back(text::ToLower(c));
  }
  ctx.ReportIfUsedBeforeFor(m, KeySet::kVariant, key, IssueCode::PLATFORM_DUPLICATE_VARIANT,
                            Field::kItemGroupId,
                            "Same item_group_id, color, size, gender and age_group as row ");
}

std::optional<uint32_t> CheckGoogleCategory(RowContext& ctx) {
  const std::string_view v = ctx.value(Field::kGoogleProductCategory);
  if (v.empty()) return std::nullopt;
  const GoogleTaxonomy& taxonomy = ctx.ref().taxonomy();
  const std::optional<uint32_t> id = taxonomy.Find(v);
  const ChannelMask m =
      PacksWhere(ctx.spec(), [](const ChannelPack& p) { return p.google_category; });
  // Without Google's file (not shipped with this build) no value can be called unknown.
  if (!id && m && !taxonomy.empty()) {
    // "1604 - Apparel & Accessories > Clothing": the file's own line, id and path together.
    const size_t dash = v.find(" - ");
    const bool both = dash != std::string_view::npos && text::IsAllDigits(v.substr(0, dash)) &&
                      taxonomy.Find(v.substr(0, dash));
    ctx.ReportFor(m, IssueCode::PLATFORM_UNKNOWN_GOOGLE_CATEGORY, Field::kGoogleProductCategory,
                  both ? "google_product_category gives both an id and a path; send one of them"
                       : "google_product_category " + Quote(text::Utf8Prefix(v, 80)) +
                             " is not a category id or path of Google's product taxonomy " +
                             taxonomy.version());
  }
  return id;
}

}  // namespace dq::validator::rules::channel
