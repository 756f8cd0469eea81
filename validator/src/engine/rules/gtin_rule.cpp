// The product check's GTIN rule (docs/rules.md §1): separators, spreadsheet damage,
// length, GS1 check digit, UPC-E, ISBN-10/13, restricted and coupon prefixes; and the batch-level
// DUPLICATE_GTIN (one GTIN on two SKUs).
#include "gtin.h"
#include "text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

bool IsSeparator(char c) { return c == ' ' || c == '-'; }

// Fullwidth digits U+FF10..U+FF19 (EF BC 90..99 in UTF-8), typed by East Asian input methods.
bool IsFullwidthDigitAt(std::string_view v, size_t i) {
  return i + 2 < v.size() && v[i] == '\xEF' && v[i + 1] == '\xBC' &&
         static_cast<unsigned char>(v[i + 2]) >= 0x90 &&
         static_cast<unsigned char>(v[i + 2]) <= 0x99;
}

// Handles a 10-character value that may be an ISBN-10. True when it was judged.
bool CheckIsbn10(RowContext& ctx, std::string_view v) {
  if (v.size() != 10 || !text::IsAllDigits(v.substr(0, 9))) return false;
  const char last = text::ToUpper(v[9]);
  if (!text::IsDigit(last) && last != 'X') return false;
  const char isbn[10] = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], last};
  const std::string_view s(isbn, 10);
  if (gtin::Isbn10Valid(s)) {
    ctx.Report(IssueCode::GTIN_IS_ISBN10, Field::kGtin,
               "ISBN-10 should be sent as its ISBN-13, " + gtin::Isbn10To13(s));
    return true;
  }
  if (last == 'X') {
    ctx.Report(IssueCode::INVALID_ISBN, Field::kGtin, "ISBN-10 check digit is wrong");
    return true;
  }
  return false;  // ten digits that are no ISBN-10: maybe a UPC that lost two zeros
}

// One GTIN (a cell, or an item of a list cell).
void CheckOneGtin(RowContext& ctx) {
  std::string_view v = ctx.value(Field::kGtin);
  if (gtin::LooksScientific(v)) {
    ctx.Report(IssueCode::GTIN_SCIENTIFIC_NOTATION, Field::kGtin);
    return;
  }
  bool has_separator = false;
  for (char c : v) has_separator |= IsSeparator(c) || c == '\xEF';
  if (has_separator) {
    std::string stripped;
    stripped.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      if (IsFullwidthDigitAt(v, i)) {
        stripped.push_back(static_cast<char>('0' + (static_cast<unsigned char>(v[i + 2]) - 0x90)));
        i += 2;
      } else if (!IsSeparator(v[i])) {
        stripped.push_back(v[i]);
      }
    }
    // Only digits (or an ISBN-10's final X) are worth cleaning; anything else stays as it was.
    const bool clean = text::IsAllDigits(stripped) ||
                       (stripped.size() == 10 && text::IsAllDigits(stripped.substr(0, 9)) &&
                        text::ToUpper(stripped[9]) == 'X');
    if (!clean) {
      ctx.Report(IssueCode::INVALID_GTIN, Field::kGtin, "GTIN must contain only digits");
      return;
    }
    ctx.Fix(Field::kGtin, std::move(stripped), IssueCode::GTIN_REFORMATTED);
    v = ctx.value(Field::kGtin);
  }
  if (CheckIsbn10(ctx, v)) return;
  if (!text::IsAllDigits(v)) {
    ctx.Report(IssueCode::INVALID_GTIN, Field::kGtin, "GTIN must contain only digits");
    return;
  }
  // Lost leading zeros: a 9-11 digit value whose check digit passes may be a UPC-A without its
  // leading zeros (padding with zeros never changes the GS1 sum). About one random number in ten
  // passes too, so the padding is a fix only when the caller saw, over the whole column, that
  // the values lost their zeros (BatchSpec::gtin_padding_evidence); otherwise the length is
  // reported below.
  if (ctx.spec().gtin_padding_evidence && v.size() >= 9 && v.size() <= 11 && gtin::Gs1Valid(v)) {
    std::string padded(12 - v.size(), '0');
    padded.append(v);
    ctx.Fix(Field::kGtin, std::move(padded), IssueCode::GTIN_LEADING_ZEROS_RESTORED);
    v = ctx.value(Field::kGtin);
  }
  const size_t n = v.size();
  if (n != 8 && n != 12 && n != 13 && n != 14) {
    ctx.Report(IssueCode::INVALID_GTIN, Field::kGtin,
               "GTIN has " + std::to_string(n) + " digits; it must have 8, 12, 13 or 14");
    return;
  }
  if (v.find_first_not_of('0') == std::string_view::npos) {
    ctx.Report(IssueCode::INVALID_GTIN, Field::kGtin, "GTIN must not be all zeros");
    return;
  }
  const bool valid = gtin::Gs1Valid(v);
  gtin::Prefix prefix = gtin::ClassifyPrefix(v);
  if (n == 8 && (!valid || prefix == gtin::Prefix::kRestricted)) {
    // An 8-digit value that is no usable GTIN-8 but a valid UPC-E: say so, with its expansion.
    if (auto upca = gtin::ExpandUpcE(v); upca && gtin::Gs1Valid(*upca)) {
      ctx.Report(IssueCode::GTIN_UPCE_NOT_EXPANDED, Field::kGtin,
                 "8-digit value is a UPC-E code; send its UPC-A form " + *upca);
      return;
    }
  }
  if (!valid) {
    if (prefix == gtin::Prefix::kIsbn) {
      ctx.Report(IssueCode::INVALID_ISBN, Field::kGtin, "ISBN-13 check digit is wrong");
    } else {
      ctx.Report(IssueCode::INVALID_GTIN_CHECKSUM, Field::kGtin);
    }
    return;
  }
  if (prefix == gtin::Prefix::kRestricted) {
    ctx.Report(IssueCode::GTIN_RESTRICTED_PREFIX, Field::kGtin);
  } else if (prefix == gtin::Prefix::kCoupon) {
    ctx.Report(IssueCode::GTIN_COUPON_PREFIX, Field::kGtin);
  }
}

}  // namespace

void CheckGtin(RowContext& ctx) {
  if (ctx.value(Field::kGtin).empty()) return;  // a GTIN is never required
  ctx.ForEachItem(Field::kGtin, CheckOneGtin);
}

void CheckGtinOwner(RowContext& ctx, uint64_t sku_hash) {
  if (!ctx.purchasable() || ctx.IsList(Field::kGtin)) return;
  const std::string_view v = ctx.value(Field::kGtin);
  if (v.size() < 8 || v.size() > 14) return;
  uint64_t key = 0;  // the GTIN as a number: 0012345678905 and 012345678905 are one GTIN
  for (char c : v) {
    if (!text::IsDigit(c)) return;
    key = key * 10 + static_cast<uint64_t>(c - '0');
  }
  if (key == 0) return;
  ctx.ReportIfCarriedByAnother(key, sku_hash, IssueCode::DUPLICATE_GTIN, Field::kGtin,
                               "GTIN is already used by another SKU in row ");
}

}  // namespace dq::validator::rules
