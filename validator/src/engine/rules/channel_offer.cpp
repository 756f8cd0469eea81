// The channel packs' checks of the offer: price and sale price with their dates, shipping weight,
// availability (channel_checks.h).
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
                      std::popcount(needs_currency) == 1 ? " wants" : " want",
                      " the amount and the code, such as 15.00 USD, or a currency column"));
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
  std::string_view listed;  // the first such pack's units, for messages
  for (Platform p : spec.platforms) {
    if (!PackOf(p).weight_units.empty()) {
      listed = PackListText<&ChannelPack::weight_units>(p);
      break;
    }
  }
  // Messages are built only when reporting: a clean value allocates nothing.
  auto wants = [&] {
    return (std::popcount(units) > 1 ? " want" : " wants") +
           std::string(" a number and its unit (") + std::string(listed) + ")";
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
    // The column's unit certain (its header, or weight_unit), or the row's (its weight_unit
    // cell, when readable): the shipping check adds it.
    using SV = std::string_view;
    SV unit = spec.weight_unit_known ? SV(spec.weight_unit) : SV();
    SV whose = "; the column is in ";
    if (const SV cell = ctx.mapped(Field::kWeightUnit) ? text::Trim(ctx.value(Field::kWeightUnit))
                                                       : SV();
        !cell.empty()) {
      const auto row_unit = text::ReadWeightUnit(cell);
      unit = row_unit ? row_unit->symbol : SV();
      whose = "; the row's unit is ";
    }
    const bool hint = !unit.empty();
    ctx.ReportFor(units, IssueCode::PLATFORM_INVALID_WEIGHT, Field::kWeight,
                  Cat("shipping weight ", v, " has no unit; ", ctx.channel_names(units),
                      std::popcount(units) > 1 ? " want" : " wants", " a number and its unit (",
                      listed, "), such as 0.3 kg", hint ? whose : SV(),
                      hint ? unit : SV(), hint ? SV(": the shipping check adds the unit") : SV()));
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
                      (std::popcount(unlisted) > 1 ? " take: " : " takes: ") +
                      std::string(listed) + hint);
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
  const ChannelMask bad = PacksNotListing<&ChannelPack::availability>(spec, lower);
  if (bad && !general) {
    for (Platform p : spec.platforms) {
      if (!(bad & ChannelBit(p))) continue;
      ctx.ReportFor(ChannelBit(p), IssueCode::PLATFORM_INVALID_AVAILABILITY, Field::kAvailability,
                    Cat(PlatformName(p), " takes ", PackListText<&ChannelPack::availability>(p),
                        ", not '", text::Utf8Prefix(v, 40), "'"));
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

}  // namespace dq::validator::rules::channel
