// Platform templates (docs/channels.md, "The six marketplace templates"): title limit in Unicode
// characters, required fields (image = image_url, stock = stock_qty), https images, and English-only content
// for marketplace1_cross, for every selected template at once (`platform` may list several).
// The packs of search_merchant and social_catalog add the channels' own listing rules
// (rules/channel_rules.cpp). The six marketplace templates stay as the specification defines
// them: their marketplaces are not named, so no published listing rule can be tied to them
// (docs/channels.md).
#include <bit>
#include <bitset>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "text.h"
#include "channel_pack.h"
#include "message_text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

using F = Field;

// Builds a marketplace template from up to ten required fields.
template <typename... R>
constexpr ChannelPack Marketplace(Platform p, size_t limit, bool english_only, R... required) {
  ChannelPack pack;
  pack.platform = p;
  pack.title_limit = limit;
  pack.required = {required...};
  pack.required_count = sizeof...(R);
  pack.english_only = english_only;
  pack.image_https = true;
  return pack;
}

constexpr ChannelPack kMarketplace1Tw =
    Marketplace(Platform::kMarketplace1Tw, 60, false, F::kTitle, F::kPrice, F::kImageUrl,
                F::kCategory, F::kWeight);
constexpr ChannelPack kMarketplace2 =
    Marketplace(Platform::kMarketplace2, 60, false, F::kTitle, F::kPrice, F::kImageUrl, F::kBrand,
                F::kCategory, F::kStockQty, F::kSku);
constexpr ChannelPack kMarketplace3 =
    Marketplace(Platform::kMarketplace3, 60, false, F::kSku, F::kTitle, F::kPrice, F::kImageUrl,
                F::kCategory, F::kDescription, F::kStockQty);
constexpr ChannelPack kMarketplace1Cross = Marketplace(
    Platform::kMarketplace1Cross, 60, true, F::kTitle, F::kPrice, F::kImageUrl, F::kWeight);
constexpr ChannelPack kMarketplace4 =
    Marketplace(Platform::kMarketplace4, 255, false, F::kSku, F::kTitle, F::kDescription, F::kPrice,
                F::kStockQty, F::kCategory, F::kImageUrl);
constexpr ChannelPack kMarketplace5 =
    Marketplace(Platform::kMarketplace5, 70, false, F::kSku, F::kTitle, F::kDescription, F::kPrice,
                F::kStockQty, F::kCategory, F::kImageUrl);

// True when another selected check already reports this field when it is empty.
bool ReportedElsewhere(const RowContext& ctx, Field f) {
  switch (f) {
    case Field::kSku:  // the product check's core, or the inventory check's on a mapped column
      return ctx.checks(kProductCheck) || (ctx.checks(kInventoryCheck) && ctx.mapped(f));
    case Field::kPrice:
      return PriceFormatChecked(ctx);
    case Field::kStockQty:
      return ctx.checks(kInventoryCheck) && ctx.mapped(f);
    case Field::kWeight:
      return ctx.checks(kShippingCheck) && ctx.mapped(f);
    default:
      return false;
  }
}

