#include "dq/common/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

#include "dq/common/json_escape.h"
#include "dq/common/time_format.h"

namespace dq::log {
namespace {

std::atomic<int> g_min_level{static_cast<int>(Level::kInfo)};
std::string g_component = "dq";  // written once in Init, before threads start
std::mutex g_write_mutex;

const char* LevelName(Level l) {
  switch (l) {
    case Level::kDebug: return "debug";
    case Level::kInfo: return "info";
    case Level::kWarn: return "warn";
    case Level::kError: return "error";
  }
  return "info";
}


}  // namespace

void Init(std::string_view component, Level min_level) {
  g_component = std::string(component);
  g_min_level = static_cast<int>(min_level);
}

bool ParseLevel(std::string_view name, Level* out) {
  for (Level l : {Level::kDebug, Level::kInfo, Level::kWarn, Level::kError}) {
    if (name == LevelName(l)) {
      *out = l;
      return true;
    }
  }
  return false;
}

bool Enabled(Level level) {
  return static_cast<int>(level) >= g_min_level.load(std::memory_order_relaxed);
}

std::string_view Component() { return g_component; }

void WriteLine(std::string_view json_object) {
  std::string line(json_object);
  line.push_back('\n');
  std::lock_guard lock(g_write_mutex);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

void Write(Level level, std::string_view message, Fields fields) {
  if (static_cast<int>(level) < g_min_level.load(std::memory_order_relaxed)) return;
  std::string line;
  line.reserve(128 + message.size());
  line += "{\"ts\":";
  AppendJsonString(line, FormatIso8601Millis(std::chrono::system_clock::now()));
  line += ",\"level\":";
  AppendJsonString(line, LevelName(level));
  line += ",\"component\":";
  AppendJsonString(line, g_component);
  line += ",\"msg\":";
  AppendJsonString(line, message);
  for (const auto& [k, v] : fields) {
    line.push_back(',');
    AppendJsonString(line, k);
    line.push_back(':');
    AppendJsonString(line, v);
  }
  line += "}\n";
  std::lock_guard lock(g_write_mutex);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace dq::log
