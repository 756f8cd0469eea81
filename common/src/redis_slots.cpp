#include "dq/common/redis_slots.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>

namespace dq {
namespace {

constexpr std::array<uint16_t, 256> MakeCrcTable() {
  std::array<uint16_t, 256> t{};
  for (int i = 0; i < 256; ++i) {
    uint16_t crc = static_cast<uint16_t>(i << 8);
    for (int b = 0; b < 8; ++b) {
      crc = (crc & 0x8000) != 0 ? static_cast<uint16_t>((crc << 1) ^ 0x1021)
                                : static_cast<uint16_t>(crc << 1);
    }
    t[static_cast<size_t>(i)] = crc;
  }
  return t;
}
constexpr std::array<uint16_t, 256> kCrcTable = MakeCrcTable();

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::optional<int> ToInt(std::string_view s) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// Position of the first key, by command; 0 for keyless commands. -1: after STREAMS. -2: EVAL's
// numkeys at argv[2].
int FirstKeyIndex(const std::string& cmd, const std::vector<std::string>& argv) {
  if (cmd == "XREAD" || cmd == "XREADGROUP") return -1;
  if (cmd == "EVAL" || cmd == "EVALSHA" || cmd == "EVAL_RO" || cmd == "EVALSHA_RO" ||
      cmd == "FCALL" || cmd == "FCALL_RO") {
    return -2;
  }
  if (cmd == "XGROUP" || cmd == "XINFO") {
    if (argv.size() < 3) return 0;
    const std::string sub = Upper(argv[1]);
    return sub == "HELP" ? 0 : 2;
  }
  static constexpr const char* kKeyless[] = {
      "PING",     "WAIT",     "ROLE",      "INFO",     "CLUSTER",  "SCRIPT",       "ASKING",
      "AUTH",     "HELLO",    "SELECT",    "ACL",      "CONFIG",   "CLIENT",       "DEBUG",
      "FLUSHALL", "FLUSHDB",  "DBSIZE",    "SENTINEL", "MULTI",    "EXEC",         "DISCARD",
      "TIME",     "FAILOVER", "REPLICAOF", "SAVE",     "BGSAVE",   "BGREWRITEAOF", "SHUTDOWN",
      "KEYS",     "SCAN",     "RANDOMKEY", "COMMAND",  "READONLY", "READWRITE",    "QUIT",
      "ECHO",     "LASTSAVE", "MONITOR",   "SLOWLOG",  "MEMORY"};
  for (const char* k : kKeyless) {
    if (cmd == k) return 0;
  }
  return 1;
}

}  // namespace

uint16_t Crc16(std::string_view data) {
  uint16_t crc = 0;
  for (unsigned char c : data) {
    crc = static_cast<uint16_t>((crc << 8) ^ kCrcTable[((crc >> 8) ^ c) & 0xff]);
  }
  return crc;
}

std::string_view HashTagOf(std::string_view key) {
  const size_t open = key.find('{');
  if (open == std::string_view::npos) return key;
  const size_t close = key.find('}', open + 1);
  if (close == std::string_view::npos || close == open + 1) return key;
  return key.substr(open + 1, close - open - 1);
}

int KeySlot(std::string_view key) { return Crc16(HashTagOf(key)) & (kClusterSlots - 1); }

std::optional<Redirect> ParseRedirect(std::string_view error) {
  Redirect r;
  if (StartsWith(error, "MOVED ")) {
    r.kind = Redirect::Kind::kMoved;
    error.remove_prefix(6);
  } else if (StartsWith(error, "ASK ")) {
    r.kind = Redirect::Kind::kAsk;
    error.remove_prefix(4);
  } else {
    return std::nullopt;
  }
  const size_t space = error.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  auto slot = ToInt(error.substr(0, space));
  if (!slot || *slot < 0 || *slot >= kClusterSlots) return std::nullopt;
  r.slot = *slot;
  std::string_view addr = error.substr(space + 1);
  while (!addr.empty() && (addr.back() == '\r' || addr.back() == '\n' || addr.back() == ' ')) {
    addr.remove_suffix(1);
  }
  const size_t colon = addr.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto port = ToInt(addr.substr(colon + 1));
  if (!port || *port <= 0 || *port > 65535) return std::nullopt;
  r.port = *port;
  std::string_view host = addr.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  r.host = std::string(host);
  return r;
}

bool IsRetryableError(std::string_view error) {
  for (std::string_view code :
       {"TRYAGAIN", "CLUSTERDOWN", "LOADING", "MASTERDOWN", "READONLY", "NOREPLICAS", "BUSY "}) {
    if (StartsWith(error, code)) return true;
  }
  return false;
}

bool IsNotMasterError(std::string_view error) {
  return StartsWith(error, "READONLY") || StartsWith(error, "MASTERDOWN");
}

std::vector<std::string_view> CommandKeys(const std::vector<std::string>& argv) {
  std::vector<std::string_view> keys;
  if (argv.empty()) return keys;
  const std::string cmd = Upper(argv[0]);
  const int first = FirstKeyIndex(cmd, argv);
  if (first == 0) return keys;
  if (first == -1) {  // XREAD[GROUP] ... STREAMS k1 k2 ... id1 id2 ...
    for (size_t i = 1; i < argv.size(); ++i) {
      if (Upper(argv[i]) != "STREAMS") continue;
      const size_t n = (argv.size() - i - 1) / 2;
      for (size_t k = 0; k < n; ++k) keys.push_back(argv[i + 1 + k]);
      break;
    }
    return keys;
  }
  if (first == -2) {  // EVAL script numkeys k1 ... kn args...
    if (argv.size() < 3) return keys;
    auto n = ToInt(argv[2]);
    if (!n || *n < 0) return keys;
    for (size_t k = 0; k < static_cast<size_t>(*n) && 3 + k < argv.size(); ++k) {
      keys.push_back(argv[3 + k]);
    }
    return keys;
  }
  if (static_cast<size_t>(first) >= argv.size()) return keys;
  if (cmd == "DEL" || cmd == "UNLINK" || cmd == "EXISTS" || cmd == "MGET" || cmd == "TOUCH" ||
      cmd == "WATCH" || cmd == "SDIFF" || cmd == "SINTER" || cmd == "SUNION") {
    for (size_t i = 1; i < argv.size(); ++i) keys.push_back(argv[i]);
    return keys;
  }
  if (cmd == "MSET" || cmd == "MSETNX") {
    for (size_t i = 1; i < argv.size(); i += 2) keys.push_back(argv[i]);
    return keys;
  }
  if (cmd == "RENAME" || cmd == "RENAMENX" || cmd == "SMOVE" || cmd == "LMOVE" ||
      cmd == "RPOPLPUSH" || cmd == "COPY") {
    for (size_t i = 1; i < 3 && i < argv.size(); ++i) keys.push_back(argv[i]);
    return keys;
  }
  keys.push_back(argv[static_cast<size_t>(first)]);
  return keys;
}

std::optional<std::string_view> RoutingKey(const std::vector<std::string>& argv) {
  auto keys = CommandKeys(argv);
  if (keys.empty()) return std::nullopt;
  return keys.front();
}

}  // namespace dq

