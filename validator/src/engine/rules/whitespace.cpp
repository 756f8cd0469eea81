#include "dq/common/spreadsheet_formula.h"

#include "listing_text.h"
#include "text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

// Free-text fields, where a run of spaces is never meaningful. In identifiers and codes only the
// ends are trimmed: collapsing inside them could turn one identifier into another.
bool CollapsesInner(Field f) {
  return f == Field::kTitle || f == Field::kBrand || f == Field::kCategory;
}

// An HTML description: its column holds HTML by the source (FieldConvention::html, Shopify's
// Body (HTML)), or the value holds a tag (listing::FindHtml: WooCommerce's and Magento's
// descriptions, any file's). Whitespace at its ends renders as nothing, so it is neither an issue
// nor a fix (docs/api.md). A plain-text description is trimmed as any field, and so is one of
// whitespace only (it is empty).
bool IsHtmlDescription(const RowContext& ctx, Field f, std::string_view v) {
  if (f != Field::kDescription || text::Trim(v).empty()) return false;
  return ctx.spec().conventions[static_cast<size_t>(f)].html ||
         !listing::FindHtml(v).first_tag.empty();
}

}  // namespace

void NormalizeWhitespace(RowContext& ctx) {
  for (Field f : ctx.spec().columns) {
    const std::string_view v = ctx.value(f);
    const bool collapse = CollapsesInner(f);
    if (!text::NeedsWhitespaceFix(v, collapse) || IsHtmlDescription(ctx, f, v)) continue;
    std::string fixed = text::NormalizeWhitespace(v, collapse);
    // A fix never makes a value a spreadsheet formula (" =1+1" stays as it is; docs/api.md).
    if (StartsLikeAFormula(fixed)) continue;
    ctx.Fix(f, std::move(fixed), IssueCode::WHITESPACE_TRIMMED);
  }
}

}  // namespace dq::validator::rules
