// The channel packs' checks beyond the specification's templates (channel_pack.h), for every
// selected template at once: each check works out what it needs once per row and reports one
// issue for the mask of templates whose pack finds fault. The packs say which checks run and
// with which limits; the sources are cited where the packs are defined and in
// docs/issue-codes.md.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "../iso_date.h"
#include "../listing_text.h"
#include "../reference_data.h"
#include "../taxonomy.h"
#include "../text.h"
#include "channel_pack.h"
#include "message_text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

using listing::FileKind;

std::string Quote(std::string_view s) {
  std::string out = "'";
  out += s;
  out += "'";
  return out;
}

// Lower-cased ASCII copy of a short value in buf (at most n bytes), or empty when too long.
std::string_view LowerInto(std::string_view v, char* buf, size_t n) {
  if (v.size() > n) return {};
  for (size_t i = 0; i < v.size(); ++i) buf[i] = text::ToLower(v[i]);
  return std::string_view(buf, v.size());
}

bool InList(std::span<const std::string_view> list, std::string_view lower) {
  for (std::string_view v : list) {
    if (v == lower) return true;
  }
  return false;
}

std::string ListText(std::span<const std::string_view> list) {
  std::string out;
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out += i + 1 == list.size() ? " or " : ", ";
    out += list[i];
  }
  return out;
}

// Reports code on f for the templates whose limit(pack) the value exceeds, in Unicode
// characters: "<what> has N characters; a allows 50, b allows 100".
template <typename Limit>
void CheckLength(RowContext& ctx, Field f, std::string_view what, std::string_view v, Limit limit,
                 IssueCode code = IssueCode::PLATFORM_VALUE_TOO_LONG) {
  if (v.empty()) return;
  if constexpr (std::is_empty_v<Limit>) {
    // Within every template's limit (the smallest one set, worked out once): nothing to say.
    static const size_t smallest = [&limit] {
      size_t min = SIZE_MAX;
      for (size_t p = 1; p <= kPlatforms.size(); ++p) {
        const size_t max = limit(PackOf(static_cast<Platform>(p)));
        if (max != 0 && max < min) min = max;
      }
      return min;
    }();
    if (v.size() <= smallest) return;  // bytes >= characters
  }
  size_t chars = SIZE_MAX;
  ChannelMask mask = 0;
  std::string limits;
  for (Platform p : ctx.spec().platforms) {
    const size_t max = limit(PackOf(p));
    if (max == 0 || v.size() <= max) continue;  // bytes >= characters
    if (chars == SIZE_MAX) chars = text::Utf8Length(v);
    if (chars <= max) continue;
    mask |= ChannelBit(p);
    limits += Cat(limits.empty() ? "; " : ", ", PlatformName(p), " allows ", Num(max));
  }
  if (mask) {
    ctx.ReportFor(mask, code, f,
                  Cat(what, " has ", Num(chars), " characters", limits));
  }
}

// --- Title and description -------------------------------------------------------------

void CheckTitle(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const std::string_view title = ctx.value(Field::kTitle);
  if (title.empty()) return;
  if (const ChannelMask m = PacksWhere(spec, [](const ChannelPack& p) { return p.title_capitals; });
      m && listing::ExcessiveCapitals(title)) {
    ctx.ReportFor(m, IssueCode::PLATFORM_EXCESSIVE_CAPITALS, Field::kTitle,
                  "Title is written in capital letters");
  }
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.title_promotional; })) {
    if (const std::string_view phrase = listing::PromotionalPhrase(title, true); !phrase.empty()) {
      ctx.ReportFor(m, IssueCode::PLATFORM_PROMOTIONAL_TEXT, Field::kTitle,
                    Cat("Title contains promotional text '", phrase, "'"));
    }
  }
  uint8_t wanted = 0;
  for (Platform p : spec.platforms) wanted |= PackOf(p).title_gimmicks;
  if (wanted) {
    const listing::GimmickFound g = listing::Gimmicks(title, wanted);
    const ChannelMask m =
        PacksWhere(spec, [&](const ChannelPack& p) { return (p.title_gimmicks & g.kinds) != 0; });
    if (m) {
      ctx.ReportFor(m, IssueCode::PLATFORM_GIMMICKY_CHARACTERS, Field::kTitle,
                    Cat("Title uses '", g.first, "' to draw attention"));
    }
  }
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.title_repeated_words; })) {
    if (const std::string_view w = listing::RepeatedWord(title); !w.empty()) {
      ctx.ReportFor(m, IssueCode::PLATFORM_REPEATED_WORDS, Field::kTitle,
                    Cat("Title repeats the word '", w, "'"));
    }
  }
}

