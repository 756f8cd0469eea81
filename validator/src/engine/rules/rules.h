// The rules, one function per check type. Each reads a RowContext and Report()s or Fix()es.
// A rule is pure: no I/O, no allocation on a clean value, no state except what BatchState keeps
// for batch-level checks. See docs/adding-a-rule.md.
#pragma once

#include <vector>

#include "../row_context.h"

namespace dq::validator::rules {

// Runs first, for every mapped field: trims whitespace (and collapses inner runs in free-text
// fields), reported as WHITESPACE_TRIMMED.
void NormalizeWhitespace(RowContext& ctx);

void CheckProduct(RowContext& ctx);

// Price must be a positive plain decimal; safe rewrites are fixes (PRICE_REFORMATTED), the rest
// INVALID_PRICE. Shared by the product and price check types.
void CheckPriceFormat(RowContext& ctx);

}  // namespace dq::validator::rules
