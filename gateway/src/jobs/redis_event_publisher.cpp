#include "redis_event_publisher.h"

#include <algorithm>
#include <charconv>

#include "dq/common/partitions.h"

namespace dq::gateway {

RedisEventPublisher::RedisEventPublisher(RedisClient& redis, int partitions)
    : redis_(redis),
      partitions_(std::clamp(partitions > 0 ? partitions : redis.options().partitions, 1,
                             kMaxPartitions)) {}

Status RedisEventPublisher::Publish(const events::StreamRecord& record) {
  int64_t max_len = 0;
  const std::string_view total = events::kStreamMaxLen;
  std::from_chars(total.data(), total.data() + total.size(), max_len);
  max_len = std::max<int64_t>(1000, max_len / partitions_);
  std::vector<std::string> argv = {
      "XADD", PartitionKey(events::kStreamKey, PartitionOf(record.account_id, partitions_)),
      "MAXLEN", "~", std::to_string(max_len), "*"};
  for (auto& [field, value] : events::ToStreamFields(record)) {
    argv.push_back(std::move(field));
    argv.push_back(std::move(value));
  }
  auto r = redis_.Command(argv);
  return r.ok() ? Status::Ok() : r.status();
}

}  // namespace dq::gateway
