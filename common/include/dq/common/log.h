// Structured logging: one JSON object per line on stderr, so container runtimes and log
// pipelines can parse it. Secrets are never passed here.
//
//   log::Info("gateway listening", {{"port", "8080"}});
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace dq::log {

enum class Level { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };

// Process-wide settings, set once at start-up from main().
void Init(std::string_view component, Level min_level);
// "debug", "info", "warn", "error"; false if the name is unknown.
bool ParseLevel(std::string_view name, Level* out);

using Fields = std::initializer_list<std::pair<std::string_view, std::string_view>>;

void Write(Level level, std::string_view message, Fields fields = {});
inline void Debug(std::string_view m, Fields f = {}) { Write(Level::kDebug, m, f); }
inline void Info(std::string_view m, Fields f = {}) { Write(Level::kInfo, m, f); }
inline void Warn(std::string_view m, Fields f = {}) { Write(Level::kWarn, m, f); }
inline void Error(std::string_view m, Fields f = {}) { Write(Level::kError, m, f); }

// For lines with typed members (numbers, null) built elsewhere, such as the gateway's access
// log: whether `level` is logged, the component name, and one ready-made JSON object written as
// one line (the newline is added).
bool Enabled(Level level);
std::string_view Component();
void WriteLine(std::string_view json_object);

}  // namespace dq::log