void CheckDescription(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const std::string_view d = ctx.value(Field::kDescription);
  if (d.empty()) return;
  CheckLength(
      ctx, Field::kDescription, "Description", d,
      [](const ChannelPack& p) { return p.description_truncated_at; },
      IssueCode::PLATFORM_DESCRIPTION_TRUNCATED);
  CheckLength(ctx, Field::kDescription, "Description", d,
              [](const ChannelPack& p) { return p.description_limit; });
  const ChannelMask plain = PacksWhere(
      spec, [](const ChannelPack& p) { return p.description_html == ChannelPack::Html::kNone; });
  const ChannelMask safe = PacksWhere(spec, [](const ChannelPack& p) {
    return p.description_html == ChannelPack::Html::kSafeSubset;
  });
  if ((plain | safe) && (d.find('<') != d.npos || d.find('&') != d.npos)) {
    const listing::Html h = listing::FindHtml(d);
    if (plain && (!h.first_tag.empty() || !h.first_entity.empty())) {
      const std::string_view what = h.first_tag.empty() ? h.first_entity : h.first_tag;
      ctx.ReportFor(plain, IssueCode::PLATFORM_DESCRIPTION_HTML, Field::kDescription,
                    Cat("Description contains HTML '", what.substr(0, 60), "'; ",
                        ctx.channel_names(plain), " takes plain text"));
    }
    if (safe && !h.unsafe.empty()) {
      ctx.ReportFor(safe, IssueCode::PLATFORM_DESCRIPTION_HTML, Field::kDescription,
                    Cat("Description contains the tag '", h.unsafe.substr(0, 60), "'; ",
                        ctx.channel_names(safe),
                        " takes tags without attributes and no unsafe tags"));
    }
  }
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.description_capitals; });
      m && listing::ExcessiveCapitals(d)) {
    ctx.ReportFor(m, IssueCode::PLATFORM_EXCESSIVE_CAPITALS, Field::kDescription,
                  "Description is written in capital letters");
  }
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.description_promotional; })) {
    if (const std::string_view phrase = listing::PromotionalPhrase(d, false); !phrase.empty()) {
      ctx.ReportFor(m, IssueCode::PLATFORM_PROMOTIONAL_TEXT, Field::kDescription,
                    Cat("Description contains promotional text '", phrase, "'"));
    }
  }
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.description_links; })) {
    if (const std::string_view link = listing::FindLink(d); !link.empty()) {
      ctx.ReportFor(m, IssueCode::PLATFORM_LINK_IN_DESCRIPTION, Field::kDescription,
                    Cat("Description contains the link '", link.substr(0, 80), "'"));
    }
  }
}

// --- URLs ------------------------------------------------------------------------------

bool HostIsOrUnder(std::string_view host, std::string_view domain) {
  if (host.size() < domain.size()) return false;
  for (size_t k = 0; k < domain.size(); ++k) {
    if (text::ToLower(host[host.size() - domain.size() + k]) != domain[k]) return false;
  }
  return host.size() == domain.size() || host[host.size() - domain.size() - 1] == '.';
}

