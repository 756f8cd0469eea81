#include "dq/common/event.h"

#include <charconv>
#include <nlohmann/json.hpp>

namespace dq::notifier {
namespace {

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidRequest, std::move(message));
}

}  // namespace

Result<Event> EventFromStreamFields(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  Event e;
  e.type = std::string(kJobCompleteType);
  std::string created;
  for (const auto& [name, value] : fields) {
    if (name == "type") e.type = value;
    else if (name == "account_id") e.account_id = value;
    else if (name == "delivery_id") e.delivery_id = value;
    else if (name == "payload") e.payload = value;
    else if (name == "created_ms") created = value;
  }
  if (e.account_id.empty()) return Invalid("event is missing account_id");
  if (e.delivery_id.empty()) return Invalid("event is missing delivery_id");
  if (e.payload.empty()) return Invalid("event is missing payload");
  if (!created.empty()) {
    const auto [ptr, ec] = std::from_chars(created.data(), created.data() + created.size(),
                                           e.created_ms);
    if (ec != std::errc() || ptr != created.data() + created.size()) {
      return Invalid("event has a created_ms that is not an integer");
    }
  }
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
  } catch (const nlohmann::json::exception&) {
    return Invalid("stored event lacks a field or has a field of the wrong type");
  }
  return e;
}

}  // namespace dq::notifier
