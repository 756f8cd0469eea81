#include "redis_event_stream.h"

#include <algorithm>

#include "dq/common/event.h"
#include "dq/common/partitions.h"

namespace dq::notifier {

bool ParseStreamEntry(const RedisReply& r, StreamEntry* out) {
  if (r.type != RedisReply::Type::kArray || r.elements.size() != 2) return false;
  if (r.elements[1].type != RedisReply::Type::kArray) return false;
  out->id = r.elements[0].str;
  out->fields.clear();
  const auto& kv = r.elements[1].elements;
  for (size_t i = 0; i + 1 < kv.size(); i += 2) out->fields.emplace_back(kv[i].str, kv[i + 1].str);
  return !out->id.empty();
}

namespace {

std::string Key(int partition) { return PartitionKey(webhook::kEventStream, partition); }

}  // namespace

RedisEventStream::RedisEventStream(RedisClient& redis, RedisClient& blocking,
                                   std::string consumer, int partitions)
    : redis_(redis),
      blocking_(blocking),
      consumer_(std::move(consumer)),
      partitions_(std::clamp(partitions > 0 ? partitions : redis.options().partitions, 1,
                             kMaxPartitions)) {}

Status RedisEventStream::EnsureGroup() {
  for (int p = kLegacyPartition; p < partitions_; ++p) {
    auto r = redis_.Command(
        {"XGROUP", "CREATE", Key(p), std::string(webhook::kConsumerGroup), "0", "MKSTREAM"});
    if (!r.ok() && r.status().message().find("BUSYGROUP") == std::string::npos) {
      return r.status();
    }
  }
  return Status::Ok();
}

Result<std::vector<StreamEntry>> RedisEventStream::ReadNew(int count, int block_ms) {
  // Partitions kLegacyPartition .. partitions_ - 1, i.e. n of them, from next_.
  const int n = partitions_ + 1;
  std::vector<StreamEntry> out;
  auto read = [&](int p, int block) -> Status {
    std::vector<std::string> argv = {"XREADGROUP", "GROUP", std::string(webhook::kConsumerGroup),
                                     consumer_, "COUNT",
                                     std::to_string(count - static_cast<int>(out.size()))};
    if (block > 0) argv.insert(argv.end(), {"BLOCK", std::to_string(block)});
    argv.insert(argv.end(), {"STREAMS", Key(p), ">"});
    auto r = (block > 0 ? blocking_ : redis_).Command(argv);
    if (!r.ok()) return r.status();
    if (r->is_nil()) return Status::Ok();
    for (const auto& stream : r->elements) {
      if (stream.elements.size() != 2) continue;
      for (const auto& e : stream.elements[1].elements) {
        StreamEntry entry;
        if (ParseStreamEntry(e, &entry)) {
          entry.id = PartitionedId(p, entry.id);
          out.push_back(std::move(entry));
        }
      }
    }
    return Status::Ok();
  };
  const int start = next_;
  for (int k = 0; k < n && static_cast<int>(out.size()) < count; ++k) {
    const int p = (start - kLegacyPartition + k) % n + kLegacyPartition;
    if (Status s = read(p, 0); !s.ok()) return s;
    if (!out.empty()) next_ = (p - kLegacyPartition + 1) % n + kLegacyPartition;
  }
  if (!out.empty() || block_ms <= 0) return out;
  // Nothing anywhere: wait on one partition, in turn, never on the old stream (no release writes
  // it any more; with one partition the wait is always on the partition, with no delay).
  const int p = start == kLegacyPartition ? 0 : start;
  next_ = (p - kLegacyPartition + 1) % n + kLegacyPartition;
  if (Status s = read(p, std::max(50, block_ms / partitions_)); !s.ok()) return s;
  return out;
}

Status RedisEventStream::Ack(const std::string& id) {
  auto parsed = ParsePartitionedId(id);
  if (!parsed) return Status(ErrorCode::kInvalidRequest, "not an event entry id: " + id);
  auto r = redis_.Command({"XACK", Key(parsed->first), std::string(webhook::kConsumerGroup),
                           parsed->second});
  return r.ok() ? Status::Ok() : r.status();
}

Result<ClaimPage> RedisEventStream::Claim(const std::string& cursor, int64_t min_idle_ms,
                                          int count) {
  int p = kLegacyPartition;
  std::string from = "0-0";
  if (cursor != "0-0" && !cursor.empty()) {
    auto parsed = ParsePartitionedId(cursor);
    if (parsed && parsed->first < partitions_) {
      p = parsed->first;
      from = parsed->second;
    }
  }
  auto r = redis_.Command({"XAUTOCLAIM", Key(p), std::string(webhook::kConsumerGroup), consumer_,
                           std::to_string(min_idle_ms), from, "COUNT", std::to_string(count)});
  if (!r.ok()) return r.status();
  ClaimPage page;
  std::string next = "0-0";
  if (r->elements.size() >= 2) {  // 6.2 replies have two elements, 7.0 three
    next = r->elements[0].str.empty() ? "0-0" : r->elements[0].str;
    for (const auto& e : r->elements[1].elements) {
      StreamEntry entry;
      if (ParseStreamEntry(e, &entry)) {
        entry.id = PartitionedId(p, entry.id);
        page.entries.push_back(std::move(entry));
      }
    }
    if (r->elements.size() >= 3) {
      for (const auto& id : r->elements[2].elements) {
        page.deleted_ids.push_back(PartitionedId(p, id.str));
      }
    }
  }
  // This partition scanned: the next one, from its start; after the last, "0-0" (all done).
  if (next != "0-0") {
    page.next_cursor = PartitionedId(p, next);
  } else if (p + 1 < partitions_) {
    page.next_cursor = PartitionedId(p + 1, "0-0");
  } else {
    page.next_cursor = "0-0";
  }
  return page;
}

}  // namespace dq::notifier
