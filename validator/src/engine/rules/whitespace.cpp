#include "../text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

// Free-text fields, where a run of spaces is never meaningful. In identifiers and codes only the
// ends are trimmed: collapsing inside them could turn one identifier into another.
bool CollapsesInner(Field f) {
  return f == Field::kTitle || f == Field::kBrand || f == Field::kCategory;
}

}  // namespace

void NormalizeWhitespace(RowContext& ctx) {
  for (Field f : ctx.spec().columns) {
    const std::string_view v = ctx.value(f);
    const bool collapse = CollapsesInner(f);
    if (text::NeedsWhitespaceFix(v, collapse)) {
      ctx.Fix(f, text::NormalizeWhitespace(v, collapse), IssueCode::WHITESPACE_TRIMMED);
    }
  }
}

}  // namespace dq::validator::rules
