#include "dq/common/job_event.h"

#include <charconv>
#include <nlohmann/json.hpp>

#include "dq/common/json_escape.h"

namespace dq::events {
namespace {

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidRequest, std::move(message));
}

void AppendInt(std::string& out, std::string_view key, int64_t v) {
  out += '"';
  out += key;
  out += "\":";
  out += std::to_string(v);
}

}  // namespace

std::string EncodeJobComplete(const JobComplete& e) {
  std::string out = "{\"event\":\"job.complete\",\"timestamp\":";
  AppendJsonString(out, e.timestamp);
  out += ",\"jobId\":";
  AppendJsonString(out, e.job_id);
  out += ",\"filename\":";
  AppendJsonString(out, e.filename);
  out += ',';
  AppendInt(out, "rows", e.rows);
  out += ",\"stats\":{";
  AppendInt(out, "errors", e.errors);
  out += ',';
  AppendInt(out, "warnings", e.warnings);
  out += ',';
  AppendInt(out, "fixes", e.fixes);
  out += ',';
  AppendInt(out, "score", e.score);
  out += "},\"status\":";
  AppendJsonString(out, e.status);
  if (e.test) out += ",\"test\":true";
  out += '}';
  return out;
}

Result<JobComplete> DecodeJobComplete(std::string_view payload) {
  const auto j = nlohmann::json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Invalid("job.complete payload is not a JSON object");
  JobComplete e;
  try {
    if (j.at("event").get<std::string>() != kJobCompleteType) {
      return Invalid("payload is not a job.complete event");
    }
    e.timestamp = j.at("timestamp").get<std::string>();
    e.job_id = j.at("jobId").get<std::string>();
    e.filename = j.at("filename").get<std::string>();
    e.rows = j.at("rows").get<int64_t>();
    const auto& s = j.at("stats");
    e.errors = s.at("errors").get<int64_t>();
    e.warnings = s.at("warnings").get<int64_t>();
    e.fixes = s.at("fixes").get<int64_t>();
    e.score = s.at("score").get<int64_t>();
    e.status = j.value("status", std::string());
    e.test = j.value("test", false);
  } catch (const nlohmann::json::exception&) {
    return Invalid("job.complete payload lacks a field or has a field of the wrong type");
  }
  return e;
}

std::vector<std::pair<std::string, std::string>> ToStreamFields(const StreamRecord& r) {
  return {{std::string(kFieldType), r.type},
          {std::string(kFieldAccountId), r.account_id},
          {std::string(kFieldDeliveryId), r.delivery_id},
          {std::string(kFieldPayload), r.payload},
          {std::string(kFieldCreatedMs), std::to_string(r.created_ms)}};
}

Result<StreamRecord> FromStreamFields(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  StreamRecord r;
  std::string created;
  for (const auto& [name, value] : fields) {
    if (name == kFieldType) r.type = value;
    else if (name == kFieldAccountId) r.account_id = value;
    else if (name == kFieldDeliveryId) r.delivery_id = value;
    else if (name == kFieldPayload) r.payload = value;
    else if (name == kFieldCreatedMs) created = value;
  }
  if (r.account_id.empty()) return Invalid("event is missing account_id");
  if (r.delivery_id.empty()) return Invalid("event is missing delivery_id");
  if (r.payload.empty()) return Invalid("event is missing payload");
  if (!created.empty()) {
    const auto [ptr, ec] =
        std::from_chars(created.data(), created.data() + created.size(), r.created_ms);
    if (ec != std::errc() || ptr != created.data() + created.size()) {
      return Invalid("event has a created_ms that is not an integer");
    }
  }
  return r;
}

StreamRecord JobCompleteRecord(std::string account_id, const JobComplete& event,
                               int64_t created_ms) {
  StreamRecord r;
  r.account_id = std::move(account_id);
  r.delivery_id = event.job_id;
  r.payload = EncodeJobComplete(event);
  r.created_ms = created_ms;
  return r;
}

}  // namespace dq::events
