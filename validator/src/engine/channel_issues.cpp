#include "channel_issues.h"

namespace dq::validator {
namespace {

constexpr ChannelIssue kChannelIssues[] = {
#define DQ_PREDICTS(code, channel, name, source) {IssueCode::code, channel, name, source},
#include "channel_issues.def"
#undef DQ_PREDICTS
};

}  // namespace

std::span<const ChannelIssue> ChannelIssues() { return kChannelIssues; }

}  // namespace dq::validator
