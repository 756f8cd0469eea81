#include "redis_event_publisher.h"

namespace dq::gateway {

Status RedisEventPublisher::Publish(const events::StreamRecord& record) {
  std::vector<std::string> argv = {"XADD", std::string(events::kStreamKey), "MAXLEN", "~",
                                   std::string(events::kStreamMaxLen), "*"};
  for (auto& [field, value] : events::ToStreamFields(record)) {
    argv.push_back(std::move(field));
    argv.push_back(std::move(value));
  }
  auto r = redis_.Command(argv);
  return r.ok() ? Status::Ok() : r.status();
}

}  // namespace dq::gateway