// The checks every URL of a pack gets (link, image_url, each additional image): placeholder
// hosts, and for images placeholder names and the file type. The URL is well-formed.
// `name` names the URL in messages (default: the field's name).
void CheckUrlContent(RowContext& ctx, Field f, std::string_view url, bool image,
                     std::string_view name = {}) {
  const BatchSpec& spec = ctx.spec();
  if (name.empty()) name = FieldName(f);
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.placeholder_hosts; })) {
    if (const char* why = listing::PlaceholderHost(url)) {
      ctx.ReportFor(m, IssueCode::PLATFORM_PLACEHOLDER_URL, f,
                    Cat(name, " '", listing::HostOf(url), "': ", why));
    }
  }
  if (!image) return;
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.placeholder_image_names; });
      m && listing::PlaceholderImageName(url)) {
    ctx.ReportFor(m, IssueCode::PLATFORM_PLACEHOLDER_URL, f,
                  Cat(name, " names a placeholder picture, not the product"));
  }
  const listing::FileType type = listing::FileTypeOf(url);
  if (type.kind == FileKind::kNoExtension || type.kind == FileKind::kScript) return;
  char buf[8];
  const std::string_view ext = LowerInto(type.extension, buf, sizeof(buf));
  const ChannelMask m = PacksWhere(spec, [&](const ChannelPack& p) {
    return !p.image_extensions.empty() && !InList(p.image_extensions, ext);
  });
  if (!m) return;
  if (type.kind == FileKind::kPage) {
    ctx.ReportFor(m, IssueCode::PLATFORM_IMAGE_FORMAT, f,
                  Cat(name, " ends in .", type.extension,
                      ", a web page or document, not an image"));
    return;
  }
  std::string takes;
  for (Platform p : spec.platforms) {
    if (m & ChannelBit(p)) {
      takes = ListText(PackOf(p).image_extensions);
      break;
    }
  }
  ctx.ReportFor(m, IssueCode::PLATFORM_IMAGE_FORMAT, f,
                Cat(name, " ends in .", type.extension, "; ", ctx.channel_names(m), " takes ",
                    takes));
}

void CheckLink(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const std::string_view link = ctx.value(Field::kLink);
  const ChannelMask m = PacksWhere(spec, [](const ChannelPack& p) { return p.check_urls; });
  if (link.empty() || !m) return;
  if (!IsWellFormedHttpUrl(link)) {
    ctx.ReportFor(m, IssueCode::PLATFORM_INVALID_URL, Field::kLink,
                  "link must be an absolute http or https URL with no spaces or unescaped "
                  "characters");
    return;
  }
  CheckLength(ctx, Field::kLink, "link", link, [](const ChannelPack& p) { return p.url_limit; });
  const std::string_view host = listing::HostOf(link);
  const ChannelMask forbidden = PacksWhere(spec, [&](const ChannelPack& p) {
    for (std::string_view d : p.forbidden_link_hosts) {
      if (HostIsOrUnder(host, d)) return true;
    }
    return false;
  });
  if (forbidden) {
    ctx.ReportFor(forbidden, IssueCode::PLATFORM_INVALID_URL, Field::kLink,
                  Cat("link points to '", host, "'; ", ctx.channel_names(forbidden),
                      " wants the product page on your own site"));
  }
  CheckUrlContent(ctx, Field::kLink, link, false);
}

// One image URL (a cell, or an item of a list cell); `name` names it in messages.
void CheckOneImage(RowContext& ctx, std::string_view url, std::string_view name) {
  const ChannelMask m = PacksWhere(ctx.spec(), [](const ChannelPack& p) { return p.check_urls; });
  if (!IsWellFormedHttpUrl(url)) {
    // The product check reports it (INVALID_IMAGE_URL) when it runs.
    if (!ctx.checks(kProductCheck)) {
      ctx.ReportFor(m, IssueCode::PLATFORM_INVALID_URL, Field::kImageUrl,
                    Cat(name, " must be an absolute http or https URL"));
    }
    return;
  }
  CheckLength(ctx, Field::kImageUrl, name, url, [](const ChannelPack& p) { return p.url_limit; });
  CheckUrlContent(ctx, Field::kImageUrl, url, true, name);
}

// An item of a source's separated list (ForEachItem names the item in the message).
void CheckImageItem(RowContext& ctx) {
  CheckOneImage(ctx, ctx.value(Field::kImageUrl), "image_url");
}

// Each URL of a list cell is checked on its own, as the product check does: a JSON array of
// URLs by its own syntax (its items named in the messages), a source's separated list by its
// convention.
void CheckImage(RowContext& ctx) {
  const std::string_view cell = ctx.value(Field::kImageUrl);
  const ChannelMask m = PacksWhere(ctx.spec(), [](const ChannelPack& p) { return p.check_urls; });
  if (cell.empty() || !m) return;
  std::vector<std::string> urls;
  if (JsonStringArray(cell, &urls)) {
    const size_t n = urls.size();
    for (size_t k = 0; k < n; ++k) {
      CheckOneImage(ctx, urls[k],
                    Cat("image_url item ", Num(k + 1), " of ", Num(n)));
    }
    return;
  }
  ctx.ForEachItem(Field::kImageUrl, CheckImageItem);
}

