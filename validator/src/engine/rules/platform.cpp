// Platform templates (service-spec.md "Platform templates"): title limit in Unicode characters,
// required fields (image = image_url, stock = stock_qty), https images, and English-only content
// for marketplace1_cross.
#include <array>
#include <span>

#include "../text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

struct Template {
  size_t title_limit;
  std::array<Field, 7> fields;
  size_t count;  // fields[0..count) are required
  bool english_only;
  std::span<const Field> required() const { return std::span(fields).first(count); }
};

// Builds a Template from up to seven required fields.
template <typename... F>
constexpr Template Make(size_t limit, bool english_only, F... required) {
  return Template{limit, {required...}, sizeof...(F), english_only};
}

const Template& TemplateOf(Platform p) {
  using F = Field;
  static constexpr Template kNone = Make(0, false);
  static constexpr Template kTemplates[] = {
      // marketplace1_tw
      Make(60, false, F::kTitle, F::kPrice, F::kImageUrl, F::kCategory, F::kWeight),
      // marketplace2
      Make(60, false, F::kTitle, F::kPrice, F::kImageUrl, F::kBrand, F::kCategory, F::kStockQty,
           F::kSku),
      // marketplace3
      Make(60, false, F::kSku, F::kTitle, F::kPrice, F::kImageUrl, F::kCategory, F::kDescription,
           F::kStockQty),
      // search_merchant
      Make(150, false, F::kSku, F::kTitle, F::kDescription, F::kPrice, F::kImageUrl,
           F::kAvailability, F::kBrand),
      // social_catalog
      Make(200, false, F::kSku, F::kTitle, F::kDescription, F::kPrice, F::kImageUrl,
           F::kAvailability, F::kBrand),
      // marketplace1_cross
      Make(60, true, F::kTitle, F::kPrice, F::kImageUrl, F::kWeight),
      // marketplace4
      Make(255, false, F::kSku, F::kTitle, F::kDescription, F::kPrice, F::kStockQty, F::kCategory,
           F::kImageUrl),
      // marketplace5
      Make(70, false, F::kSku, F::kTitle, F::kDescription, F::kPrice, F::kStockQty, F::kCategory,
           F::kImageUrl),
  };
  if (p == Platform::kNone) return kNone;
  return kTemplates[static_cast<size_t>(p) - 1];
}

// True when another selected check already reports this field when it is empty.
bool ReportedElsewhere(const RowContext& ctx, Field f) {
  switch (f) {
    case Field::kSku:
      return ctx.checks(kProductCheck);
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

bool PlatformRequires(Platform p, Field f) {
  for (Field r : TemplateOf(p).required()) {
    if (r == f) return true;
  }
  return false;
}

size_t PlatformTitleLimit(Platform p) { return TemplateOf(p).title_limit; }

void CheckPlatform(RowContext& ctx) {
  const Platform p = ctx.spec().platform;
  const Template& t = TemplateOf(p);
  const std::string_view name = kPlatforms[static_cast<size_t>(p) - 1];
  for (Field f : t.required()) {
    if (ctx.value(f).empty() && !ReportedElsewhere(ctx, f)) {
      ctx.Report(IssueCode::PLATFORM_MISSING_FIELD, f,
                 std::string(name) + " requires " + std::string(FieldName(f)));
    }
  }
  const std::string_view title = ctx.value(Field::kTitle);
  if (title.size() > t.title_limit) {
    const size_t n = text::Utf8Length(title);
    if (n > t.title_limit) {
      ctx.Report(IssueCode::PLATFORM_TITLE_TOO_LONG, Field::kTitle,
                 "Title has " + std::to_string(n) + " characters; " + std::string(name) +
                     " allows " + std::to_string(t.title_limit));
    }
  }
  if (StartsWithHttpScheme(ctx.value(Field::kImageUrl))) {
    ctx.Report(IssueCode::PLATFORM_IMAGE_NOT_HTTPS, Field::kImageUrl);
  }
  if (t.english_only) {
    for (Field f : {Field::kTitle, Field::kDescription}) {
      if (!IsLatinOnly(ctx.value(f))) {
        ctx.Report(IssueCode::PLATFORM_NOT_ENGLISH, f,
                   std::string(name) + " requires English content; " + std::string(FieldName(f)) +
                       " has non-Latin letters");
      }
    }
  }
}

}  // namespace dq::validator::rules
