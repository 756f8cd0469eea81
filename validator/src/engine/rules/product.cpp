#include "../batch_state.h"
#include "../text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

void CheckSku(RowContext& ctx) {
  const std::string_view sku = ctx.value(Field::kSku);
  if (sku.empty()) {
    ctx.Report(IssueCode::MISSING_SKU, Field::kSku);
    return;
  }
  if (auto first = ctx.batch().skus.Insert(sku, ctx.row())) {
    ctx.Report(IssueCode::DUPLICATE_SKU, Field::kSku,
               "SKU is already used by row " + std::to_string(*first));
  }
}

}  // namespace

// The price rule is shared with the price check type (rules/price.cpp calls it too when product
// is not selected): a value that a safe rewrite turns into a plain positive decimal is fixed;
// anything else that is not one is INVALID_PRICE.
void CheckPriceFormat(RowContext& ctx) {
  std::string_view price = ctx.value(Field::kPrice);
  if (!text::IsPlainDecimal(price)) {
    if (auto fixed = text::NormalizePrice(price)) {
      ctx.Fix(Field::kPrice, std::move(*fixed), IssueCode::PRICE_REFORMATTED);
      price = ctx.value(Field::kPrice);
    }
  }
  auto v = text::ParsePlainDecimal(price);
  if (!v || *v <= 0) ctx.Report(IssueCode::INVALID_PRICE, Field::kPrice);
}

void CheckProduct(RowContext& ctx) {
  CheckSku(ctx);
  CheckPriceFormat(ctx);
}

}  // namespace dq::validator::rules