void CheckAdditionalImages(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const std::string_view field = ctx.value(Field::kAdditionalImageLink);
  if (field.empty()) return;
  CheckLength(ctx, Field::kAdditionalImageLink, "additional_image_link", field,
              [](const ChannelPack& p) { return p.additional_images_field_limit; });
  // A JSON array of URLs (a JSON source's list) is a list by its own syntax, whatever the
  // channel's separators; otherwise the field is split at the channel's separators.
  std::vector<std::string> json_urls;
  const bool json_list = JsonStringArray(field, &json_urls);
  for (Platform p : spec.platforms) {
    const ChannelPack& pack = PackOf(p);
    if (pack.additional_images_max == 0) continue;
    const ChannelMask bit = ChannelBit(p);
    size_t count = 0;
    size_t start = 0;
    size_t next_json = 0;
    while (json_list ? next_json < json_urls.size() : start <= field.size()) {
      std::string_view url;
      if (json_list) {
        url = text::Trim(json_urls[next_json++]);
      } else {
        size_t end = field.find_first_of(pack.additional_image_separators, start);
        if (end == std::string_view::npos) end = field.size();
        url = text::Trim(field.substr(start, end - start));
        start = end + 1;
      }
      if (url.empty()) continue;
      ++count;
      if (!IsWellFormedHttpUrl(url)) {
        ctx.ReportFor(bit, IssueCode::PLATFORM_INVALID_URL, Field::kAdditionalImageLink,
                      "additional_image_link " + Quote(url.substr(0, 80)) +
                          " is not an absolute http or https URL");
        continue;
      }
      if (pack.url_limit && text::Utf8Length(url) > pack.url_limit) {
        ctx.ReportFor(bit, IssueCode::PLATFORM_VALUE_TOO_LONG, Field::kAdditionalImageLink,
                      "An additional_image_link URL has more than " +
                          std::to_string(pack.url_limit) + " characters; " +
                          std::string(PlatformName(p)) + " allows " +
                          std::to_string(pack.url_limit));
      }
      CheckUrlContent(ctx, Field::kAdditionalImageLink, url, true);
    }
    if (count > pack.additional_images_max) {
      ctx.ReportFor(bit, IssueCode::PLATFORM_VALUE_TOO_LONG, Field::kAdditionalImageLink,
                    "additional_image_link lists " + std::to_string(count) + " images; " +
                        std::string(PlatformName(p)) + " takes " +
                        std::to_string(pack.additional_images_max));
    }
  }
}

// --- Price, sale and availability ----------------------------------------------------------

// A money value split into its amount and an ISO 4217 code written before or after it
// ("15.00 USD", "USD 15.00"); code empty when there is none.
struct Money {
  std::string_view amount;
  std::string_view code;
};

bool IsUpperCode(std::string_view s) {
  return s.size() == 3 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' && s[2] >= 'A' &&
         s[2] <= 'Z';
}

Money SplitMoney(const RowContext& ctx, std::string_view v) {
  v = text::Trim(v);
  Money m{v, {}};
  if (v.size() > 4) {
    const std::string_view tail = v.substr(v.size() - 3), head = v.substr(0, 3);
    if (IsUpperCode(tail) && ctx.ref().IsCurrency(tail) && text::IsSpace(v[v.size() - 4])) {
      m = {text::Trim(v.substr(0, v.size() - 3)), tail};
    } else if (IsUpperCode(head) && ctx.ref().IsCurrency(head) && text::IsSpace(v[3])) {
      m = {text::Trim(v.substr(3)), head};
    }
  }
  return m;
}

// Digits with only '.', ',', spaces or apostrophes between them: an amount that names no
// currency at all. (A currency sign without a code, "$15", is the product check's to judge.)
bool IsBareNumber(std::string_view v) {
  v = text::Trim(v);
  bool digit = false;
  for (char c : v) {
    if (text::IsDigit(c)) {
      digit = true;
    } else if (c != '.' && c != ',' && c != ' ' && c != '\'') {
      return false;
    }
  }
  return digit;
}

