#include "dq/common/event.h"

#include <nlohmann/json.hpp>

#include "dq/common/job_event.h"

namespace dq::webhook {
namespace {

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidRequest, std::move(message));
}

}  // namespace

Result<Event> EventFromStreamFields(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  auto record = events::FromStreamFields(fields);
  if (!record.ok()) return record.status();
  Event e;
  e.type = std::move(record->type);
  e.account_id = std::move(record->account_id);
  e.delivery_id = std::move(record->delivery_id);
  e.payload = std::move(record->payload);
  e.created_ms = record->created_ms;
  e.first_attempt_ms = e.created_ms;
  return e;
}

std::string EventToJson(const Event& e) {
  nlohmann::ordered_json j;
  j["type"] = e.type;
  j["account_id"] = e.account_id;
  j["delivery_id"] = e.delivery_id;
  j["payload"] = e.payload;
  j["created_ms"] = e.created_ms;
  j["attempts"] = e.attempts;
  j["first_attempt_ms"] = e.first_attempt_ms;
  if (e.test) j["test"] = true;  // absent when false: older members keep their bytes
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<Event> EventFromJson(std::string_view json) {
  const auto j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Invalid("stored event is not a JSON object");
  Event e;
  try {
    e.type = j.value("type", std::string(kJobCompleteType));
    e.account_id = j.at("account_id").get<std::string>();
    e.delivery_id = j.at("delivery_id").get<std::string>();
    e.payload = j.at("payload").get<std::string>();
    e.created_ms = j.value("created_ms", int64_t{0});
    e.attempts = j.value("attempts", 0);
    e.first_attempt_ms = j.value("first_attempt_ms", e.created_ms);
    e.test = j.value("test", false);
  } catch (const nlohmann::json::exception&) {
    return Invalid("stored event lacks a field or has a field of the wrong type");
  }
  return e;
}

}  // namespace dq::webhook
