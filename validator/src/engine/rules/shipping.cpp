// The shipping check: HS code, VAT number, country of origin, declared value (declared_value, or
// the price when declared_value is not mapped) and weight. The shipping check's core requires no
// field: an empty value is reported only when a platform template requires it (weight).
#include <algorithm>
#include <optional>
#include <string>

#include "text.h"
#include "vat.h"
#include "channel_pack.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

constexpr double kMinPlausibleGrams = 1;
constexpr double kMaxPlausibleGrams = 1'000'000;  // one tonne

bool IsHsSeparator(char c) { return c == '.' || c == ' ' || c == '-'; }

void CheckHsCode(RowContext& ctx) {
  std::string_view v = ctx.value(Field::kHsCode);
  if (v.empty()) return;  // never required
  bool has_separator = false;
  for (char c : v) has_separator |= IsHsSeparator(c);
  if (has_separator) {
    std::string digits;
    for (char c : v) {
      if (!IsHsSeparator(c)) digits.push_back(c);
    }
    if (!text::IsAllDigits(digits)) {
      ctx.Report(IssueCode::INVALID_HS_CODE, Field::kHsCode);
      return;
    }
    ctx.Fix(Field::kHsCode, std::move(digits), IssueCode::HS_CODE_REFORMATTED);
    v = ctx.value(Field::kHsCode);
  }
  // A spreadsheet that took the code for a number dropped the leading 0 of chapters 01-09.
  if (text::IsAllDigits(v) && (v.size() == 5 || v.size() == 7 || v.size() == 9) && v[0] != '0') {
    std::string padded = "0";  // appended, not "0" + string: GCC 12 warns (-Wrestrict)
    padded.append(v);
    ctx.Fix(Field::kHsCode, std::move(padded), IssueCode::HS_LEADING_ZERO_RESTORED);
    v = ctx.value(Field::kHsCode);
  }
  if (!text::IsAllDigits(v) || (v.size() != 6 && v.size() != 8 && v.size() != 10)) {
    ctx.Report(IssueCode::INVALID_HS_CODE, Field::kHsCode);
    return;
  }
  const int chapter = (v[0] - '0') * 10 + (v[1] - '0');
  if (chapter == 0) {
    ctx.Report(IssueCode::INVALID_HS_CODE, Field::kHsCode, "HS chapter 00 does not exist");
  } else if (chapter == 77) {
    ctx.Report(IssueCode::HS_RESERVED_CHAPTER, Field::kHsCode);
  } else if (chapter >= 98) {
    ctx.Report(IssueCode::HS_NATIONAL_CHAPTER, Field::kHsCode);
  }
}

void CheckVat(RowContext& ctx) {
  const std::string_view v = ctx.value(Field::kVatNumber);
  if (v.empty()) return;
  char buf[32];
  size_t n = 0;
  for (char c : v) {
    if (c == ' ' || c == '.' || c == '-' || c == '/') continue;
    if (n == sizeof(buf)) {
      ctx.Report(IssueCode::INVALID_VAT_FORMAT, Field::kVatNumber, "VAT number is too long");
      return;
    }
    buf[n++] = text::ToUpper(c);
  }
  const std::string_view compact(buf, n);
  switch (vat::Check(compact)) {
    case vat::Verdict::kValid:
      // Greece's number under its ISO code GR is the same number; VIES and invoices want EL.
      if (compact.substr(0, 2) == "GR") {
        std::string fixed = "EL";
        if (compact.size() == 10) fixed.push_back('0');  // a pre-1999 8-digit number
        fixed.append(compact.substr(2));
        ctx.Fix(Field::kVatNumber, std::move(fixed), IssueCode::VAT_PREFIX_NORMALIZED);
      }
      return;
    case vat::Verdict::kUnknownCountry:
      ctx.Report(IssueCode::UNKNOWN_VAT_COUNTRY, Field::kVatNumber);
      return;
    case vat::Verdict::kBadFormat:
      ctx.Report(IssueCode::INVALID_VAT_FORMAT, Field::kVatNumber);
      return;
    case vat::Verdict::kBadChecksum:
      ctx.Report(IssueCode::INVALID_VAT_CHECKSUM, Field::kVatNumber);
      return;
  }
}

