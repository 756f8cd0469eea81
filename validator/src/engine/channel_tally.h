// Channel readiness of a batch (docs/api.md, "Channel readiness"): for each selected platform
// template, the rows ready to go live, the rows blocked, and the five codes that block most
// rows. The Session passes it every issue it hands on, in row order for row-level issues;
// batch-level ones (price outliers) come last and are warnings.
//
// An issue concerns the channels in Issue::channels (0 from a rule means every selected one;
// Count makes that explicit). A row is blocked for a channel when an error concerns it; a ready
// row with a warning that concerns the channel counts for that channel's score.
//
// Memory: four bytes a row (the channels each row's errors and warnings concern), and a counter
// per channel and code. Not thread-safe: the Session's emitting thread only.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "types.h"

namespace dq::validator {

class ChannelTally {
 public:
  explicit ChannelTally(const BatchSpec& spec);

  // Makes the issue's channels explicit and counts it.
  void Count(Issue& issue);
  // The per-channel stats of `rows` rows, in the order the platforms were listed; with several
  // platforms, stats.score becomes the first one's.
  void Fill(uint64_t rows, Stats& stats) const;

 private:
  std::vector<Platform> platforms_;
  ChannelMask all_ = 0;
  std::vector<uint16_t> error_rows_;    // per row (row - 1): channels an error concerns
  std::vector<uint16_t> warning_rows_;  // per row: channels a warning concerns
  // Rows blocked per channel and code: blockers_[channel index * kIssueCodeCount + code].
  std::vector<uint64_t> blockers_;
  // The channel index of each bit of all_ (ChannelBit), for the set bits of an issue's channels.
  std::array<uint8_t, 16> slot_{};
  // The current row's (code, channels) already counted in blockers_.
  uint64_t row_ = 0;
  std::vector<std::pair<IssueCode, ChannelMask>> row_codes_;
};

}  // namespace dq::validator
