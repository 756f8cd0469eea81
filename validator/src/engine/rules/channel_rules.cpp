// The channel packs' checks beyond the specification's templates (channel_pack.h), for every
// selected template at once: each check works out what it needs once per row and reports one
// issue for the mask of templates whose pack finds fault. The packs say which checks run and
// with which limits; the sources are cited where the packs are defined and in
// docs/issue-codes.md.
#include "channel_checks.h"

namespace dq::validator::rules {

void CheckChannelPacks(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const std::string_view sku = ctx.value(Field::kSku);
  channel::CheckLength(ctx, Field::kSku, "id (sku)", sku,
                       [](const ChannelPack& p) { return p.id_limit; });
  if (!ctx.checks(kProductCheck) && !sku.empty()) {  // else the product check's DUPLICATE_SKU
    if (const ChannelMask m = PacksWhere(spec, [](const ChannelPack& p) { return p.unique_id; })) {
      ctx.ReportIfUsedBeforeFor(m, KeySet::kSku, sku, IssueCode::DUPLICATE_SKU, Field::kSku,
                                "SKU is already used by row ");
    }
  }
  // The title and the description, each scanned once for every fact the packs ask of it.
  const std::string_view title = ctx.value(Field::kTitle);
  const listing::TextFacts title_facts =
      title.empty() ? listing::TextFacts() : listing::Scan(title, channel::TitleScan(ctx));
  const std::string_view description = ctx.value(Field::kDescription);
  const listing::TextFacts description_facts =
      description.empty() ? listing::TextFacts()
                          : listing::Scan(description, channel::DescriptionScan(spec));
  channel::CheckTitle(ctx, title_facts);
  channel::CheckDescription(ctx, description_facts);
  channel::CheckLink(ctx);
  channel::CheckImage(ctx);
  channel::CheckAdditionalImages(ctx);
  channel::CheckPrices(ctx);
  if (ctx.mapped(Field::kWeight)) channel::CheckShippingWeight(ctx);
  channel::CheckAvailability(ctx);
  channel::CheckCondition(ctx, title_facts.used_word);
  channel::CheckIdentifiers(ctx);
  channel::CheckLength(ctx, Field::kProductType, "product_type", ctx.value(Field::kProductType),
                       [](const ChannelPack& p) { return p.product_type_limit; });
  channel::CheckApparel(ctx, channel::CheckGoogleCategory(ctx));
}

}  // namespace dq::validator::rules
