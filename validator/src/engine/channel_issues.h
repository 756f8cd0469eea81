// The crosswalk from dq's codes to the issue names channels report (channel_issues.def): what a
// merchant sees in Merchant Center or Manufacturer Center for the problem a dq code predicts.
#pragma once

#include <span>
#include <string_view>

#include "issue_catalogue.h"

namespace dq::validator {

struct ChannelIssue {
  IssueCode code;
  std::string_view channel;  // "Merchant Center", "Merchant Center (Content API)", ...
  std::string_view name;     // the channel's issue name, as it publishes it
  std::string_view source;   // the page that publishes it
};

// Every row of channel_issues.def, in its order.
std::span<const ChannelIssue> ChannelIssues();

}  // namespace dq::validator