std::optional<double> AmountOf(std::string_view amount) {
  if (auto plain = text::ParsePlainDecimal(amount)) return plain;
  const text::Amount a = text::ReadAmount(amount);
  if (a.form == text::AmountForm::kPlain || a.form == text::AmountForm::kReformatted ||
      a.form == text::AmountForm::kDecimalComma) {
    return text::ParsePlainDecimal(a.value);
  }
  return std::nullopt;
}

std::string FormatAmount(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", v);
  return buf;
}

void CheckPrices(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const ChannelMask needs_currency =
      PacksWhere(spec, [](const ChannelPack& p) { return p.price_currency; });
  const ChannelMask sale = PacksWhere(spec, [](const ChannelPack& p) { return p.sale_price; });
  if (!needs_currency && !sale) return;
  // The currency column, when it holds a valid code (the product check judges it otherwise).
  std::string_view column;
  if (const std::string_view c = ctx.value(Field::kCurrency); ctx.ref().IsCurrency(c)) column = c;
  const std::string_view price_text = ctx.original(Field::kPrice);
  const Money price = SplitMoney(ctx, price_text);
  const std::string_view price_code = price.code.empty() ? column : price.code;
  if (needs_currency && price_code.empty() && IsBareNumber(price_text)) {
    ctx.ReportFor(needs_currency, IssueCode::PLATFORM_PRICE_CURRENCY, Field::kPrice,
                  Cat("price has no ISO 4217 currency; ", ctx.channel_names(needs_currency),
                      " wants the amount and the code, such as 15.00 USD, or a currency column"));
  }
  if (!sale) return;
  const std::string_view sale_text = ctx.value(Field::kSalePrice);
  if (!sale_text.empty()) {
    const Money s = SplitMoney(ctx, sale_text);
    const std::optional<double> amount = AmountOf(s.amount);
    if (!amount || *amount <= 0) {
      ctx.ReportFor(sale, IssueCode::PLATFORM_INVALID_SALE_PRICE, Field::kSalePrice,
                    "sale_price must be a positive amount such as 15.00 USD");
    } else {
      const std::string_view sale_code = s.code.empty() ? column : s.code;
      if (!sale_code.empty() && !price_code.empty() && sale_code != price_code) {
        ctx.ReportFor(
            sale, IssueCode::PLATFORM_INVALID_SALE_PRICE, Field::kSalePrice,
            "sale_price is in " + std::string(sale_code) + ", price in " + std::string(price_code));
      } else if ((needs_currency & sale) != 0 && sale_code.empty() && IsBareNumber(s.amount)) {
        ctx.ReportFor(needs_currency & sale, IssueCode::PLATFORM_PRICE_CURRENCY, Field::kSalePrice,
                      "sale_price has no ISO 4217 currency; write it as the price is written, "
                      "such as 15.00 USD");
      }
      std::optional<double> regular = text::ParsePlainDecimal(ctx.value(Field::kPrice));
      if (!regular) regular = AmountOf(price.amount);
      if (regular && *regular > 0 && *amount >= *regular) {
        ctx.ReportFor(sale, IssueCode::PLATFORM_SALE_PRICE_NOT_LOWER, Field::kSalePrice,
                      "sale_price " + FormatAmount(*amount) + " is not below price " +
                          FormatAmount(*regular));
      }
    }
  }
  const std::string_view dates = ctx.value(Field::kSalePriceEffectiveDate);
  if (dates.empty()) return;
  CheckLength(ctx, Field::kSalePriceEffectiveDate, "sale_price_effective_date", dates,
              [](const ChannelPack& p) { return p.sale_dates_limit; });
  const size_t slash = dates.find('/');
  int32_t start = 0, end = 0;
  const bool parsed =
      slash != std::string_view::npos &&
      iso_date::ParseDate(text::Trim(dates.substr(0, slash)), &start) == iso_date::Parse::kOk &&
      iso_date::ParseDate(text::Trim(dates.substr(slash + 1)), &end) == iso_date::Parse::kOk;
  if (!parsed) {
    ctx.ReportFor(sale, IssueCode::PLATFORM_INVALID_DATE, Field::kSalePriceEffectiveDate,
                  "sale_price_effective_date must be two ISO 8601 dates separated by '/', such "
                  "as 2026-11-27T00:00-0800/2026-11-30T23:59-0800");
  } else if (start > end ||
             text::Trim(dates.substr(0, slash)) == text::Trim(dates.substr(slash + 1))) {
    ctx.ReportFor(sale, IssueCode::PLATFORM_INVALID_DATE, Field::kSalePriceEffectiveDate,
                  "sale_price_effective_date starts after it ends");
  }
}

