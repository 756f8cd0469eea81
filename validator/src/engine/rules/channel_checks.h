// The channel packs' checks (channel_pack.h), one function per field family, split over
// channel_listing.cpp (title, description, links, images), channel_offer.cpp (prices, sale,
// shipping weight, availability) and channel_identity.cpp (vocabularies, identifiers, category,
// apparel); CheckChannelPacks (channel_rules.cpp) runs them in order for one row. Internal to
// rules/: the rest of the engine calls CheckChannelPacks (rules.h).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "listing_text.h"
#include "text.h"
#include "channel_pack.h"
#include "message_text.h"
#include "rules.h"

namespace dq::validator::rules::channel {

using listing::FileKind;

inline std::string Quote(std::string_view s) {
  std::string out = "'";
  out += s;
  out += "'";
  return out;
}

// Lower-cased ASCII copy of a short value in buf (at most n bytes), or empty when too long.
inline std::string_view LowerInto(std::string_view v, char* buf, size_t n) {
  if (v.size() > n) return {};
  for (size_t i = 0; i < v.size(); ++i) buf[i] = text::ToLower(v[i]);
  return std::string_view(buf, v.size());
}

inline bool InList(std::span<const std::string_view> list, std::string_view lower) {
  for (std::string_view v : list) {
    if (v == lower) return true;
  }
  return false;
}

inline std::string ListText(std::span<const std::string_view> list) {
  std::string out;
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out += i + 1 == list.size() ? " or " : ", ";
    out += list[i];
  }
  return out;
}

// ListText of pack p's list Member (a ChannelPack member), written once per process: the packs
// are constants, and a message may name the same list on every row.
template <std::span<const std::string_view> ChannelPack::*Member>
const std::string& PackListText(Platform p) {
  static const std::array<std::string, kPlatforms.size() + 1> texts = [] {
    std::array<std::string, kPlatforms.size() + 1> t;
    for (size_t i = 1; i <= kPlatforms.size(); ++i) {
      t[i] = ListText(PackOf(static_cast<Platform>(i)).*Member);
    }
    return t;
  }();
  return texts[static_cast<size_t>(p)];
}

// The templates (of all, not only the batch's) whose list Member holds value, compared as it is
// (lower case), from a table of the lists' distinct values built once per process: one pass over
// it instead of one over each selected template's list.
template <std::span<const std::string_view> ChannelPack::*Member>
ChannelMask PacksListing(std::string_view value) {
  struct Entry {
    std::string_view value;
    ChannelMask packs = 0;
  };
  static const std::vector<Entry> entries = [] {
    std::vector<Entry> out;
    for (size_t i = 1; i <= kPlatforms.size(); ++i) {
      const Platform p = static_cast<Platform>(i);
      for (std::string_view v : PackOf(p).*Member) {
        auto it =
            std::find_if(out.begin(), out.end(), [&](const Entry& e) { return e.value == v; });
        if (it == out.end()) it = out.insert(out.end(), Entry{v});
        it->packs |= ChannelBit(p);
      }
    }
    return out;
  }();
  for (const Entry& e : entries) {
    if (e.value == value) return e.packs;
  }
  return 0;
}

// The selected templates whose list Member is set and does not hold value (lower case).
template <std::span<const std::string_view> ChannelPack::*Member>
ChannelMask PacksNotListing(const BatchSpec& spec, std::string_view value) {
  const ChannelMask listing = PacksWhere(spec, [](const ChannelPack& p) {
    return !(p.*Member).empty();
  });
  return listing == 0 ? 0 : static_cast<ChannelMask>(listing & ~PacksListing<Member>(value));
}

// Reports code on f for the templates whose limit(pack) the value exceeds, in Unicode
// characters: "<what> has N characters; a allows 50, b allows 100".
template <typename Limit>
void CheckLength(RowContext& ctx, Field f, std::string_view what, std::string_view v, Limit limit,
                 IssueCode code = IssueCode::PLATFORM_VALUE_TOO_LONG) {
  if (v.empty()) return;
  if constexpr (std::is_empty_v<Limit>) {
    // Within every template's limit (the smallest one set, worked out once): nothing to say.
    static const size_t smallest = [&limit] {
      size_t min = SIZE_MAX;
      for (size_t p = 1; p <= kPlatforms.size(); ++p) {
        const size_t max = limit(PackOf(static_cast<Platform>(p)));
        if (max != 0 && max < min) min = max;
      }
      return min;
    }();
    if (v.size() <= smallest) return;  // bytes >= characters
  }
  size_t chars = SIZE_MAX;
  ChannelMask mask = 0;
  std::string limits;
  for (Platform p : ctx.spec().platforms) {
    const size_t max = limit(PackOf(p));
    if (max == 0 || v.size() <= max) continue;  // bytes >= characters
    if (chars == SIZE_MAX) chars = text::Utf8Length(v);
    if (chars <= max) continue;
    mask |= ChannelBit(p);
    limits += Cat(limits.empty() ? "; " : ", ", PlatformName(p), " allows ", Num(max));
  }
  if (mask) {
    ctx.ReportFor(mask, code, f,
                  Cat(what, " has ", Num(chars), " characters", limits));
  }
}

// What the selected templates' packs ask of the title (the used-item words only when the row
// gives no condition) and of the description: CheckChannelPacks scans each once (listing::Scan)
// for the checks below.
listing::ScanRequest TitleScan(const RowContext& ctx);
listing::ScanRequest DescriptionScan(const BatchSpec& spec);
void CheckTitle(RowContext& ctx, const listing::TextFacts& facts);
void CheckDescription(RowContext& ctx, const listing::TextFacts& facts);
void CheckLink(RowContext& ctx);
void CheckImage(RowContext& ctx);
void CheckAdditionalImages(RowContext& ctx);
void CheckPrices(RowContext& ctx);
void CheckShippingWeight(RowContext& ctx);
void CheckAvailability(RowContext& ctx);
// used_word: the title's facts' used_word (TitleScan asks for it when the row has no condition).
void CheckCondition(RowContext& ctx, std::string_view used_word);
void CheckIdentifiers(RowContext& ctx);
// The Google category id the row names (by id or path), or nullopt; reports one it cannot find.
std::optional<uint32_t> CheckGoogleCategory(RowContext& ctx);
void CheckApparel(RowContext& ctx, std::optional<uint32_t> category);

}  // namespace dq::validator::rules::channel
