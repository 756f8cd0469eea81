#include "dq/http/edge/edge_limits.h"

#include <arpa/inet.h>


#include <cstring>

#include "dq/http/edge/text.h"

namespace dq::http::edge {

bool BodyBudget::TryReserve(size_t bytes) {
  size_t current = in_use_.load();
  do {
    if (bytes > capacity_ || current > capacity_ - bytes) return false;
  } while (!in_use_.compare_exchange_weak(current, current + bytes));
  return true;
}

void BodyBudget::Release(size_t bytes) { in_use_.fetch_sub(bytes); }

Verdict Judge(const Progress& p, int64_t now_ms, const EdgeLimits& limits) {
  const int64_t elapsed = now_ms - p.since_ms;
  if (p.closing) return elapsed > limits.linger.count() ? Verdict::kIdle : Verdict::kKeep;
  if (!p.in_request) return elapsed > limits.idle_timeout.count() ? Verdict::kIdle : Verdict::kKeep;
  if (elapsed <= limits.rate_grace.count()) return Verdict::kKeep;
  // Average rate since the request started: bytes * 1000 / elapsed_ms < min rate.
  const auto needed = static_cast<double>(limits.min_bytes_per_second) * elapsed / 1000.0;
  return static_cast<double>(p.bytes) < needed ? Verdict::kTooSlow : Verdict::kKeep;
}

Status ConnectionTable::Open(uint64_t id, std::string address, bool exempt, int fd,
                             int64_t now_ms) {
  std::lock_guard lock(mu_);
  if (open_.size() >= limits_.max_connections) {
    return Status(ErrorCode::kUnavailable,
                  "The server has too many open connections; retry shortly.");
  }
  size_t& count = per_address_[address];
  if (!exempt && count >= limits_.max_connections_per_address) {
    if (count == 0) per_address_.erase(address);
    return Status(ErrorCode::kUnavailable,
                  "Too many open connections from this address; reuse connections or retry "
                  "shortly.");
  }
  ++count;
  Entry e;
  e.address = std::move(address);
  e.exempt = exempt;
  e.fd = fd;
  e.progress.since_ms = now_ms;
  open_.emplace(id, std::move(e));
  return Status::Ok();
}

void ConnectionTable::Close(uint64_t id) {
  std::lock_guard lock(mu_);
  auto it = open_.find(id);
  if (it == open_.end()) return;
  auto pa = per_address_.find(it->second.address);
  if (pa != per_address_.end() && --pa->second == 0) per_address_.erase(pa);
  open_.erase(it);
}

void ConnectionTable::Update(uint64_t id, const Progress& progress) {
  std::lock_guard lock(mu_);
  auto it = open_.find(id);
  if (it != open_.end()) it->second.progress = progress;
}

void ConnectionTable::Sweep(int64_t now_ms, const std::function<void(int, Verdict)>& cut) {
  std::lock_guard lock(mu_);
  for (auto& [id, e] : open_) {
    if (e.cut) continue;
    const Verdict v = Judge(e.progress, now_ms, limits_);
    if (v == Verdict::kKeep) continue;
    e.cut = true;
    cut(e.fd, v);
  }
}

size_t ConnectionTable::size() const {
  std::lock_guard lock(mu_);
  return open_.size();
}

size_t ConnectionTable::CountFor(const std::string& address) const {
  std::lock_guard lock(mu_);
  auto it = per_address_.find(address);
  return it == per_address_.end() ? 0 : it->second;
}

namespace {

bool ParseAddress(std::string_view text, int* family, unsigned char* bytes) {
  const std::string s(text);
  if (inet_pton(AF_INET, s.c_str(), bytes) == 1) {
    *family = AF_INET;
    return true;
  }
  if (inet_pton(AF_INET6, s.c_str(), bytes) == 1) {
    *family = AF_INET6;
    return true;
  }
  return false;
}

}  // namespace

Result<TrustedProxies> TrustedProxies::Parse(std::string_view list) {
  TrustedProxies out;
  for (std::string_view item : SplitList(list)) {
    item = Trim(item);
    Net net;
    const size_t slash = item.find('/');
    if (!ParseAddress(item.substr(0, slash), &net.family, net.bytes)) {
      return Status(ErrorCode::kInvalidRequest,
                    "trusted proxy entry '" + std::string(item) + "' is not an IP or CIDR");
    }
    const int max = net.family == AF_INET ? 32 : 128;
    net.prefix = max;
    if (slash != std::string_view::npos) {
      const std::string bits(item.substr(slash + 1));
      if (bits.empty() || bits.size() > 3 || bits.find_first_not_of("0123456789") != bits.npos ||
          std::stoi(bits) > max) {
        return Status(ErrorCode::kInvalidRequest,
                      "trusted proxy entry '" + std::string(item) + "' has a bad prefix length");
      }
      net.prefix = std::stoi(bits);
    }
    out.nets_.push_back(net);
  }
  return out;
}

bool TrustedProxies::Contains(std::string_view address) const {
  int family = 0;
  unsigned char bytes[16] = {};
  if (nets_.empty() || !ParseAddress(Trim(address), &family, bytes)) {
    return false;
  }
  for (const Net& n : nets_) {
    if (n.family != family) continue;
    const int full = n.prefix / 8;
    const int rest = n.prefix % 8;
    if (std::memcmp(n.bytes, bytes, static_cast<size_t>(full)) != 0) continue;
    if (rest != 0) {
      const auto mask = static_cast<unsigned char>(0xFF << (8 - rest));
      if ((n.bytes[full] & mask) != (bytes[full] & mask)) continue;
    }
    return true;
  }
  return false;
}

std::string TrustedProxies::ClientAddress(std::string_view peer,
                                          const std::string* forwarded_for) const {
  if (forwarded_for == nullptr || !Contains(peer)) return std::string(peer);
  const std::vector<std::string_view> hops = SplitList(*forwarded_for);
  for (auto it = hops.rbegin(); it != hops.rend(); ++it) {
    const std::string_view hop = Trim(*it);
    int family = 0;
    unsigned char bytes[16] = {};
    if (!ParseAddress(hop, &family, bytes)) return std::string(peer);  // garbage: ignore it
    if (!Contains(hop)) return std::string(hop);
  }
  return hops.empty() ? std::string(peer) : std::string(Trim(hops.front()));
}

}  // namespace dq::http::edge
