// Timestamps as the API writes them.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dq {

// "2026-11-22T09:05:01.042Z": ISO 8601, UTC, milliseconds.
std::string FormatIso8601Millis(std::chrono::system_clock::time_point t);

// The inverse of FormatIso8601Millis: Unix milliseconds, or nullopt for anything that is not
// exactly "YYYY-MM-DDTHH:MM:SS.mmmZ" with valid ranges.
std::optional<int64_t> ParseIso8601Millis(std::string_view text);

// "202611": the UTC month a quota counter belongs to.
std::string FormatYearMonth(std::chrono::system_clock::time_point t);

}  // namespace dq
