// The price check: compare-at price, margin from cost_price, currency, and the samples for the
// batch-level outlier check (Session::Finish).
#include "text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

// Margins below this share of the price are warned (THIN_MARGIN): marketplace fees, payment and
// shipping usually take more than 10%.
constexpr double kThinMargin = 0.10;

uint8_t Decimals(std::string_view plain) {
  const size_t dot = plain.find('.');
  return dot == std::string_view::npos
             ? 0
             : static_cast<uint8_t>(std::min<size_t>(plain.size() - dot - 1, 255));
}

}  // namespace

void CheckPrice(RowContext& ctx) {
  if (!ctx.checks(kProductCheck) && !ShippingChecksPrice(ctx) && ctx.mapped(Field::kPrice)) {
    CheckPriceFormat(ctx);
  }
  if (!ctx.checks(kProductCheck) && ctx.mapped(Field::kCurrency)) CheckCurrency(ctx);

  // With search_merchant the price keeps its code ("15.00 USD"): its number is what counts.
  const std::string_view price_text = AmountNumber(ctx, ctx.value(Field::kPrice));
  std::optional<double> price = text::ParsePlainDecimal(price_text);
  if (price && *price <= 0) price.reset();

  if (ctx.mapped(Field::kCompareAtPrice) && !ctx.value(Field::kCompareAtPrice).empty()) {
    bool reported = false;
    const auto compare_at = NormalizedAmount(ctx, Field::kCompareAtPrice, &reported);
    if (reported) {
      // reported; not judged further
    } else if (!compare_at || *compare_at <= 0) {
      ctx.Report(IssueCode::INVALID_COMPARE_AT_PRICE, Field::kCompareAtPrice);
    } else if (price && *compare_at <= *price) {
      ctx.Report(IssueCode::COMPARE_AT_NOT_HIGHER, Field::kCompareAtPrice);
    }
  }

  if (ctx.mapped(Field::kCostPrice) && !ctx.value(Field::kCostPrice).empty()) {
    bool reported = false;
    const auto cost = NormalizedAmount(ctx, Field::kCostPrice, &reported);
    if (reported) {
      // reported; not judged further
    } else if (!cost) {
      ctx.Report(IssueCode::INVALID_COST_PRICE, Field::kCostPrice);
    } else if (price) {
      // margin = (price - cost) / price, compared without dividing.
      const double profit = *price - *cost;
      if (profit < 0) {
        ctx.Report(IssueCode::NEGATIVE_MARGIN, Field::kCostPrice);
      } else if (profit < kThinMargin * *price * (1 - 1e-12)) {
        ctx.Report(IssueCode::THIN_MARGIN, Field::kCostPrice);
      }
    }
  }

  // Outliers are judged among what can be bought: a parent's price (if any) is no sample.
  if (price && ctx.purchasable()) {
    const std::string_view category =
        ctx.mapped(Field::kCategory) ? ctx.value(Field::kCategory) : std::string_view();
    ctx.AddPriceSample(price, Decimals(price_text), category);
  }
}

}  // namespace dq::validator::rules
