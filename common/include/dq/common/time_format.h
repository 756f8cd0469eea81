// Timestamps as the API writes them.
#pragma once

#include <chrono>
#include <string>

namespace dq {

// "2026-11-22T09:05:01.042Z": ISO 8601, UTC, milliseconds.
std::string FormatIso8601Millis(std::chrono::system_clock::time_point t);

// "202611": the UTC month a quota counter belongs to.
std::string FormatYearMonth(std::chrono::system_clock::time_point t);

}  // namespace dq