// Judges a weight in grams: positive, and between 1 g and one tonne.
void JudgeGrams(RowContext& ctx, double grams) {
  if (grams <= 0) {
    ctx.Report(IssueCode::INVALID_WEIGHT, Field::kWeight);
  } else if (grams < kMinPlausibleGrams || grams > kMaxPlausibleGrams) {
    ctx.Report(IssueCode::IMPLAUSIBLE_WEIGHT, Field::kWeight);
  }
}

// A value with its own unit, for the selected channels that want the unit (weight_units: lb,
// oz, g, kg, without case, a space optional): a unit none of them takes as written but whose
// meaning is certain ("2 lbs", "500 grams", "1.5 KGS") is written as its symbol after the same
// number, "2 lb". A unit the channels take ("2 LB", "2lb") is left as written.
void SpellUnitForChannels(RowContext& ctx, const text::UnitWeight& w, ChannelMask with_units) {
  char buf[16];
  size_t n = 0;
  for (char c : w.unit) buf[n++] = text::ToLower(c);  // ReadUnitWeight: at most 16 letters
  auto taking = [&](std::string_view unit) {
    return PacksWhere(ctx.spec(), [&](const ChannelPack& p) {
      return std::find(p.weight_units.begin(), p.weight_units.end(), unit) !=
             p.weight_units.end();
    });
  };
  // Every channel takes the symbol, and one at least refuses the unit as written.
  if (taking(w.symbol) != with_units || taking(std::string_view(buf, n)) == with_units) return;
  std::string fixed = w.number;
  fixed.push_back(' ');
  fixed.append(w.symbol);
  ctx.Fix(Field::kWeight, std::move(fixed), IssueCode::WEIGHT_UNIT_NORMALIZED);
}

// The unit of a bare weight on this row: the row's own (a weight_unit column, when mapped and
// filled) before the column's (BatchSpec::weight_unit).
struct BareUnit {
  bool known = true;         // false: not assumed to be grams, only checked as non-negative
  double grams_per_unit = 0;  // 0: grams (or unknown)
  std::string_view symbol;   // "" when grams only by default, or unknown
  bool from_row = false;     // the row's weight_unit cell gave it (or was unreadable)
};

BareUnit UnitOfBareWeight(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const BareUnit column{spec.weight_unit_known, spec.weight_grams_per_unit, spec.weight_unit};
  if (!ctx.mapped(Field::kWeightUnit)) return column;
  const std::string_view cell = text::Trim(ctx.value(Field::kWeightUnit));
  if (cell.empty()) return column;
  if (const auto u = text::ReadWeightUnit(cell)) return {true, u->grams, u->symbol, true};
  return {false, 0, {}, true};  // CheckWeightUnit reports it
}

// The row's weight_unit cell: empty, or a unit ReadWeightUnit reads.
void CheckWeightUnit(RowContext& ctx) {
  const std::string_view cell = text::Trim(ctx.value(Field::kWeightUnit));
  if (cell.empty() || text::ReadWeightUnit(cell)) return;
  ctx.Report(IssueCode::INVALID_WEIGHT_UNIT, Field::kWeightUnit,
             "Weight unit '" + std::string(cell) +
                 "' is not g, kg, lb or oz (nor lbs, grams, ounces, ...); the row's weight was "
                 "checked only as a non-negative number");
}

// A value with its own unit ("1.2 kg") written as a bare number in the column's unit, which the
// file's import reads it in: grams when the column names none (WEIGHT_CONVERTED_TO_GRAMS), else
// the unit its header, the source or the request names (WEIGHT_CONVERTED_TO_COLUMN_UNIT: "500 g"
// in Weight (kg) becomes 0.5).
void ConvertToColumnUnit(RowContext& ctx, const text::UnitWeight& w, const BareUnit& column) {
  if (column.grams_per_unit <= 0 || column.symbol == "g") {
    ctx.Fix(Field::kWeight, text::FormatGrams(w.grams), IssueCode::WEIGHT_CONVERTED_TO_GRAMS);
    return;
  }
  ctx.Fix(Field::kWeight, text::FormatWeight(w.grams / column.grams_per_unit),
          IssueCode::WEIGHT_CONVERTED_TO_COLUMN_UNIT);
}

