// Fixes in the target channel's format (rules.h): Merchant Center's and Meta's amounts,
// "15.00 USD".
#include <string>

#include "reference_data.h"
#include "text.h"
#include "channel_pack.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

// An amount written with its ISO 4217 code: "15.00 USD" or "USD 15.00".
struct Coded {
  std::string_view number;
  char code[3];
  bool canonical;  // "<number> <CODE>": one space, the code after the number, upper case
};

bool IsThreeLetters(std::string_view s) {
  return s.size() == 3 && text::IsAsciiAlpha(s[0]) && text::IsAsciiAlpha(s[1]) &&
         text::IsAsciiAlpha(s[2]);
}

std::optional<Coded> SplitCode(std::string_view v) {
  if (v.size() < 5) return std::nullopt;
  Coded c{};
  std::string_view letters;
  if (const size_t sp = v.rfind(' ');
      sp != std::string_view::npos && IsThreeLetters(v.substr(sp + 1))) {
    letters = v.substr(sp + 1);
    c.number = text::Trim(v.substr(0, sp));
    c.canonical = c.number.size() == sp;
  } else if (const size_t first = v.find(' ');
             first != std::string_view::npos && IsThreeLetters(v.substr(0, first))) {
    letters = v.substr(0, first);
    c.number = text::Trim(v.substr(first + 1));
    c.canonical = false;
  } else {
    return std::nullopt;
  }
  for (size_t i = 0; i < 3; ++i) {
    c.code[i] = text::ToUpper(letters[i]);
    c.canonical = c.canonical && c.code[i] == letters[i];
  }
  return c;
}

// Currency signs, longest first; `code` is empty when the sign is shared by several currencies.
struct Sign {
  std::string_view text;
  std::string_view code;
};
constexpr Sign kSigns[] = {{"US$", "USD"},           {"CA$", "CAD"}, {"AU$", "AUD"},
                           {"NZ$", "NZD"},           {"HK$", "HKD"}, {"R$", "BRL"},
                           {"S$", "SGD"},
                           {"\xE2\x82\xAC", "EUR"},  // €
                           {"\xC2\xA3", "GBP"},      // £
                           {"\xE2\x82\xB9", "INR"},  // ₹
                           {"$", ""},
                           {"\xC2\xA5", ""}};  // ¥

// Currencies written with a bare $ or a bare yen sign.
bool SharesSign(std::string_view sign, std::string_view code) {
  static constexpr std::string_view kDollars[] = {"USD", "CAD", "AUD", "NZD", "HKD", "SGD",
                                                  "TWD", "MXN", "ARS", "CLP", "COP"};
  if (sign == "$") {
    for (std::string_view d : kDollars) {
      if (d == code) return true;
    }
    return false;
  }
  return code == "JPY" || code == "CNY";
}

// The currency a sign certainly names in this row, or empty: the sign's own currency, or for a
// shared sign the row's currency field when it is valid and written with that sign. A row
// currency that disagrees with the sign makes it uncertain.
std::string RowCurrency(const RowContext& ctx) {
  if (!ctx.mapped(Field::kCurrency)) return {};
  const std::string_view v = ctx.value(Field::kCurrency);
  if (v.size() != 3) return {};
  std::string up = {text::ToUpper(v[0]), text::ToUpper(v[1]), text::ToUpper(v[2])};
  return ctx.ref().IsCurrency(up) ? up : std::string();
}

std::string CertainCurrency(const RowContext& ctx, const Sign& sign) {
  const std::string row = RowCurrency(ctx);
  if (!sign.code.empty()) return row.empty() || row == sign.code ? std::string(sign.code) : "";
  return !row.empty() && SharesSign(sign.text, row) ? row : "";
}

IssueCode InvalidAmountCode(Field f) {
  switch (f) {
    case Field::kCompareAtPrice: return IssueCode::INVALID_COMPARE_AT_PRICE;
    case Field::kCostPrice: return IssueCode::INVALID_COST_PRICE;
    case Field::kDeclaredValue: return IssueCode::INVALID_DECLARED_VALUE;
    default: return IssueCode::INVALID_PRICE;
  }
}

// A plain decimal with at least two decimals: "15" -> "15.00", "4.5" -> "4.50".
std::string TwoDecimals(std::string_view plain) {
  std::string out(plain);
  const size_t dot = out.find('.');
  if (dot == std::string::npos) return out + ".00";
  if (out.size() - dot - 1 < 2) out.append(2 - (out.size() - dot - 1), '0');
  return out;
}

IssueCode FixCode(text::AmountForm form) {
  return form == text::AmountForm::kDecimalComma ? IssueCode::DECIMAL_COMMA_FIXED
                                                 : IssueCode::PRICE_REFORMATTED;
}

