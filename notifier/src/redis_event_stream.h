// The event stream's partitions ({dq:events:<p>}, dq/common/partitions.h) and the single
// `dq:events` stream of older releases, through the `notifier` consumer group (docs/events.md).
// Every notifier reads every partition, in turn, so that a busy account's partition does not
// hold the others back. Entry ids are "<p>/<stream id>" (p = -1: the old stream).
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
  // partitions < 1: redis.options().partitions.
  RedisEventStream(RedisClient& redis, RedisClient& blocking, std::string consumer,
                   int partitions = 0);

  // XGROUP CREATE <partition> notifier 0 MKSTREAM on each; an existing group (BUSYGROUP) is fine.
  Status EnsureGroup();
  // New entries for this consumer (">") from the partitions, starting after the one the last
  // call took from; when none has any, waits on one of them (in turn) for a share of block_ms.
  // Empty on timeout.
  Result<std::vector<StreamEntry>> ReadNew(int count, int block_ms);
  Status Ack(const std::string& id);
  // XAUTOCLAIM: takes entries pending longer than min_idle_ms (their consumer died or hangs),
  // one partition after the other; the cursor ("0-0" to start, and when every partition has
  // been scanned) names the partition too.
  Result<ClaimPage> Claim(const std::string& cursor, int64_t min_idle_ms, int count);

  const std::string& consumer() const { return consumer_; }

 private:
  RedisClient& redis_;
  RedisClient& blocking_;
  std::string consumer_;
  int partitions_;
  int next_ = 0;  // the partition ReadNew starts at (kLegacyPartition .. partitions_ - 1)
};

// Parses one [id, [field, value, ...]] element of a stream reply. False when malformed (a nil
// field list marks an entry deleted from the stream).
bool ParseStreamEntry(const RedisReply& reply, StreamEntry* out);

}  // namespace dq::notifier
