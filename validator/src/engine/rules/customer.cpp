// The customer check: e-mail syntax and normalisation, disposable domains, phone numbers via
// libphonenumber (E.164 as the fix), ISO 3166-1 country, and duplicate customers.
//
// Duplicates: a row duplicates an earlier one when its e-mail (trimmed, lower-cased) matches;
// a row without a valid e-mail duplicates an earlier row with the same phone number (E.164).
// Rows that both have an e-mail are never matched on phone alone: members of one household or
// staff of one company share a phone but are different customers. A variant row is a further
// row of the customer above it (Shopify Transporter's rows of a further address or metafield,
// which repeat the customer's e-mail: the source's row model, libs/ingest): its own values are
// checked, but it is not a second customer, so it is never a duplicate, and its empty e-mail is
// the customer's (a customer without one, continued by its phone), reported on the customer's
// own row only. A row without an e-mail but with a phone number is not MISSING_EMAIL: Shopify
// keeps customers by e-mail or phone, and the duplicate check above falls back to the phone.
//
// Further phone columns (the profile's also_checked: Shopify's Default Address Phone beside
// Phone, where its current export keeps most customers' numbers): each value is checked as the
// phone is, read with the row's country, report-only (INVALID_PHONE naming the column; no
// PHONE_NORMALIZED, whose fix would belong in that column). A value equal to the phone's own
// cell is not checked again: the phone's issue speaks for it. Such a value counts as the
// customer's phone for MISSING_EMAIL (the customer is reachable by it), but it is no duplicate
// key: the customer's phone is the mapped one.
#include <algorithm>

#include "dq/common/spreadsheet_formula.h"

#include "email.h"
#include "phone.h"
#include "reference_data.h"
#include "text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

// True when the domain part has upper-case letters (the local part may be case-sensitive).
bool DomainHasUpper(std::string_view v) {
  const size_t at = v.rfind('@');
  if (at == std::string_view::npos) return false;
  for (char c : v.substr(at + 1)) {
    if (c >= 'A' && c <= 'Z') return true;
  }
  return false;
}

// A phone cell without the ' that Shopify's export (and spreadsheets) write before a number to
// keep its + from being read as a formula: a lone ' is an empty cell.
std::string_view PhoneText(std::string_view v) {
  return !v.empty() && v[0] == '\'' ? v.substr(1) : v;
}

// Returns true when the row has a valid e-mail.
bool CheckEmail(RowContext& ctx) {
  std::string_view v = ctx.value(Field::kEmail);
  if (v.empty()) {
    // A customer with a phone number is reachable and keyed by it (Shopify: e-mail or phone;
    // the duplicate check falls back to the phone): only a row with neither is reported.
    const bool has_phone =
        ctx.HasExtraValue(Field::kPhone) ||
        (ctx.mapped(Field::kPhone) && !PhoneText(ctx.value(Field::kPhone)).empty());
    if (!has_phone && ctx.Required(Field::kEmail) && ctx.kind() != RowKind::kVariant) {
      ctx.ReportEmpty(IssueCode::MISSING_EMAIL, Field::kEmail);
    }
    return false;
  }
  // The whitespace rule has trimmed it; fold that and the domain's case into one fix. Never for
  // a value a spreadsheet would run as a formula, trimmed or not (`@SUM(1+1)`, ` =1+1@X.DE`,
  // which the whitespace rule leaves): a fix must not rewrite or create one (docs/api.md).
  const size_t text_at = std::min(v.find_first_not_of(" \t\r\n"), v.size());
  if (!StartsLikeAFormula(v.substr(text_at)) &&
      (v != ctx.original(Field::kEmail) || DomainHasUpper(v))) {
    std::string fixed(v);
    const size_t at = fixed.rfind('@');
    if (at != std::string::npos) {
      for (size_t i = at + 1; i < fixed.size(); ++i) fixed[i] = text::ToLower(fixed[i]);
    }
    ctx.Fix(Field::kEmail, std::move(fixed), IssueCode::EMAIL_NORMALIZED);
    v = ctx.value(Field::kEmail);
  }
  const email::Result r = email::Check(v);
  if (r.verdict == email::Verdict::kInvalid) {
    ctx.Report(IssueCode::INVALID_EMAIL, Field::kEmail, std::string(r.reason));
    return false;
  }
  if (r.verdict == email::Verdict::kSpecialUse) {
    ctx.Report(IssueCode::EMAIL_SPECIAL_USE_DOMAIN, Field::kEmail);
    return false;
  }
  const std::string_view domain = v.substr(v.rfind('@') + 1);
  if (ctx.ref().IsDisposableDomain(domain)) {
    ctx.Report(IssueCode::DISPOSABLE_EMAIL, Field::kEmail);
  }
  if (ctx.kind() == RowKind::kVariant) return true;  // the customer above it (see the top)
  // Duplicate key: the whole address lower-cased (providers treat local parts case-blind).
  char buf[256];
  for (size_t i = 0; i < v.size(); ++i) buf[i] = text::ToLower(v[i]);
  ctx.ReportIfUsedBefore(KeySet::kEmail, std::string_view(buf, v.size()),
                         IssueCode::DUPLICATE_CUSTOMER, Field::kEmail, "Same e-mail as row ");
  return true;
}