// --- Shipping weight ------------------------------------------------------------------------

// The weight as the channels with weight_units want it: a number and one of their units
// ("0.3 kg", "2lb"; units without case). A bare number, another unit, a value that is not a
// number, a negative number, or one over a pack's limit is PLATFORM_INVALID_WEIGHT for the packs
// that find fault. Empty: nothing (no pack requires a weight). Zero is left to the shipping
// check's INVALID_WEIGHT: Google's limits start at 0. With the shipping check selected, what it
// reports as INVALID_WEIGHT is not reported again.
void CheckShippingWeight(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const ChannelMask units =
      PacksWhere(spec, [](const ChannelPack& p) { return !p.weight_units.empty(); });
  if (!units) return;
  const std::string_view v = text::Trim(ctx.value(Field::kWeight));
  if (v.empty()) return;
  std::span<const std::string_view> listed;  // the first such pack's units, for messages
  for (Platform p : spec.platforms) {
    if (!PackOf(p).weight_units.empty()) {
      listed = PackOf(p).weight_units;
      break;
    }
  }
  // Messages are built only when reporting: a clean value allocates nothing.
  auto wants = [&] {
    return (std::popcount(units) > 1 ? " want" : " wants") +
           std::string(" a number and its unit (") + ListText(listed) + ")";
  };
  size_t split = v.size();
  while (split > 0 && text::IsAsciiAlpha(v[split - 1])) --split;
  std::string_view number = text::Trim(v.substr(0, split));
  const std::string_view unit_text = v.substr(split);
  const bool negative = !number.empty() && number.front() == '-';
  if (negative) number = text::Trim(number.substr(1));
  const std::optional<double> n = number.empty() ? std::nullopt : AmountOf(number);
  // What the shipping check, when selected, already reports as INVALID_WEIGHT (no double
  // report): a value that is not a number, a negative one, a unit it cannot convert.
  const bool shipping_judges = ctx.checks(kShippingCheck);
  if (!n) {
    if (shipping_judges) return;
    ctx.ReportFor(units, IssueCode::PLATFORM_INVALID_WEIGHT, Field::kWeight,
                  "shipping weight " + Quote(v) + " is not a number and a unit; " +
                      ChannelNames(spec, units) + wants() + ", such as 0.3 kg");
    return;
  }
  if (negative && *n > 0) {
    if (shipping_judges) return;
    ctx.ReportFor(units, IssueCode::PLATFORM_INVALID_WEIGHT, Field::kWeight,
                  "shipping weight " + std::string(v) + " is negative");
    return;
  }
  if (unit_text.empty()) {
    // The column's unit certain (its header, or weight_unit): the shipping check adds it.
    const bool hint = !spec.weight_unit.empty() && spec.weight_unit_known;
    using SV = std::string_view;
    ctx.ReportFor(units, IssueCode::PLATFORM_INVALID_WEIGHT, Field::kWeight,
                  Cat("shipping weight ", v, " has no unit; ", ctx.channel_names(units),
                      std::popcount(units) > 1 ? " want" : " wants", " a number and its unit (",
                      ListText(listed), "), such as 0.3 kg",
                      hint ? SV("; the column is in ") : SV(), hint ? SV(spec.weight_unit) : SV(),
                      hint ? SV(": the shipping check adds the unit") : SV()));
    return;
  }
  char buf[16];
  const std::string_view unit = LowerInto(unit_text, buf, sizeof buf);
  const ChannelMask unlisted = PacksWhere(spec, [&](const ChannelPack& p) {
    return !p.weight_units.empty() && !InList(p.weight_units, unit);
  });
  if (unlisted) {
    const auto known = text::ReadUnitWeight(v);
    if (shipping_judges && !known) return;
    // A unit the shipping check knows: it writes the channels' symbol (WEIGHT_UNIT_NORMALIZED).
    const std::string hint = known && !shipping_judges
                                 ? "; the shipping check writes it " + known->number + " " +
                                       std::string(known->symbol)
                                 : std::string();
    ctx.ReportFor(unlisted, IssueCode::PLATFORM_INVALID_WEIGHT, Field::kWeight,
                  "shipping weight unit " + Quote(unit_text) + " is not one " +
                      ChannelNames(spec, unlisted) +
                      (std::popcount(unlisted) > 1 ? " take: " : " takes: ") + ListText(listed) +
                      hint);
    return;
  }
  const bool imperial = unit == "lb" || unit == "oz";
  const double amount = unit == "oz" ? *n / 16 : unit == "g" ? *n / 1000 : *n;  // lb or kg
  const ChannelMask over = PacksWhere(spec, [&](const ChannelPack& p) {
    const double max = imperial ? p.weight_max_lb : p.weight_max_kg;
    return !p.weight_units.empty() && max > 0 && amount > max;
  });
  if (over) {
    double max = 0;
    for (Platform p : spec.platforms) {
      if ((over & ChannelBit(p)) == 0) continue;
      max = imperial ? PackOf(p).weight_max_lb : PackOf(p).weight_max_kg;
      break;
    }
    char limit[48];
    std::snprintf(limit, sizeof limit, "%g %s", max, imperial ? "lb" : "kg");
    ctx.ReportFor(over, IssueCode::PLATFORM_INVALID_WEIGHT, Field::kWeight,
                  "shipping weight " + std::string(v) + " is over the limit of " + limit + " (" +
                      ChannelNames(spec, over) + ")");
  }
}

