#include "validate_request.h"
#include "validate_records.h"

#include <algorithm>
#include <span>
#include <unordered_map>

#include "dq/common/platform_list.h"
#include "dq/common/vocabulary.h"
#include "dq/ingest/json_reader.h"
#include "dq/ingest/mapping_inference.h"
#include "dq/ingest/source_profile.h"
#include "dq/common/ascii.h"
#include "dq/common/json_escape.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

Status Invalid(std::vector<ErrorDetail> details) {
  std::string message = details.size() == 1
                            ? details[0].field + ": " + details[0].message
                            : "The request has " + std::to_string(details.size()) +
                                  " problems; see details.";
  return Status(ErrorCode::kInvalidRequest, std::move(message), std::move(details));
}

using ingest::internal::JsonError;
using ingest::internal::JsonField;
using ingest::internal::JsonObjectParser;

std::string_view KindName(const JsonField& f) {
  switch (f.kind) {
    case ingest::CellKind::kString: return "a string";
    case ingest::CellKind::kNumber: return "a number";
    case ingest::CellKind::kBool: return "a boolean";
    case ingest::CellKind::kNull: return "null";
    default: return !f.raw_value.empty() && f.raw_value[0] == '{' ? "an object" : "an array";
  }
}

// The members of a mapping object: last occurrence of a key wins, problems in key order.
Result<std::vector<std::pair<std::string, std::string>>> MappingFromFields(
    std::span<const JsonField> fields) {
  // Sorted by key, equal keys in body order; the last of each run wins. A search per key would
  // make a mapping of many distinct keys quadratic.
  std::vector<size_t> sorted(fields.size());
  for (size_t k = 0; k < fields.size(); ++k) sorted[k] = k;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](size_t a, size_t b) { return fields[a].key < fields[b].key; });
  std::vector<size_t> order;
  for (size_t n = 0; n < sorted.size(); ++n) {
    if (n + 1 == sorted.size() || fields[sorted[n + 1]].key != fields[sorted[n]].key) {
      order.push_back(sorted[n]);
    }
  }
  std::vector<ErrorDetail> problems;
  for (size_t k : order) {
    const JsonField& f = fields[k];
    if (!IndexOf(kStandardFields, f.key)) {
      problems.push_back({"mapping." + std::string(f.key), "is not a standard field name"});
    } else if (f.kind != ingest::CellKind::kString || f.value.empty()) {
      problems.push_back(
          {"mapping." + std::string(f.key), "must be a non-empty column name string"});
    }
  }
  if (!problems.empty()) return Invalid(std::move(problems));
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string_view field : kStandardFields) {
    for (size_t k : order) {
      if (fields[k].key == field) out.emplace_back(field, fields[k].value);
    }
  }
  return out;
}

bool IsObject(const JsonField& f) {
  return f.kind == ingest::CellKind::kJson && f.value.size() > 2 && f.value.front() == '{';
}

