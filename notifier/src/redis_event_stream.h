// The `dq:events` stream through the `notifier` consumer group (docs/events.md).
//
// Reads use a RedisClient whose read timeout exceeds the BLOCK time (hiredis would otherwise
// time the blocked read out); acks and claims may use the ordinary client.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dq/common/redis_client.h"
#include "dq/common/status.h"

namespace dq::notifier {

struct StreamEntry {
  std::string id;
  std::vector<std::pair<std::string, std::string>> fields;
};

struct ClaimPage {
  std::string next_cursor;  // "0-0" when the scan of the pending list is complete
  std::vector<StreamEntry> entries;
  std::vector<std::string> deleted_ids;  // pending ids whose entries were trimmed away
};

class RedisEventStream {
 public:
  // blocking is used for XREADGROUP BLOCK; redis for everything else.
  RedisEventStream(RedisClient& redis, RedisClient& blocking, std::string consumer)
      : redis_(redis), blocking_(blocking), consumer_(std::move(consumer)) {}

  // XGROUP CREATE dq:events notifier 0 MKSTREAM; an existing group (BUSYGROUP) is fine.
  Status EnsureGroup();
  // New entries for this consumer (">"), waiting up to block_ms. Empty on timeout.
  Result<std::vector<StreamEntry>> ReadNew(int count, int block_ms);
  Status Ack(const std::string& id);
  // XAUTOCLAIM: takes entries pending longer than min_idle_ms (their consumer died or hangs).
  Result<ClaimPage> Claim(const std::string& cursor, int64_t min_idle_ms, int count);

  const std::string& consumer() const { return consumer_; }

 private:
  RedisClient& redis_;
  RedisClient& blocking_;
  std::string consumer_;
};

// Parses one [id, [field, value, ...]] element of a stream reply. False when malformed (a nil
// field list marks an entry deleted from the stream).
bool ParseStreamEntry(const RedisReply& reply, StreamEntry* out);

}  // namespace dq::notifier