void CheckAvailability(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const std::string_view v = ctx.value(Field::kAvailability);
  if (v.empty()) return;  // PLATFORM_MISSING_FIELD
  char buf[32];
  const std::string_view lower = LowerInto(v, buf, sizeof(buf));
  // The product check reports (INVALID_AVAILABILITY) a value that is neither one of its own
  // (after its fixes) nor accepted by a selected template.
  const bool own = v == "in_stock" || v == "out_of_stock" || v == "preorder";
  const bool general =
      ctx.checks(kProductCheck) && !own && !AvailabilityAcceptedByAPlatform(spec, v);
  const ChannelMask bad = PacksWhere(spec, [&](const ChannelPack& p) {
    return !p.availability.empty() && !InList(p.availability, lower);
  });
  if (bad && !general) {
    for (Platform p : spec.platforms) {
      if (!(bad & ChannelBit(p))) continue;
      ctx.ReportFor(ChannelBit(p), IssueCode::PLATFORM_INVALID_AVAILABILITY, Field::kAvailability,
                    Cat(PlatformName(p), " takes ", ListText(PackOf(p).availability), ", not '",
                        v.substr(0, 40), "'"));
    }
  }
  const bool later = lower == "preorder" || lower == "backorder";
  const std::string_view date = ctx.value(Field::kAvailabilityDate);
  if (later && date.empty()) {
    const ChannelMask m =
        PacksWhere(spec, [](const ChannelPack& p) { return p.availability_date_required; });
    if (m) {
      ctx.ReportFor(m, IssueCode::PLATFORM_MISSING_FIELD, Field::kAvailabilityDate,
                    Cat(ctx.channel_names(m), " requires availability_date for ", lower,
                        " items"));
    }
  }
  if (date.empty()) return;
  const ChannelMask m =
      PacksWhere(spec, [](const ChannelPack& p) { return p.availability_date_limit != 0; });
  if (!m) return;
  CheckLength(ctx, Field::kAvailabilityDate, "availability_date", date,
              [](const ChannelPack& p) { return p.availability_date_limit; });
  int32_t day = 0;
  if (iso_date::ParseDate(date, &day) != iso_date::Parse::kOk) {
    ctx.ReportFor(m, IssueCode::PLATFORM_INVALID_DATE, Field::kAvailabilityDate,
                  "availability_date must be an ISO 8601 date, such as 2026-02-24T11:07+0100");
    return;
  }
  const ChannelMask year =
      PacksWhere(spec, [](const ChannelPack& p) { return p.availability_date_within_a_year; });
  if (year && lower == "preorder" && spec.today && day > *spec.today + 366) {
    ctx.ReportFor(year, IssueCode::PLATFORM_INVALID_DATE, Field::kAvailabilityDate,
                  "availability_date of a preorder is more than a year ahead");
  }
}

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
                      v.substr(0, 40), "'"));
  }
}