// Reads the records' nested objects as the upload reader does (ValidateCommand::nested): each
// record goes through the reader's row builder, whose errors are the upload's, and its members
// are replaced by the columns it set, in the same order. A repeated top-level key counts once,
// its last occurrence (as for flat records). Nothing is done when no record has an object.
Status ExpandNested(ValidateCommand& cmd) {
  if (std::none_of(cmd.members.begin(), cmd.members.end(), IsObject)) return Status::Ok();
  ingest::internal::JsonRows rows{ingest::ReaderLimits{}};
  std::vector<JsonField> out;
  out.reserve(cmd.members.size() * 2);
  std::vector<uint32_t> begins(1, 0);
  std::vector<uint32_t> member_path;
  // A leaf's value and raw_value, as offsets into nested_text until it stops growing.
  struct Leaf {
    size_t member, value, value_size, raw, raw_size;
  };
  std::vector<Leaf> leaves;
  // Past the small-string buffer, so that moving the command keeps the views valid.
  size_t nested_bytes = 32;
  for (const JsonField& f : cmd.members) nested_bytes += IsObject(f) ? 2 * f.value.size() : 0;
  cmd.nested_text.clear();
  cmd.nested_text.reserve(nested_bytes);
  std::vector<JsonField> fields;
  std::vector<const JsonField*> plain;  // the record's members that are not objects, in order
  std::unordered_map<std::string_view, size_t> last;
  for (size_t r = 0; r < cmd.records; ++r) {
    const uint32_t begin = cmd.record_begin[r], end = cmd.record_begin[r + 1];
    last.clear();
    for (uint32_t m = begin; m < end; ++m) last[cmd.members[m].key] = m;
    fields.clear();
    plain.clear();
    for (uint32_t m = begin; m < end; ++m) {
      if (last[cmd.members[m].key] != m) continue;  // superseded by a later occurrence
      fields.push_back(cmd.members[m]);
      if (!IsObject(cmd.members[m])) plain.push_back(&cmd.members[m]);
    }
    if (auto e = rows.Build(fields)) {
      return Invalid({{"records[" + std::to_string(r) + "]", *e}});
    }
    size_t next_plain = 0;
    for (uint32_t col : rows.set_order) {
      member_path.push_back(col);
      if (rows.paths[col].size() == 1) {  // a top-level member as it was sent
        out.push_back(*plain[next_plain++]);
        continue;
      }
      JsonField& f = out.emplace_back();
      f.kind = rows.kinds[col];
      const std::string_view value = rows.cells[col];
      Leaf leaf{out.size() - 1, cmd.nested_text.size(), value.size(), 0, 0};
      cmd.nested_text.append(value);
      leaf.raw = cmd.nested_text.size();
      switch (f.kind) {
        case ingest::CellKind::kString: AppendJsonString(cmd.nested_text, value); break;
        case ingest::CellKind::kNull: cmd.nested_text.append("null"); break;
        default: cmd.nested_text.append(value); break;  // a number, boolean or JSON text
      }
      leaf.raw_size = cmd.nested_text.size() - leaf.raw;
      leaves.push_back(leaf);
    }
    begins.push_back(static_cast<uint32_t>(out.size()));
  }
  cmd.paths = std::move(rows.paths);
  cmd.path_names = std::move(rows.header);
  const std::string_view text = cmd.nested_text;
  for (const Leaf& leaf : leaves) {
    JsonField& f = out[leaf.member];
    f.value = text.substr(leaf.value, leaf.value_size);
    f.raw_value = text.substr(leaf.raw, leaf.raw_size);
    f.key = cmd.path_names[member_path[leaf.member]];
  }
  cmd.members = std::move(out);
  cmd.record_begin = std::move(begins);
  cmd.member_path = std::move(member_path);
  cmd.nested = true;
  return Status::Ok();
}

}  // namespace

Result<ValidateCommand> ParseValidateRequest(std::string_view body, size_t max_records,
                                             JsonPath path) {
  ValidateCommand cmd;
  if (Status s = ParseValidateRequestInto(body, max_records, cmd, path); !s.ok()) return s;
  return cmd;
}

void ValidateCommand::Clear() {
  mapping.clear();
  check_types.clear();
  platform.clear();
  source.clear();
  weight_unit.clear();
  kinds.clear();
  item_names.clear();
  item_name_ends.clear();
  spec_weight_unit.clear();
  conventions.clear();
  gtin_padding_evidence = false;
  notes.clear();
  records = 0;
  columns.clear();
  value_index.clear();
  cells.clear();
  extra_columns.clear();
  extra_cells.clear();
  members.clear();
  record_begin.clear();
  member_column.clear();
  nested = false;
  member_path.clear();
  paths.clear();
  path_names.clear();
  nested_text.clear();
  json.Clear();
}

void ValidateCommand::ReleaseIfLarge(size_t max_bytes) {
  if (members.capacity() * sizeof(members[0]) +
          (cells.capacity() + extra_cells.capacity()) * sizeof(cells[0]) +
          reader.buffer_bytes() + nested_text.capacity() +
          json.members.capacity() * sizeof(json.members[0]) +
          json.element_members.capacity() * sizeof(members[0]) >
      max_bytes) {
    *this = ValidateCommand();
  }
}