// A bare number is in the unit the column's header names (BatchSpec::weight_unit: Weight (kg),
// the source's default, the request's weight_unit), in grams when none is named, or of an
// unknown unit ("unknown": only checked as a non-negative number). It is judged in grams and
// never rewritten in grams: the file's import reads it in the column's unit (issue 31, point 6:
// WooCommerce's Weight (lbs), PrestaShop's kilograms). A weight with its own unit ("1.2 kg") is
// written as a bare number in the column's unit (ConvertToColumnUnit). It keeps its unit,
// judged in grams and not rewritten, when a selected template's channel wants the unit
// (ChannelPack::weight_units: Merchant Center's and Meta's shipping_weight, "0.3 kg"; a fix
// never strips the unit from a channel's feed), when the column's unit is unknown (a bare 300
// would be read back in the store's unit), and on a row whose unit is in a weight_unit column of
// its own (the file names the unit beside the number).
void CheckWeight(RowContext& ctx) {
  const std::string_view v = ctx.value(Field::kWeight);
  if (v.empty()) {
    if (ctx.Required(Field::kWeight)) {
      ctx.ReportEmpty(IssueCode::INVALID_WEIGHT, Field::kWeight, "Weight is empty");
    }
    return;
  }
  const BareUnit bare = UnitOfBareWeight(ctx);
  const bool known = bare.known;
  const ChannelMask with_units = PacksWhere(ctx.spec(), [](const ChannelPack& p) {
    return !p.weight_units.empty();
  });
  const bool keep_unit = !known || with_units != 0 || bare.from_row;
  if (const auto w = text::ReadUnitWeight(v)) {
    if (!keep_unit) {
      ConvertToColumnUnit(ctx, *w, bare);
    } else if (with_units != 0) {
      SpellUnitForChannels(ctx, *w, with_units);
    }
    JudgeGrams(ctx, w->grams);
    return;
  }
  const text::Amount a = text::ReadAmount(v);
  if (a.form == text::AmountForm::kAmbiguous) {
    ctx.Report(IssueCode::AMBIGUOUS_DECIMAL_SEPARATOR, Field::kWeight);
    return;
  }
  std::optional<double> n;
  if (a.form == text::AmountForm::kPlain || a.form == text::AmountForm::kDecimalComma) {
    n = text::ParsePlainDecimal(a.value);
  }
  if (!n) {
    ctx.Report(IssueCode::INVALID_WEIGHT, Field::kWeight,
               known ? std::string() : "Weight must be a non-negative number");
    return;
  }
  const double per_unit = bare.grams_per_unit;
  const std::string_view unit = bare.symbol;  // "" when grams only by default
  if (known && !unit.empty() && with_units != 0) {
    // The channel wants the unit, and the column's (or the row's) is certain: "0.3" in
    // Weight (kg) is 0.3 kg.
    std::string fixed = a.value;
    fixed.push_back(' ');
    fixed.append(unit);
    ctx.Fix(Field::kWeight, std::move(fixed), IssueCode::WEIGHT_UNIT_ADDED);
  } else if (a.form == text::AmountForm::kDecimalComma) {
    ctx.Fix(Field::kWeight, a.value, IssueCode::DECIMAL_COMMA_FIXED);
  }
  if (known) JudgeGrams(ctx, per_unit > 0 ? *n * per_unit : *n);
}

}  // namespace

void CheckShipping(RowContext& ctx) {
  // The declared value: its own field when mapped, else the price (which product checks
  // already when selected).
  if (ctx.mapped(Field::kDeclaredValue) && !ctx.value(Field::kDeclaredValue).empty()) {
    bool reported = false;
    const auto v = NormalizedAmount(ctx, Field::kDeclaredValue, &reported);
    if (!reported && (!v || *v <= 0)) {
      ctx.Report(IssueCode::INVALID_DECLARED_VALUE, Field::kDeclaredValue);
    }
  } else if (!ctx.mapped(Field::kDeclaredValue) && !ctx.checks(kProductCheck) &&
             ctx.mapped(Field::kPrice)) {
    CheckPriceFormat(ctx);
  }
  if (ctx.mapped(Field::kHsCode)) CheckHsCode(ctx);
  if (ctx.mapped(Field::kVatNumber)) CheckVat(ctx);
  if (ctx.mapped(Field::kCountryOfOrigin)) CheckCountryCode(ctx, Field::kCountryOfOrigin);
  if (ctx.mapped(Field::kWeightUnit)) CheckWeightUnit(ctx);
  if (ctx.mapped(Field::kWeight)) CheckWeight(ctx);
}

}  // namespace dq::validator::rules
