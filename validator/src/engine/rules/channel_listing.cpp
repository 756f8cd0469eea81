// The channel packs' checks of the listing: title, description, link, image and additional
// images (channel_checks.h).
#include "channel_checks.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "iso_date.h"
#include "listing_text.h"
#include "reference_data.h"
#include "taxonomy.h"
#include "text.h"
#include "rules.h"

namespace dq::validator::rules::channel {

// --- Title and description -------------------------------------------------------------

namespace {

// The selected templates whose title_gimmicks hold Kind: one mask per kind, worked out once per
// process (PacksWhere) instead of asking each template a row.
template <uint8_t Kind>
ChannelMask GimmickPacks(const BatchSpec& spec) {
  return PacksWhere(spec, [](const ChannelPack& p) { return (p.title_gimmicks & Kind) != 0; });
}

// The selected templates that mind a gimmick of one of `kinds` (listing::Gimmick bits).
ChannelMask GimmickMinders(const BatchSpec& spec, uint8_t kinds) {
  ChannelMask mask = 0;
  if (kinds & listing::kExclamation) mask |= GimmickPacks<listing::kExclamation>(spec);
  if (kinds & listing::kQuestionMark) mask |= GimmickPacks<listing::kQuestionMark>(spec);
  if (kinds & listing::kAsterisk) mask |= GimmickPacks<listing::kAsterisk>(spec);
  if (kinds & listing::kRepeatedSymbol) mask |= GimmickPacks<listing::kRepeatedSymbol>(spec);
  if (kinds & listing::kDecorative) mask |= GimmickPacks<listing::kDecorative>(spec);
  return mask;
}

// What the packs of a set of templates ask of the title (`title`, and `title_used` when the
// row gives no condition) and of the description, for every set (by ChannelMask), worked out
// once per process: a row looks its batch's up.
struct ScanRequests {
  listing::ScanRequest title, title_used, description;
};

const ScanRequests& RequestsFor(ChannelMask channels) {
  static_assert(kPlatforms.size() <= 8);
  static const std::array<ScanRequests, 256> table = [] {
    std::array<ScanRequests, 256> t{};
    for (size_t mask = 0; mask < t.size(); ++mask) {
      listing::ScanRequest title{0, true, 0}, description{0, false, 0};
      bool used = false;
      for (size_t i = 1; i <= kPlatforms.size(); ++i) {
        const Platform p = static_cast<Platform>(i);
        if (!(mask & ChannelBit(p))) continue;
        const ChannelPack& pack = PackOf(p);
        if (pack.title_capitals) title.facts |= listing::kCapitalsFact;
        if (pack.title_promotional) title.facts |= listing::kPromotionalFact;
        if (pack.title_gimmicks) title.facts |= listing::kGimmicksFact;
        title.wanted_gimmicks |= pack.title_gimmicks;
        if (pack.title_repeated_words) title.facts |= listing::kRepeatedFact;
        used = used || pack.condition_from_title;
        if (pack.description_html != ChannelPack::Html::kAllowed) {
          description.facts |= listing::kHtmlFact;
        }
        if (pack.description_capitals) description.facts |= listing::kCapitalsFact;
        if (pack.description_promotional) description.facts |= listing::kPromotionalFact;
        if (pack.description_links) description.facts |= listing::kLinkFact;
      }
      t[mask].title = title;
      t[mask].title_used = title;
      if (used) t[mask].title_used.facts |= listing::kUsedWordFact;
      t[mask].description = description;
    }
    return t;
  }();
  return table[channels & 0xFF];
}

}  // namespace

listing::ScanRequest TitleScan(const RowContext& ctx) {
  const ScanRequests& r = RequestsFor(ctx.spec().channels);
  // CheckCondition's question: asked only when the row gives no condition.
  return ctx.value(Field::kCondition).empty() ? r.title_used : r.title;
}

listing::ScanRequest DescriptionScan(const BatchSpec& spec) {
  return RequestsFor(spec.channels).description;
}

void CheckTitle(RowContext& ctx, const listing::TextFacts& facts) {
  const BatchSpec& spec = ctx.spec();
  if (ctx.value(Field::kTitle).empty()) return;
  if (const ChannelMask m = PacksWhere(spec, [](const ChannelPack& p) { return p.title_capitals; });
      m && facts.capitals) {
    ctx.ReportFor(m, IssueCode::PLATFORM_EXCESSIVE_CAPITALS, Field::kTitle,
                  "Title is written in capital letters");
  }
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.title_promotional; })) {
    if (const std::string_view phrase = facts.promotional; !phrase.empty()) {
      ctx.ReportFor(m, IssueCode::PLATFORM_PROMOTIONAL_TEXT, Field::kTitle,
                    Cat("Title contains promotional text '", phrase, "'"));
    }
  }
  if (const ChannelMask m = GimmickMinders(spec, facts.gimmicks.kinds)) {
    ctx.ReportFor(m, IssueCode::PLATFORM_GIMMICKY_CHARACTERS, Field::kTitle,
                  Cat("Title uses '", facts.gimmicks.first, "' to draw attention"));
  }
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.title_repeated_words; })) {
    if (const std::string_view w = facts.repeated_word; !w.empty()) {
      ctx.ReportFor(m, IssueCode::PLATFORM_REPEATED_WORDS, Field::kTitle,
                    Cat("Title repeats the word '", w, "'"));
    }
  }
}