// True for a number a spreadsheet has shown in scientific notation and saved so (9.19961E+11):
// digits, an optional fraction, E, an optional sign, digits.
bool IsScientificNotation(std::string_view v) {
  size_t i = 0;
  auto digits = [&] {
    const size_t from = i;
    while (i < v.size() && text::IsDigit(v[i])) ++i;
    return i > from;
  };
  if (!digits()) return false;
  if (i < v.size() && (v[i] == '.' || v[i] == ',')) {
    ++i;
    if (!digits()) return false;
  }
  if (i >= v.size() || (v[i] != 'E' && v[i] != 'e')) return false;
  ++i;
  if (i < v.size() && (v[i] == '+' || v[i] == '-')) ++i;
  return digits() && i == v.size();
}

// Checks the non-empty value(kPhone) read with region (empty: none) and returns its verdict when
// it is valid, else nullptr.
const PhoneVerdict* CheckPhoneValue(RowContext& ctx, std::string_view region) {
  const std::string_view v = ctx.value(Field::kPhone);
  // A leading ' is Shopify's (and spreadsheets') text marker that keeps the + from being read
  // as a formula: '+1 650-253-0000 is written internationally and needs no rewrite.
  const std::string_view written = PhoneText(v);
  if (written.empty()) return nullptr;  // a lone ': an empty cell
  const PhoneVerdict& p = ctx.phones().Check(v, region.empty() ? "ZZ" : region);
  if (!p.valid) {
    const bool needs_country = region.empty() && written[0] != '+' &&
                               !(written.size() > 1 && written[0] == '0' && written[1] == '0');
    if (IsScientificNotation(v)) {
      ctx.Report(IssueCode::INVALID_PHONE, Field::kPhone,
                 "Phone number was saved in scientific notation by a spreadsheet: its last "
                 "digits are lost");
      return nullptr;
    }
    ctx.Report(IssueCode::INVALID_PHONE, Field::kPhone,
               needs_country ? "Phone number is in national form and the row has no valid "
                               "country to read it with"
                             : std::string());
    return nullptr;
  }
  if (!p.has_extension && !IsWrittenInternationally(written) && v != p.e164) {
    ctx.Fix(Field::kPhone, p.e164, IssueCode::PHONE_NORMALIZED);  // ignored in a further column
  }
  return &p;
}

void CheckPhone(RowContext& ctx, std::string_view region, bool has_email) {
  if (ctx.value(Field::kPhone).empty()) return;
  const PhoneVerdict* p = CheckPhoneValue(ctx, region);
  if (p == nullptr) return;
  if (has_email) {
    ctx.UseKey(KeySet::kPhone, p->e164);
  } else if (ctx.kind() != RowKind::kVariant) {  // a variant is the customer above it
    ctx.ReportIfUsedBefore(KeySet::kPhone, p->e164, IssueCode::DUPLICATE_CUSTOMER, Field::kPhone,
                           "Same phone number as row ");
  }
}

// The row's country as a region to read phone numbers with, once CheckCountryCode has read it
// (a fix included); empty when it is not a valid one.
std::string_view Region(const RowContext& ctx) {
  if (!ctx.mapped(Field::kCountry)) return {};
  const std::string_view c = ctx.value(Field::kCountry);
  return ctx.ref().IsCountryAlpha2(c) ? c : std::string_view();
}

// A further phone column's value (ForEachExtra): checked as the phone, no key.
void CheckFurtherPhone(RowContext& ctx) { CheckPhoneValue(ctx, Region(ctx)); }

}  // namespace

std::string_view CheckCountryCode(RowContext& ctx, Field f) {
  const std::string_view v = ctx.value(f);
  const ReferenceData& ref = ctx.ref();
  if (ref.IsCountryAlpha2(v)) return v;
  if (v.empty()) {
    if (ctx.Required(f)) ctx.ReportEmpty(IssueCode::INVALID_COUNTRY_CODE, f, "Country is empty");
    return {};
  }
  if (v.size() == 2 || v.size() == 3) {
    char up[3];
    for (size_t i = 0; i < v.size(); ++i) up[i] = text::ToUpper(v[i]);
    const std::string_view u(up, v.size());
    std::string_view code;
    if (v.size() == 2) {
      if (ref.IsCountryAlpha2(u)) {
        code = u;
      } else if (u == "UK") {
        code = "GB";
      } else if (u == "EL") {
        code = "GR";
      }
    } else if (auto a2 = ref.Alpha3ToAlpha2(u)) {
      code = *a2;
    }
    if (!code.empty()) {
      ctx.Fix(f, std::string(code), IssueCode::COUNTRY_CODE_NORMALIZED);
      return ctx.value(f);
    }
  }
  ctx.Report(IssueCode::INVALID_COUNTRY_CODE, f);
  return {};
}

void CheckCustomer(RowContext& ctx) {
  std::string_view region;
  if (ctx.mapped(Field::kCountry)) region = CheckCountryCode(ctx, Field::kCountry);
  bool has_email = false;
  if (ctx.mapped(Field::kEmail)) has_email = CheckEmail(ctx);
  if (ctx.mapped(Field::kPhone)) CheckPhone(ctx, region, has_email);
  if (!ctx.spec().extras.empty()) ctx.ForEachExtra(Field::kPhone, CheckFurtherPhone, true);
}

}  // namespace dq::validator::rules