// A word of the title (whole word, ASCII case-insensitive) that says the item is not new: the
// first word of the list found anywhere, at its first place.
std::string_view UsedWordInTitle(std::string_view title) {
  static constexpr std::string_view kWords[] = {"refurbished", "renewed",     "pre-owned",
                                                "preowned",    "second-hand", "secondhand"};
  constexpr size_t kCount = std::size(kWords);
  // One pass over the title's word starts ('r', 'p' or 's' after no letter), noting each word's
  // first place.
  size_t first[kCount];
  std::fill(first, first + kCount, SIZE_MAX);
  size_t found = 0;
  for (size_t at = 0; at < title.size() && found < kCount; ++at) {
    const char c = text::ToLower(title[at]);
    if ((c != 'r' && c != 'p' && c != 's') || (at > 0 && text::IsAsciiAlpha(title[at - 1]))) {
      continue;
    }
    for (size_t j = 0; j < kCount; ++j) {
      const std::string_view w = kWords[j];
      if (first[j] != SIZE_MAX || w[0] != c || at + w.size() > title.size()) continue;
      bool eq = true;
      for (size_t k = 1; k < w.size() && eq; ++k) eq = text::ToLower(title[at + k]) == w[k];
      if (!eq) continue;
      if (at + w.size() < title.size() && text::IsAsciiAlpha(title[at + w.size()])) continue;
      first[j] = at;
      ++found;
    }
  }
  for (size_t j = 0; j < kCount; ++j) {
    if (first[j] != SIZE_MAX) return title.substr(first[j], kWords[j].size());
  }
  return {};
}

void CheckCondition(RowContext& ctx) {
  CheckVocabulary(ctx, Field::kCondition, &ChannelPack::condition);
  if (!ctx.value(Field::kCondition).empty()) return;
  const ChannelMask m =
      PacksWhere(ctx.spec(), [](const ChannelPack& p) { return p.condition_from_title; });
  if (!m) return;
  if (const std::string_view w = UsedWordInTitle(ctx.value(Field::kTitle)); !w.empty()) {
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
                       : "google_product_category " + Quote(v.substr(0, 80)) +
                             " is not a category id or path of Google's product taxonomy " +
                             taxonomy.version());
  }
  return id;
}

}  // namespace

void CheckChannelPacks(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const std::string_view sku = ctx.value(Field::kSku);
  CheckLength(ctx, Field::kSku, "id (sku)", sku, [](const ChannelPack& p) { return p.id_limit; });
  if (!ctx.checks(kProductCheck) && !sku.empty()) {  // else the product check's DUPLICATE_SKU
    if (const ChannelMask m = PacksWhere(spec, [](const ChannelPack& p) { return p.unique_id; })) {
      ctx.ReportIfUsedBeforeFor(m, KeySet::kSku, sku, IssueCode::DUPLICATE_SKU, Field::kSku,
                                "SKU is already used by row ");
    }
  }
  CheckTitle(ctx);
  CheckDescription(ctx);
  CheckLink(ctx);
  CheckImage(ctx);
  CheckAdditionalImages(ctx);
  CheckPrices(ctx);
  if (ctx.mapped(Field::kWeight)) CheckShippingWeight(ctx);
  CheckAvailability(ctx);
  CheckCondition(ctx);
  CheckIdentifiers(ctx);
  CheckLength(ctx, Field::kProductType, "product_type", ctx.value(Field::kProductType),
              [](const ChannelPack& p) { return p.product_type_limit; });
  CheckApparel(ctx, CheckGoogleCategory(ctx));
}

}  // namespace dq::validator::rules