void CheckDescription(RowContext& ctx, const listing::TextFacts& facts) {
  const BatchSpec& spec = ctx.spec();
  const std::string_view d = ctx.value(Field::kDescription);
  if (d.empty()) return;
  CheckLength(
      ctx, Field::kDescription, "Description", d,
      [](const ChannelPack& p) { return p.description_truncated_at; },
      IssueCode::PLATFORM_DESCRIPTION_TRUNCATED);
  CheckLength(ctx, Field::kDescription, "Description", d,
              [](const ChannelPack& p) { return p.description_limit; });
  const ChannelMask plain = PacksWhere(
      spec, [](const ChannelPack& p) { return p.description_html == ChannelPack::Html::kNone; });
  const ChannelMask safe = PacksWhere(spec, [](const ChannelPack& p) {
    return p.description_html == ChannelPack::Html::kSafeSubset;
  });
  const listing::Html& h = facts.html;
  if (plain && (!h.first_tag.empty() || !h.first_entity.empty())) {
    const std::string_view what = h.first_tag.empty() ? h.first_entity : h.first_tag;
    ctx.ReportFor(plain, IssueCode::PLATFORM_DESCRIPTION_HTML, Field::kDescription,
                  Cat("Description contains HTML '", text::Utf8Prefix(what, 60), "'; ",
                      ctx.channel_names(plain), " takes plain text"));
  }
  if (safe && !h.unsafe.empty()) {
    ctx.ReportFor(safe, IssueCode::PLATFORM_DESCRIPTION_HTML, Field::kDescription,
                  Cat("Description contains the tag '", text::Utf8Prefix(h.unsafe, 60), "'; ",
                      ctx.channel_names(safe),
                      " takes tags without attributes and no unsafe tags"));
  }
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.description_capitals; });
      m && facts.capitals) {
    ctx.ReportFor(m, IssueCode::PLATFORM_EXCESSIVE_CAPITALS, Field::kDescription,
                  "Description is written in capital letters");
  }
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.description_promotional; })) {
    if (const std::string_view phrase = facts.promotional; !phrase.empty()) {
      ctx.ReportFor(m, IssueCode::PLATFORM_PROMOTIONAL_TEXT, Field::kDescription,
                    Cat("Description contains promotional text '", phrase, "'"));
    }
  }
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.description_links; })) {
    if (const std::string_view link = facts.link; !link.empty()) {
      ctx.ReportFor(m, IssueCode::PLATFORM_LINK_IN_DESCRIPTION, Field::kDescription,
                    Cat("Description contains the link '", text::Utf8Prefix(link, 80), "'"));
    }
  }
}

// --- URLs ------------------------------------------------------------------------------

bool HostIsOrUnder(std::string_view host, std::string_view domain) {
  if (host.size() < domain.size()) return false;
  for (size_t k = 0; k < domain.size(); ++k) {
    if (text::ToLower(host[host.size() - domain.size() + k]) != domain[k]) return false;
  }
  return host.size() == domain.size() || host[host.size() - domain.size() - 1] == '.';
}