namespace {

// The last occurrence of each member of the body, as the check reads them (nullptr: absent),
// and the names no validate request has.
struct Members {
  const ingest::JsonBody::Member *records = nullptr, *mapping = nullptr;
  const JsonField *check_types = nullptr, *platform = nullptr, *source = nullptr,
                  *weight_unit = nullptr;
  std::vector<std::string_view> unknown;
};

Members MembersOf(const ingest::JsonBody& json) {
  Members m;
  for (const ingest::JsonBody::Member& member : json.members) {
    const std::string_view key = member.field.key;
    if (key == "records") {
      m.records = &member;
    } else if (key == "mapping") {
      m.mapping = &member;
    } else if (key == "check_types") {
      m.check_types = &member.field;
    } else if (key == "platform") {
      m.platform = &member.field;
    } else if (key == "source") {
      m.source = &member.field;
    } else if (key == "weight_unit") {
      m.weight_unit = &member.field;
    } else {
      m.unknown.push_back(key);  // deduplicated once, below: a linear search here made a body
                                 // of 100,000 distinct keys cost seconds
    }
  }
  return m;
}

bool IsArray(const JsonField& f) {
  return f.kind == ingest::CellKind::kJson && f.raw_value[0] == '[';
}

// Checks what the reader found in the body and completes the command.
Status CheckBody(size_t max_records, ValidateCommand& cmd) {
  const ingest::JsonBody& json = cmd.json;
  if (json.shape == ingest::JsonBody::Shape::kTooDeep) {
    return Invalid({{"body", "nests arrays or objects more than " +
                                 std::to_string(ingest::kMaxJsonDepth) + " levels deep"}});
  }
  if (json.shape == ingest::JsonBody::Shape::kNotObject) {
    return Invalid({{"body", "must be a JSON object, not " + std::string(KindName(json.top))}});
  }
  Members w = MembersOf(json);
  std::vector<ErrorDetail> problems;
  size_t record_count = 0;
  if (w.records == nullptr) {
    problems.push_back({"records", "is required"});
  } else if (!IsArray(w.records->field)) {
    problems.push_back(
        {"records", "must be an array of objects, not " + std::string(KindName(w.records->field))});
  } else if (json.elements > max_records) {
    return Status(ErrorCode::kTooManyRecords,
                  "A call may validate at most " + std::to_string(max_records) +
                      " records; this one has " + std::to_string(json.elements) +
                      ". Split it, or upload a file to /v1/jobs.");
  } else {
    record_count = json.elements;
    for (const auto& [n, element] : json.not_objects) {
      problems.push_back({"records[" + std::to_string(n) + "]",
                          "must be an object, not " + std::string(KindName(element))});
    }
  }

  if (w.mapping == nullptr) {
    problems.push_back({"mapping", "is required"});
  } else if (const JsonField& value = w.mapping->field;
             value.kind != ingest::CellKind::kJson || value.raw_value[0] != '{') {
    problems.push_back({"mapping", "must be an object from standard field name to column name, "
                                   "not " + std::string(KindName(value))});
  } else {
    auto parsed = MappingFromFields(std::span<const JsonField>(json.fields).subspan(
        w.mapping->fields_begin, w.mapping->fields_end - w.mapping->fields_begin));
    if (parsed.ok()) {
      cmd.mapping = std::move(*parsed);
    } else {
      for (const auto& d : parsed.status().details()) problems.push_back(d);
    }
  }

  // Optional members: absent or null is the default.
  auto given = [](const JsonField* f) { return f != nullptr && f->kind != ingest::CellKind::kNull; };
  if (!given(w.check_types)) {
    cmd.check_types = {"product"};
  } else if (w.check_types->kind != ingest::CellKind::kString) {
    problems.push_back({"check_types", "must be a comma-separated string, not " +
                                           std::string(KindName(*w.check_types))});
  } else {
    auto parsed = ParseCheckTypes(w.check_types->value);
    if (parsed.ok()) {
      cmd.check_types = std::move(*parsed);
    } else {
      for (const auto& d : parsed.status().details()) problems.push_back(d);
    }
  }

  // Optional strings naming a platform template, a source platform and a weight unit.
  struct Named {
    const char* name;
    const JsonField* value;
    Status (*check)(std::string_view);
    std::string* out;
  };
  for (const Named& n : {Named{"platform", w.platform, CheckPlatform, &cmd.platform},
                         Named{"source", w.source, CheckSource, &cmd.source},
                         Named{"weight_unit", w.weight_unit, CheckWeightUnit, &cmd.weight_unit}}) {
    if (!given(n.value)) continue;
    if (n.value->kind != ingest::CellKind::kString) {
      problems.push_back({n.name, "must be a string, not " + std::string(KindName(*n.value))});
    } else if (Status s = n.check(n.value->value); !s.ok()) {
      problems.push_back(s.details()[0]);
    } else {
      *n.out = std::string(n.value->value);
    }
  }

  std::sort(w.unknown.begin(), w.unknown.end());
  w.unknown.erase(std::unique(w.unknown.begin(), w.unknown.end()), w.unknown.end());
  for (std::string_view key : w.unknown) {
    problems.push_back({std::string(key), "is not a member of a validate request"});
  }
  if (!problems.empty()) return Invalid(std::move(problems));
  // The records' members become the command's (the reader's buffers are swapped, not copied).
  cmd.records = record_count;
  cmd.members.swap(cmd.json.element_members);
  cmd.record_begin.swap(cmd.json.element_begin);
  if (Status s = ExpandNested(cmd); !s.ok()) return s;
  records::ResolveColumns(cmd);
  records::ResolveItems(cmd);
  return Status::Ok();
}

}  // namespace

// Read the body's JSON, then check its members.
Status ParseValidateRequestInto(std::string_view body, size_t max_records, ValidateCommand& cmd,
                                JsonPath path) {
  cmd.Clear();
  if (std::optional<JsonError> e =
          cmd.reader.ReadBody(body, "records", max_records, cmd.json, path)) {
    return Status(ErrorCode::kInvalidJson, "The request body is not valid JSON: " + e->message +
                                               " at byte " + std::to_string(e->offset) + ".");
  }
  return CheckBody(max_records, cmd);
}

}  // namespace dq::gateway
