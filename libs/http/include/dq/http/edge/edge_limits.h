// The edge's shared ceilings: request-body bytes held in memory by the whole process, open
// connections (in total and per client address), and how slowly a client may send. Each is a
// small thread-safe object owned by the HTTP server and shared by its worker threads.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "dq/common/status.h"

namespace dq::http::edge {

struct EdgeLimits {
  size_t max_header_bytes = 16 * 1024;              // longer: 431 headers_too_large
  size_t max_unauthenticated_body = 64 * 1024;      // larger bodies need a valid key or session
  size_t max_request_body = 64 * 1024 * 1024;       // larger: 413 payload_too_large
  size_t body_memory_bytes = 256 * 1024 * 1024;     // all bodies buffered at once; past: 503
  size_t max_connections = 1024;                    // open connections in total
  size_t max_connections_per_address = 64;          // per client address (trusted proxies exempt)
  size_t min_bytes_per_second = 1024;               // a request slower than this on average...
  std::chrono::milliseconds rate_grace{10000};      // ...after this long is cut (408)
  std::chrono::milliseconds idle_timeout{60000};    // a connection with no request in progress
  std::chrono::milliseconds linger{2000};           // after the edge's own answer, then closed
};

// Bytes of request bodies held in memory by the process at once. Reserve before buffering;
// release once the request has been handled (or the connection dropped).
class BodyBudget {
 public:
  explicit BodyBudget(size_t capacity) : capacity_(capacity) {}
  bool TryReserve(size_t bytes);
  void Release(size_t bytes);
  size_t in_use() const { return in_use_.load(); }
  size_t capacity() const { return capacity_; }

 private:
  const size_t capacity_;
  std::atomic<size_t> in_use_{0};
};

// What a request in progress has done so far, for the slow-sender verdict.
struct Progress {
  bool in_request = false;  // a request's first byte has arrived and it is not complete
  int64_t since_ms = 0;     // when that request started, or when the connection went idle
  size_t bytes = 0;         // bytes of that request so far
  bool closing = false;     // answered by the edge: input is discarded until the linger ends
};

enum class Verdict { kKeep, kTooSlow, kIdle };

// Pure: whether a connection in this state is cut now.
Verdict Judge(const Progress& p, int64_t now_ms, const EdgeLimits& limits);

// Open connections, counted per client address and in total, with each one's progress (for
// the reaper thread). Thread-safe.
class ConnectionTable {
 public:
  struct Entry {
    std::string address;
    bool exempt = false;  // a trusted proxy: no per-address cap
    int fd = -1;
    Progress progress;
    bool cut = false;
  };

  explicit ConnectionTable(const EdgeLimits& limits) : limits_(limits) {}
  // Registers a connection. Errors: kUnavailable when a cap is reached (nothing registered).
  Status Open(uint64_t id, std::string address, bool exempt, int fd, int64_t now_ms);
  void Close(uint64_t id);
  void Update(uint64_t id, const Progress& progress);
  // Calls cut(fd, verdict) for each connection to cut now, under the table's lock (so the fd
  // is still open), once per connection.
  void Sweep(int64_t now_ms, const std::function<void(int, Verdict)>& cut);
  size_t size() const;
  size_t CountFor(const std::string& address) const;

 private:
  const EdgeLimits& limits_;
  mutable std::mutex mu_;
  std::map<uint64_t, Entry> open_;
  std::map<std::string, size_t, std::less<>> per_address_;
};

// Addresses whose X-Forwarded-For is believed (a setting: comma-separated IPs or CIDRs).
class TrustedProxies {
 public:
  // Errors: kInvalidRequest naming the entry that is not an address or CIDR.
  static Result<TrustedProxies> Parse(std::string_view list);
  bool Contains(std::string_view address) const;
  // The client's address: the peer's unless the peer is trusted, then the right-most address
  // of X-Forwarded-For that is not itself trusted (or its left-most when all are).
  std::string ClientAddress(std::string_view peer, const std::string* forwarded_for) const;
  bool empty() const { return nets_.empty(); }

 private:
  struct Net {
    int family = 0;
    unsigned char bytes[16] = {};
    int prefix = 0;
  };
  std::vector<Net> nets_;
};

}  // namespace dq::http::edge
