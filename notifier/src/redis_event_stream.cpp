#include "redis_event_stream.h"

#include "dq/common/event.h"

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

Status RedisEventStream::EnsureGroup() {
  auto r = redis_.Command({"XGROUP", "CREATE", std::string(webhook::kEventStream),
                           std::string(webhook::kConsumerGroup), "0", "MKSTREAM"});
  if (r.ok()) return Status::Ok();
  if (r.status().message().find("BUSYGROUP") != std::string::npos) return Status::Ok();
  return r.status();
}

Result<std::vector<StreamEntry>> RedisEventStream::ReadNew(int count, int block_ms) {
  auto r = blocking_.Command({"XREADGROUP", "GROUP", std::string(webhook::kConsumerGroup), consumer_,
                              "COUNT", std::to_string(count), "BLOCK", std::to_string(block_ms),
                              "STREAMS", std::string(webhook::kEventStream), ">"});
  if (!r.ok()) return r.status();
  std::vector<StreamEntry> out;
  if (r->is_nil()) return out;
  for (const auto& stream : r->elements) {
    if (stream.elements.size() != 2) continue;
    for (const auto& e : stream.elements[1].elements) {
      StreamEntry entry;
      if (ParseStreamEntry(e, &entry)) out.push_back(std::move(entry));
    }
  }
  return out;
}

Status RedisEventStream::Ack(const std::string& id) {
  auto r = redis_.Command({"XACK", std::string(webhook::kEventStream), std::string(webhook::kConsumerGroup), id});
  return r.ok() ? Status::Ok() : r.status();
}

Result<ClaimPage> RedisEventStream::Claim(const std::string& cursor, int64_t min_idle_ms,
                                          int count) {
  auto r = redis_.Command({"XAUTOCLAIM", std::string(webhook::kEventStream), std::string(webhook::kConsumerGroup),
                           consumer_, std::to_string(min_idle_ms), cursor, "COUNT",
                           std::to_string(count)});
  if (!r.ok()) return r.status();
  ClaimPage page;
  page.next_cursor = "0-0";
  if (r->elements.size() < 2) return page;  // 6.2 replies have two elements, 7.0 three
  page.next_cursor = r->elements[0].str;
  for (const auto& e : r->elements[1].elements) {
    StreamEntry entry;
    if (ParseStreamEntry(e, &entry)) page.entries.push_back(std::move(entry));
  }
  if (r->elements.size() >= 3) {
    for (const auto& id : r->elements[2].elements) page.deleted_ids.push_back(id.str);
  }
  return page;
}

}  // namespace dq::notifier