// Letters outside the Latin script. Accepted: ASCII, Latin-1, Latin Extended-A/B, IPA and
// spacing modifiers, combining diacritics, Latin Extended Additional, general punctuation,
// currency and other symbols (U+2000-U+2BFF), variation selectors and emoji.
bool IsLatinOnly(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    if (i + 8 <= s.size()) {  // eight ASCII bytes at once: no byte with the high bit
      uint64_t block;
      std::memcpy(&block, s.data() + i, 8);
      if ((block & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    uint32_t cp;
    size_t len;
    if ((c & 0xE0) == 0xC0) {
      cp = c & 0x1F, len = 2;
    } else if ((c & 0xF0) == 0xE0) {
      cp = c & 0x0F, len = 3;
    } else {
      cp = c & 0x07, len = 4;
    }
    for (size_t k = 1; k < len && i + k < s.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    }
    i += len;
    const bool ok = cp < 0x0370 || (cp >= 0x1E00 && cp <= 0x1EFF) ||
                    (cp >= 0x2000 && cp <= 0x2BFF) || (cp >= 0xFE00 && cp <= 0xFE0F) ||
                    (cp >= 0x1F000 && cp <= 0x1FAFF);
    if (!ok) return false;
  }
  return true;
}

bool StartsWithHttpScheme(std::string_view url) {
  static constexpr std::string_view kHttp = "http://";
  if (url.size() < kHttp.size()) return false;
  for (size_t i = 0; i < kHttp.size(); ++i) {
    if (text::ToLower(url[i]) != kHttp[i]) return false;
  }
  return true;
}

}  // namespace

const ChannelPack* const kPacks[9] = {
    nullptr,    &kMarketplace1Tw,    &kMarketplace2, &kMarketplace3, &kMerchantCenterPack,
    &kMetaPack, &kMarketplace1Cross, &kMarketplace4, &kMarketplace5};
static_assert(std::size(kPacks) == kPlatforms.size() + 1);

ChannelNamesText::ChannelNamesText(const BatchSpec& spec, ChannelMask mask) {
  size_t listed = 0, total = 0;
  for (Platform p : spec.platforms) total += (mask & ChannelBit(p)) != 0;
  for (Platform p : spec.platforms) {
    if (!(mask & ChannelBit(p))) continue;
    if (listed > 0) Append(listed + 1 == total ? " and " : ", ");
    Append(PlatformName(p));
    ++listed;
  }
}

std::string ChannelNames(const BatchSpec& spec, ChannelMask mask) {
  return std::string(std::string_view(ChannelNamesText(spec, mask)));
}

bool PlatformRequires(Platform p, Field f) {
  if (p == Platform::kNone) return false;
  for (Field r : PackOf(p).required_fields()) {
    if (r == f) return true;
  }
  return false;
}

bool AnyPlatformRequires(const BatchSpec& spec, Field f) {
  for (Platform p : spec.platforms) {
    if (PlatformRequires(p, f)) return true;
  }
  return false;
}

size_t PlatformTitleLimit(Platform p) { return p == Platform::kNone ? 0 : PackOf(p).title_limit; }

bool AvailabilityAcceptedByAPlatform(const BatchSpec& spec, std::string_view value) {
  for (Platform p : spec.platforms) {
    for (std::string_view v : PackOf(p).availability) {
      if (v == value) return true;
    }
  }
  return false;
}

namespace {

// The templates that require https images (ChannelPack::image_https).
ChannelMask HttpsImageChannels(const BatchSpec& spec) {
  return PacksWhere(spec, [](const ChannelPack& p) { return p.image_https; });
}

// One image URL (a cell, or an item of a list cell: ForEachItem names the item).
void CheckOneImageHttps(RowContext& ctx) {
  if (StartsWithHttpScheme(ctx.value(Field::kImageUrl))) {
    ctx.ReportFor(HttpsImageChannels(ctx.spec()), IssueCode::PLATFORM_IMAGE_NOT_HTTPS,
                  Field::kImageUrl);
  }
}

// PLATFORM_IMAGE_NOT_HTTPS for the templates that require https, each URL of a list cell on its
// own: a JSON array of URLs by its own syntax, a source's separated list by its convention.
void CheckImageHttps(RowContext& ctx) {
  const ChannelMask https = HttpsImageChannels(ctx.spec());
  const std::string_view cell = ctx.value(Field::kImageUrl);
  if (!https || cell.empty()) return;
  std::vector<std::string> urls;
  if (JsonStringArray(cell, &urls)) {
    const size_t n = urls.size();
    for (size_t k = 0; k < n; ++k) {
      if (!StartsWithHttpScheme(urls[k])) continue;
      ctx.ReportFor(https, IssueCode::PLATFORM_IMAGE_NOT_HTTPS, Field::kImageUrl,
                    Cat("item ", Num(k + 1), " of ", Num(n), ", '", urls[k], "', uses http; ",
                        ctx.channel_names(https),
                        std::popcount(https) == 1 ? " requires" : " require", " https"));
      return;
    }
    return;
  }
  ctx.ForEachItem(Field::kImageUrl, CheckOneImageHttps);
}

}  // namespace

void CheckPlatform(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  // Required fields: one issue per empty field, naming every template that requires it.
  for (const auto& [f, mask] : ctx.platform_required()) {
    if (!ctx.value(f).empty() || ReportedElsewhere(ctx, f)) continue;
    ctx.ReportFor(mask, IssueCode::PLATFORM_MISSING_FIELD, f,
                  Cat(ctx.channel_names(mask),
                      std::popcount(mask) == 1 ? " requires " : " require ", FieldName(f)));
  }
  const std::string_view title = ctx.value(Field::kTitle);
  size_t chars = SIZE_MAX;
  ChannelMask too_long = 0;
  std::string limits;
  for (Platform p : spec.platforms) {
    const size_t limit = PackOf(p).title_limit;
    if (title.size() <= limit) continue;
    if (chars == SIZE_MAX) chars = text::Utf8Length(title);
    if (chars <= limit) continue;
    too_long |= ChannelBit(p);
    limits += Cat(limits.empty() ? "; " : ", ", PlatformName(p), " allows ", Num(limit));
  }
  if (too_long) {
    ctx.ReportFor(too_long, IssueCode::PLATFORM_TITLE_TOO_LONG, Field::kTitle,
                  Cat("Title has ", Num(chars), " characters", limits));
  }
  CheckImageHttps(ctx);
  const ChannelMask english = PacksWhere(spec, [](const ChannelPack& p) { return p.english_only; });
  if (english) {
    for (Field f : {Field::kTitle, Field::kDescription}) {
      if (!IsLatinOnly(ctx.value(f))) {
        ctx.ReportFor(english, IssueCode::PLATFORM_NOT_ENGLISH, f,
                      Cat(ctx.channel_names(english),
                          std::popcount(english) == 1 ? " requires" : " require",
                          " English content; ", FieldName(f), " has non-Latin letters"));
      }
    }
  }
  CheckChannelPacks(ctx);
}

}  // namespace dq::validator::rules
