#include "channel_tally.h"

#include <algorithm>
#include <bit>

namespace dq::validator {

ChannelTally::ChannelTally(const BatchSpec& spec)
    : platforms_(spec.platforms), all_(spec.channels) {
  blockers_.assign(platforms_.size() * kIssueCodeCount, 0);
  for (size_t c = 0; c < platforms_.size(); ++c) {
    slot_[static_cast<size_t>(std::countr_zero(ChannelBit(platforms_[c])))] =
        static_cast<uint8_t>(c);
  }
}

void ChannelTally::Count(Issue& issue) {
  if (all_ == 0 || issue.row == 0) {
    if (issue.channels == kNoChannel) issue.channels = 0;
    return;
  }
  issue.channels = issue.channels == 0 ? all_ : (issue.channels & all_);  // kNoChannel: none
  const size_t index = issue.row - 1;
  if (index >= error_rows_.size()) {
    error_rows_.resize(index + 1, 0);
    warning_rows_.resize(index + 1, 0);
  }
  if (issue.severity() == Severity::kWarning) {
    warning_rows_[index] |= issue.channels;
    return;
  }
  error_rows_[index] |= issue.channels;
  if (issue.row != row_) {
    row_ = issue.row;
    row_codes_.clear();
  }
  // Count the row once per code and channel, however many fields the code is reported on.
  ChannelMask fresh = issue.channels;
  auto it = std::find_if(row_codes_.begin(), row_codes_.end(),
                         [&](const auto& rc) { return rc.first == issue.code; });
  if (it == row_codes_.end()) {
    row_codes_.emplace_back(issue.code, fresh);
  } else {
    fresh &= static_cast<ChannelMask>(~it->second);
    it->second |= fresh;
  }
  // Each channel of the issue's set, by its bit (the set is within all_: every bit has a slot).
  for (unsigned bits = fresh; bits != 0; bits &= bits - 1) {
    const size_t c = slot_[static_cast<size_t>(std::countr_zero(bits))];
    ++blockers_[c * kIssueCodeCount + static_cast<size_t>(issue.code)];
  }
}

void ChannelTally::Fill(uint64_t rows, Stats& stats) const {
  stats.channels.clear();
  for (size_t c = 0; c < platforms_.size(); ++c) {
    const ChannelMask bit = ChannelBit(platforms_[c]);
    ChannelStats ch;
    ch.platform = platforms_[c];
    for (size_t r = 0; r < error_rows_.size(); ++r) {
      if (error_rows_[r] & bit) {
        ++ch.blocked;
      } else if (warning_rows_[r] & bit) {
        ++ch.rows_warning;
      }
    }
    ch.ready = rows - ch.blocked;
    ch.score = HealthScore(rows, ch.blocked, ch.rows_warning);
    std::vector<ChannelStats::Blocker> all;
    for (size_t code = 0; code < kIssueCodeCount; ++code) {
      const uint64_t n = blockers_[c * kIssueCodeCount + code];
      if (n > 0) all.push_back({static_cast<IssueCode>(code), n});
    }
    // Most rows first; ties in catalogue order (the vector is in that order, and the sort is
    // stable).
    std::stable_sort(all.begin(), all.end(),
                     [](const auto& a, const auto& b) { return a.rows > b.rows; });
    if (all.size() > 5) all.resize(5);
    ch.top_blockers = std::move(all);
    stats.channels.push_back(std::move(ch));
  }
  if (stats.channels.size() > 1) stats.score = stats.channels.front().score;
}

}  // namespace dq::validator