// The selected channels whose amounts carry their code, as messages name them, with the verb:
// "Merchant Center needs", "Merchant Center and Meta need".
std::string ChannelsNeed(const BatchSpec& spec) {
  std::string names;
  int count = 0;
  for (Platform p : spec.platforms) {
    if (!PackOf(p).price_currency) continue;
    if (count++ > 0) names += " and ";
    names += p == Platform::kSearchMerchant  ? "Merchant Center"
             : p == Platform::kSocialCatalog ? "Meta"
                                             : PlatformName(p);
  }
  return names + (count > 1 ? " need" : " needs");
}

}  // namespace

bool CodedAmounts(const BatchSpec& spec) {
  for (Platform p : spec.platforms) {
    if (PackOf(p).price_currency) return true;
  }
  return false;
}

// The number of "<number> <CODE>" (its code valid): "15.00 USD" is valid as it is; a decimal
// comma or separators in the number, or the code first or in lower case, are fixed keeping the
// code after the number; an ambiguous number is reported (*reported set).
void JudgeCodedNumber(RowContext& ctx, Field f, const Coded& coded, std::optional<double>* value,
                      bool* reported) {
  const std::string code(coded.code, 3);
  // The rupee's commas only group digits ("1,39,900 INR"): read with its code, which says so,
  // as the product check reads "INR 1,099" and this check "₹1,099".
  std::string rupee;
  std::string_view number = coded.number;
  if (code == "INR") number = rupee = "INR " + std::string(coded.number);
  text::Amount a = text::ReadAmount(number);
  switch (a.form) {
    case text::AmountForm::kUnreadable: return;
    case text::AmountForm::kAmbiguous:
      ReportAmbiguousAmount(ctx, f, coded.number);
      if (reported) *reported = true;
      return;
    case text::AmountForm::kPlain:
      if (coded.canonical) break;  // "15.00 USD": the channel's own form
      [[fallthrough]];
    case text::AmountForm::kReformatted:
    case text::AmountForm::kDecimalComma:
      ctx.Fix(f, a.value + " " + code, FixCode(a.form));
      break;
  }
  *value = text::ParsePlainDecimal(a.value);
}

bool MerchantAmount(RowContext& ctx, Field f, std::optional<double>* value, bool* reported) {
  const std::string_view v = ctx.value(f);
  const std::string need = ChannelsNeed(ctx.spec());
  *value = std::nullopt;
  auto report = [&](std::string message) {
    ctx.Report(InvalidAmountCode(f), f, std::move(message));
    if (reported) *reported = true;
  };
  if (const auto coded = SplitCode(v)) {
    const std::string code(coded->code, 3);
    if (!ctx.ref().IsCurrency(code)) {
      report(code + " is not an ISO 4217 currency code; " + need +
             " the amount and its code, such as 15.00 USD");
      return true;
    }
    JudgeCodedNumber(ctx, f, *coded, value, reported);
    return true;
  }
  for (const Sign& sign : kSigns) {
    std::string_view number;
    if (v.size() > sign.text.size() && v.substr(0, sign.text.size()) == sign.text) {
      number = v.substr(sign.text.size());
    } else if (v.size() > sign.text.size() && v.substr(v.size() - sign.text.size()) == sign.text) {
      number = v.substr(0, v.size() - sign.text.size());
    } else {
      continue;
    }
    number = text::Trim(number);
    // The rupee's commas only group digits ("₹1,39,900"): read with its sign, which says so.
    const text::Amount a = text::ReadAmount(sign.code == "INR" ? v : number);
    if (a.form == text::AmountForm::kUnreadable) return true;
    if (a.form == text::AmountForm::kAmbiguous) {
      ReportAmbiguousAmount(ctx, f, number);
      if (reported) *reported = true;
      return true;
    }
    const std::string code = CertainCurrency(ctx, sign);
    if (code.empty()) {
      report("The currency of " + std::string(v) + " is not certain; " + need +
             " the amount and its ISO 4217 code, such as 15.00 USD");
      return true;
    }
    ctx.Fix(f, TwoDecimals(a.value) + " " + code, FixCode(a.form));
    *value = text::ParsePlainDecimal(a.value);
    return true;
  }
  return false;
}

bool SourceCodedAmount(RowContext& ctx, Field f, std::optional<double>* value, bool* reported) {
  if (!ctx.spec().conventions[static_cast<size_t>(f)].own_number_format) return false;
  const auto coded = SplitCode(ctx.value(f));
  if (!coded || !ctx.ref().IsCurrency(std::string_view(coded->code, 3))) return false;
  *value = std::nullopt;
  JudgeCodedNumber(ctx, f, *coded, value, reported);
  return true;
}

std::string_view AmountNumber(const RowContext& ctx, std::string_view v) {
  if (!CodedAmounts(ctx.spec()) &&
      !ctx.spec().conventions[static_cast<size_t>(Field::kPrice)].own_number_format) {
    return v;
  }
  if (const auto coded = SplitCode(v); coded && coded->canonical) return coded->number;
  return v;
}

}  // namespace dq::validator::rules
