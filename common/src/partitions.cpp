#include "dq/common/partitions.h"

#include <charconv>

#include "dq/common/redis_slots.h"

namespace dq {

int PartitionOf(std::string_view account_id, int partitions) {
  if (partitions <= 1) return 0;
  // The CRC16 of the whole id (KeySlot would hash only a {tag} inside it).
  return Crc16(account_id) % partitions;
}

std::string PartitionKey(std::string_view base, int partition) {
  if (partition == kLegacyPartition) return std::string(base);
  return "{" + std::string(base) + ":" + std::to_string(partition) + "}";
}

std::string PartitionedId(int partition, std::string_view stream_id) {
  return std::to_string(partition) + "/" + std::string(stream_id);
}

std::optional<std::pair<int, std::string>> ParsePartitionedId(std::string_view id) {
  const size_t slash = id.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == id.size()) return std::nullopt;
  int p = 0;
  const char* end = id.data() + slash;
  auto [ptr, ec] = std::from_chars(id.data(), end, p);
  if (ec != std::errc() || ptr != end || p < kLegacyPartition || p >= kMaxPartitions) {
    return std::nullopt;
  }
  return std::make_pair(p, std::string(id.substr(slash + 1)));
}

std::vector<int> PartitionShare(int index, int workers, int partitions) {
  std::vector<int> share;
  if (partitions < 1) partitions = 1;
  if (workers < 1) workers = 1;
  index = ((index % workers) + workers) % workers;
  if (workers >= partitions) {
    share.push_back(index % partitions);
    return share;
  }
  for (int p = index; p < partitions; p += workers) share.push_back(p);
  return share;
}

}  // namespace dq
