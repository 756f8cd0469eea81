// The job queue, the event stream and the webhook retry set are split into N partitions (issue
// 35, point 4; DQ_QUEUE_PARTITIONS), so that under Redis Cluster they spread over N slots instead
// of one hot shard. By default (DQ_QUEUE_PARTITIONS=0) N is DefaultPartitions(cluster): 16 under
// Redis Cluster, 1 on a single Redis or under Sentinel, where one master holds every key anyway
// and a reader that waits on one key of several takes a job queued on another only when its wait
// ends (up to 50 ms later). Each partition's keys carry their own hash tag:
//
//   {dq:jobs:queue:<p>}             the job queue's partition p (a stream)
//   {dq:events:<p>}                 the event stream's partition p
//   {dq:webhooks:retry:<p>}         the retry set's partition p (a sorted set)
//   {dq:webhooks:retry:<p>}:ids     its index (delivery id -> member), in the same slot
//
// An account's work always goes to the same partition, PartitionOf(account_id, N) (CRC16 of the
// account id, so every process and language agrees). Every reader also drains the single keys
// of older releases (dq:jobs:queue, dq:events, dq:webhooks:retry): nothing written before an
// upgrade is stranded.
//
// Entries read from a partitioned stream are named "<p>/<stream id>" (p = -1 for the old single
// key), so an acknowledgement finds its partition.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dq {

inline constexpr int kClusterPartitions = 16;  // the default under Redis Cluster
inline constexpr int kMaxPartitions = 1024;
inline constexpr int kLegacyPartition = -1;  // the single key of releases before partitions

// The partitions when DQ_QUEUE_PARTITIONS is 0 (its default): kClusterPartitions under Redis
// Cluster, else 1.
constexpr int DefaultPartitions(bool cluster) { return cluster ? kClusterPartitions : 1; }

// The partition of an account's work, in [0, partitions).
int PartitionOf(std::string_view account_id, int partitions);

// "{base:p}", or base itself for kLegacyPartition.
std::string PartitionKey(std::string_view base, int partition);

// "<p>/<stream id>" and back. nullopt for text that is not such a name.
std::string PartitionedId(int partition, std::string_view stream_id);
std::optional<std::pair<int, std::string>> ParsePartitionedId(std::string_view id);

// The partitions (of `partitions`) that worker `index` of `workers` reads: one each when there
// are at least as many workers as partitions (index mod partitions), else every partition p with
// p mod workers == index, so that together the workers read every partition.
std::vector<int> PartitionShare(int index, int workers, int partitions);

}  // namespace dq