// The checks every URL of a pack gets (link, image_url, each additional image): placeholder
// hosts, and for images placeholder names and the file type. The URL is well-formed.
// `name` names the URL in messages (default: the field's name).
void CheckUrlContent(RowContext& ctx, Field f, std::string_view url, bool image,
                     std::string_view name = {}) {
  const BatchSpec& spec = ctx.spec();
  if (name.empty()) name = FieldName(f);
  const listing::UrlParts parts = listing::SplitUrl(url);  // each fact below reads it
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.placeholder_hosts; })) {
    const std::string_view host = parts.host;
    if (const char* why = listing::PlaceholderHostName(host)) {
      ctx.ReportFor(m, IssueCode::PLATFORM_PLACEHOLDER_URL, f, Cat(name, " '", host, "': ", why));
    }
  }
  if (!image) return;
  if (const ChannelMask m =
          PacksWhere(spec, [](const ChannelPack& p) { return p.placeholder_image_names; });
      m && listing::PlaceholderImageSegment(parts.segment)) {
    ctx.ReportFor(m, IssueCode::PLATFORM_PLACEHOLDER_URL, f,
                  Cat(name, " names a placeholder picture, not the product"));
  }
  const listing::FileType type = listing::FileTypeOfSegment(parts.file);
  if (type.kind == FileKind::kNoExtension || type.kind == FileKind::kScript) return;
  char buf[8];
  const std::string_view ext = LowerInto(type.extension, buf, sizeof(buf));
  const ChannelMask m = PacksNotListing<&ChannelPack::image_extensions>(spec, ext);
  if (!m) return;
  if (type.kind == FileKind::kPage) {
    ctx.ReportFor(m, IssueCode::PLATFORM_IMAGE_FORMAT, f,
                  Cat(name, " ends in .", type.extension,
                      ", a web page or document, not an image"));
    return;
  }
  std::string_view takes;
  for (Platform p : spec.platforms) {
    if (m & ChannelBit(p)) {
      takes = PackListText<&ChannelPack::image_extensions>(p);
      break;
    }
  }
  ctx.ReportFor(m, IssueCode::PLATFORM_IMAGE_FORMAT, f,
                Cat(name, " ends in .", type.extension, "; ", ctx.channel_names(m), " takes ",
                    takes));
}

void CheckLink(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const std::string_view link = ctx.value(Field::kLink);
  const ChannelMask m = PacksWhere(spec, [](const ChannelPack& p) { return p.check_urls; });
  if (link.empty() || !m) return;
  if (!IsWellFormedHttpUrl(link)) {
    ctx.ReportFor(m, IssueCode::PLATFORM_INVALID_URL, Field::kLink,
                  "link must be an absolute http or https URL with no spaces or unescaped "
                  "characters");
    return;
  }
  CheckLength(ctx, Field::kLink, "link", link, [](const ChannelPack& p) { return p.url_limit; });
  const std::string_view host = listing::HostOf(link);
  const ChannelMask forbidden = PacksWhere(spec, [&](const ChannelPack& p) {
    for (std::string_view d : p.forbidden_link_hosts) {
      if (HostIsOrUnder(host, d)) return true;
    }
    return false;
  });
  if (forbidden) {
    ctx.ReportFor(forbidden, IssueCode::PLATFORM_INVALID_URL, Field::kLink,
                  Cat("link points to '", host, "'; ", ctx.channel_names(forbidden),
                      std::popcount(forbidden) == 1 ? " wants" : " want",
                      " the product page on your own site"));
  }
  CheckUrlContent(ctx, Field::kLink, link, false);
}

