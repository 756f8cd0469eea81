#include "dq/common/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

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

void AppendJsonString(std::string& out, std::string_view s) {
  out.push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
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
