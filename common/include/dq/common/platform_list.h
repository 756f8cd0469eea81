// The value of the `platform` parameter: one platform template, a comma-separated list of them,
// or `all` (docs/api.md, "Channel readiness"). The gateway checks requests with it and the
// validator builds its BatchSpec with it, so both read a list the same way.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "dq/common/status.h"

namespace dq {

// Indexes into kPlatforms, in the order listed ("all": kPlatforms' order). Items are trimmed of
// spaces. Empty text gives an empty list. Errors (kInvalidRequest, naming the item): an unknown
// platform, one listed twice, an empty item ("a,,b"), or `all` beside other items.
Result<std::vector<size_t>> ParsePlatformList(std::string_view text);

}  // namespace dq