// One image URL (a cell, or an item of a list cell); `name` names it in messages.
void CheckOneImage(RowContext& ctx, std::string_view url, std::string_view name) {
  const ChannelMask m = PacksWhere(ctx.spec(), [](const ChannelPack& p) { return p.check_urls; });
  if (!IsWellFormedHttpUrl(url)) {
    // The product check reports it (INVALID_IMAGE_URL) when it runs.
    if (!ctx.checks(kProductCheck)) {
      ctx.ReportFor(m, IssueCode::PLATFORM_INVALID_URL, Field::kImageUrl,
                    Cat(name, " must be an absolute http or https URL"));
    }
    return;
  }
  CheckLength(ctx, Field::kImageUrl, name, url, [](const ChannelPack& p) { return p.url_limit; });
  CheckUrlContent(ctx, Field::kImageUrl, url, true, name);
}

// An item of a source's separated list (ForEachItem names the item in the message).
void CheckImageItem(RowContext& ctx) {
  CheckOneImage(ctx, ctx.value(Field::kImageUrl), "image_url");
}

// Each URL of a list cell is checked on its own, as the product check does: a JSON array of
// URLs by its own syntax (its items named in the messages), a source's separated list by its
// convention.
void CheckImage(RowContext& ctx) {
  const std::string_view cell = ctx.value(Field::kImageUrl);
  const ChannelMask m = PacksWhere(ctx.spec(), [](const ChannelPack& p) { return p.check_urls; });
  if (cell.empty() || !m) return;
  std::vector<std::string> urls;
  if (JsonStringArray(cell, &urls)) {
    const size_t n = urls.size();
    for (size_t k = 0; k < n; ++k) {
      CheckOneImage(ctx, urls[k],
                    Cat("image_url item ", Num(k + 1), " of ", Num(n)));
    }
    return;
  }
  ctx.ForEachItem(Field::kImageUrl, CheckImageItem);
}

void CheckAdditionalImages(RowContext& ctx) {
  const BatchSpec& spec = ctx.spec();
  const std::string_view field = ctx.value(Field::kAdditionalImageLink);
  if (field.empty()) return;
  CheckLength(ctx, Field::kAdditionalImageLink, "additional_image_link", field,
              [](const ChannelPack& p) { return p.additional_images_field_limit; });
  // A JSON array of URLs (a JSON source's list) is a list by its own syntax, whatever the
  // channel's separators; otherwise the field is split at the channel's separators.
  std::vector<std::string> json_urls;
  const bool json_list = JsonStringArray(field, &json_urls);
  for (Platform p : spec.platforms) {
    const ChannelPack& pack = PackOf(p);
    if (pack.additional_images_max == 0) continue;
    const ChannelMask bit = ChannelBit(p);
    size_t count = 0;
    size_t start = 0;
    size_t next_json = 0;
    while (json_list ? next_json < json_urls.size() : start <= field.size()) {
      std::string_view url;
      if (json_list) {
        url = text::Trim(json_urls[next_json++]);
      } else {
        size_t end = field.find_first_of(pack.additional_image_separators, start);
        if (end == std::string_view::npos) end = field.size();
        url = text::Trim(field.substr(start, end - start));
        start = end + 1;
      }
      if (url.empty()) continue;
      ++count;
      if (!IsWellFormedHttpUrl(url)) {
        ctx.ReportFor(bit, IssueCode::PLATFORM_INVALID_URL, Field::kAdditionalImageLink,
                      "additional_image_link " + Quote(text::Utf8Prefix(url, 80)) +
                          " is not an absolute http or https URL");
        continue;
      }
      if (pack.url_limit && text::Utf8Length(url) > pack.url_limit) {
        ctx.ReportFor(bit, IssueCode::PLATFORM_VALUE_TOO_LONG, Field::kAdditionalImageLink,
                      "An additional_image_link URL has more than " +
                          std::to_string(pack.url_limit) + " characters; " +
                          std::string(PlatformName(p)) + " allows " +
                          std::to_string(pack.url_limit));
      }
      CheckUrlContent(ctx, Field::kAdditionalImageLink, url, true);
    }
    if (count > pack.additional_images_max) {
      ctx.ReportFor(bit, IssueCode::PLATFORM_VALUE_TOO_LONG, Field::kAdditionalImageLink,
                    "additional_image_link lists " + std::to_string(count) + " images; " +
                        std::string(PlatformName(p)) + " takes " +
                        std::to_string(pack.additional_images_max));
    }
  }
}

}  // namespace dq::validator::rules::channel