namespace dq {
namespace {

Status BadTable(const std::string& what) {
  return Status(ErrorCode::kInternal, "unexpected cluster slot table: " + what);
}

// The value of `name` in a flat [name, value, name, value...] array.
const RedisReply* Field(const RedisReply& map, std::string_view name) {
  for (size_t i = 0; i + 1 < map.elements.size(); i += 2) {
    if (map.elements[i].str == name) return &map.elements[i + 1];
  }
  return nullptr;
}

int64_t IntOf(const RedisReply& r) {
  if (r.type == RedisReply::Type::kInteger) return r.integer;
  return std::atoll(r.str.c_str());
}

}  // namespace

Result<std::vector<SlotRange>> ParseClusterShards(const RedisReply& reply,
                                                  const RedisAddress& asked) {
  if (reply.type != RedisReply::Type::kArray) return BadTable("not an array");
  std::vector<SlotRange> out;
  for (const auto& shard : reply.elements) {
    const RedisReply* slots = Field(shard, "slots");
    const RedisReply* nodes = Field(shard, "nodes");
    if (slots == nullptr || nodes == nullptr) return BadTable("a shard without slots or nodes");
    std::optional<RedisAddress> master;
    for (const auto& node : nodes->elements) {
      const RedisReply* role = Field(node, "role");
      const RedisReply* health = Field(node, "health");
      if (role == nullptr || role->str != "master") continue;
      if (health != nullptr && health->str == "fail") continue;
      RedisAddress a;
      const RedisReply* endpoint = Field(node, "endpoint");
      const RedisReply* ip = Field(node, "ip");
      a.host = endpoint != nullptr && !endpoint->str.empty() && endpoint->str != "?"
                   ? endpoint->str
                   : (ip != nullptr ? ip->str : "");
      if (a.host.empty()) a.host = asked.host;
      const RedisReply* port = Field(node, "port");
      if (port == nullptr) port = Field(node, "tls-port");
      if (port == nullptr) return BadTable("a node without a port");
      a.port = static_cast<int>(IntOf(*port));
      master = a;
      break;
    }
    if (!master) continue;  // a shard whose master failed: its slots are unserved until promoted
    for (size_t i = 0; i + 1 < slots->elements.size(); i += 2) {
      SlotRange r;
      r.first = static_cast<int>(IntOf(slots->elements[i]));
      r.last = static_cast<int>(IntOf(slots->elements[i + 1]));
      if (r.first < 0 || r.last >= kClusterSlots || r.first > r.last) {
        return BadTable("a slot range out of bounds");
      }
      r.master = *master;
      out.push_back(r);
    }
  }
  return out;
}

Result<std::vector<SlotRange>> ParseClusterSlots(const RedisReply& reply,
                                                 const RedisAddress& asked) {
  if (reply.type != RedisReply::Type::kArray) return BadTable("not an array");
  std::vector<SlotRange> out;
  for (const auto& range : reply.elements) {
    if (range.elements.size() < 3 || range.elements[2].elements.size() < 2) {
      return BadTable("a range without its master");
    }
    SlotRange r;
    r.first = static_cast<int>(IntOf(range.elements[0]));
    r.last = static_cast<int>(IntOf(range.elements[1]));
    if (r.first < 0 || r.last >= kClusterSlots || r.first > r.last) {
      return BadTable("a slot range out of bounds");
    }
    const auto& m = range.elements[2].elements;
    r.master.host = m[0].str.empty() || m[0].str == "?" ? asked.host : m[0].str;
    r.master.port = static_cast<int>(IntOf(m[1]));
    out.push_back(r);
  }
  return out;
}

}  // namespace dq
