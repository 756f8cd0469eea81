// The validator request built from a parsed /v1/validate command, and the API answer written
// straight from the validator's response (no DOM).
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "dq/common/json_escape.h"
#include "dq/ingest/mapping_inference.h"
#include "dq/report/issue_json.h"
#include "dq/report/job_output.h"
#include "validate_request.h"

namespace dq::gateway {
namespace {

void AppendNumber(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// The text of record r's members when they lie in the body exactly as the cleaned record writes
// them: each key followed by ':' and its value, each value by ',' and the next key, with no
// space between and no key repeated. The usual body (compact JSON, as clients serialize it)
// then needs one copy a record instead of four appends a member. nullopt otherwise, and
// whenever a member's text is not in the body simdjson read (the hand-written walk's views
// point elsewhere), so that every byte looked at is the body's.
std::optional<std::string_view> CompactMembers(const ValidateCommand& command, size_t r) {
  const uint32_t begin = command.record_begin[r];
  const uint32_t end = command.record_begin[r + 1];
  if (begin == end) return std::nullopt;
  const auto body_begin = reinterpret_cast<uintptr_t>(command.reader.fast_text().data());
  const uintptr_t body_end = body_begin + command.reader.fast_text().size();
  auto in_body = [&](std::string_view v) {
    const auto at = reinterpret_cast<uintptr_t>(v.data());
    return at >= body_begin && at + v.size() < body_end;  // and a byte follows it
  };
  for (uint32_t m = begin; m < end; ++m) {
    if (command.member_column[m] == kSupersededMember) return std::nullopt;
    const auto& member = command.members[m];
    if (!in_body(member.raw_key) || !in_body(member.raw_value)) return std::nullopt;
    const char* after_key = member.raw_key.data() + member.raw_key.size();
    if (member.raw_value.data() != after_key + 1 || *after_key != ':') return std::nullopt;
    if (m + 1 < end) {
      const char* after_value = member.raw_value.data() + member.raw_value.size();
      if (command.members[m + 1].raw_key.data() != after_value + 1 || *after_value != ',') {
        return std::nullopt;
      }
    }
  }
  const char* first = command.members[begin].raw_key.data();
  const auto& last = command.members[end - 1].raw_value;
  return std::string_view(first, static_cast<size_t>(last.data() + last.size() - first));
}

// Record `row`'s (from 1) names (sku, item_id, title); empty ones where it has none.
report::ItemNames NamesOf(const ValidateCommand& command, uint64_t row) {
  auto name = [&](size_t k) -> std::string_view {
    const size_t i = 3 * (row - 1) + k;
    if (row < 1 || i >= command.item_name_ends.size()) return {};
    const uint32_t begin = i == 0 ? 0 : command.item_name_ends[i - 1];
    return std::string_view(command.item_names).substr(begin, command.item_name_ends[i] - begin);
  };
  return {name(0), name(1), name(2)};
}

// A fixed value for a column the record did not have, and where it goes: its path of keys (a
// top-level column, or a column never seen nested, is its one name).
struct AddedValue {
  std::span<const std::string> path;
  const std::string* name = nullptr;  // the one key when path is empty
  int fix = -1;
  bool written = false;
};

std::string_view Key(const AddedValue& a, size_t depth) {
  return a.path.empty() ? std::string_view(*a.name) : std::string_view(a.path[depth]);
}
size_t Depth(const AddedValue& a) { return a.path.empty() ? 1 : a.path.size(); }

// Writes, as members of the object at `prefix` (the open objects' keys), the added values under
// it that are not written yet: a value whose path ends there as "key":"value", the others in
// new objects, one per key, in the order their first value comes. *any: the object has a member
// already (a ',' goes first).
void WriteAdded(std::string& out, std::vector<AddedValue>& added,
                std::span<const std::string* const> prefix,
                const google::protobuf::RepeatedPtrField<validator::v1::Issue>& issues,
                bool* any) {
  const size_t depth = prefix.size();
  for (size_t i = 0; i < added.size(); ++i) {
    AddedValue& a = added[i];
    if (a.written || Depth(a) <= depth) continue;
    bool under = true;
    for (size_t d = 0; under && d < depth; ++d) under = Key(a, d) == *prefix[d];
    if (!under) continue;
    if (*any) out += ',';
    *any = true;
    AppendJsonString(out, Key(a, depth));
    out += ':';
    if (Depth(a) == depth + 1) {
      AppendJsonString(out, issues[a.fix].fixed_value());
      a.written = true;
      continue;
    }
    // A new object for every value under prefix + key.
    std::vector<const std::string*> inner(prefix.begin(), prefix.end());
    inner.push_back(&a.path[depth]);
    out += '{';
    bool inner_any = false;
    WriteAdded(out, added, inner, issues, &inner_any);
    out += '}';
  }
}

}  // namespace

Result<validator::v1::ValidateRequest> BuildValidatorRequest(const ValidateCommand& command) {
  validator::v1::ValidateRequest req;
  if (Status s = BuildValidatorRequestInto(command, req); !s.ok()) return s;
  return req;
}

Status BuildValidatorRequestInto(const ValidateCommand& command,
                                 validator::v1::ValidateRequest& req) {
  // Protobuf takes at most a few bytes of framing per value on top of its text.
  size_t bytes = 64;
  for (const auto& [field, column] : command.mapping) bytes += field.size() + 8;
  for (std::string_view cell : command.cells) bytes += cell.size() + 6;
  for (std::string_view cell : command.extra_cells) bytes += cell.size() + 6;
  for (const auto& e : command.extra_columns) bytes += e.field.size() + e.column.size() + 32;
  if (bytes > kMaxValidatorRequestBytes) {
    return Status(ErrorCode::kPayloadTooLarge,
                  "The mapped values of this call come to " + std::to_string(bytes) +
                      " bytes; a call may carry at most " +
                      std::to_string(kMaxValidatorRequestBytes) +
                      ". Send fewer records, or upload a file to /v1/jobs.");
  }
  auto* spec = req.mutable_spec();
  for (const auto& [field, column] : command.mapping) spec->add_fields(field);
  for (const auto& c : command.check_types) spec->add_check_types(c);
  spec->set_platform(command.platform);
  spec->set_source(command.source);
  spec->set_weight_unit(command.spec_weight_unit);  // the check plan's (ResolveItems)
  for (const auto& c : command.conventions) {
    auto* conv = spec->add_conventions();
    conv->set_field(c.field);
    conv->set_list_separator(c.list_separator);
    for (const auto& [from, to] : c.value_aliases) (*conv->mutable_value_aliases())[from] = to;
    conv->set_own_number_format(c.own_number_format);
    conv->set_html(c.html);
    conv->set_may_be_empty(c.may_be_empty);
    conv->set_zero_is_empty(c.zero_is_empty);
    for (const auto& ext : c.file_extensions) conv->add_file_extensions(ext);
    for (const auto& v : c.empty_values) conv->add_empty_values(v);
    conv->set_renamed_file_names(c.renamed_file_names);
  }
  spec->set_gtin_padding_evidence(command.gtin_padding_evidence);
  // The channels each issue blocks as one integer, not as up to eight strings (the encoder,
  // report::AppendIssueJson, reads either).
  spec->set_channel_bits(true);
  // The further columns checked as a field's (Magento's small_image): their values follow the
  // mapped columns' in each record.
  const size_t extras = command.extra_columns.size();
  report::AddExtraColumns(command.extra_columns, *spec);
  // Several fields mapped to one column share its value: the row carries each column once.
  const size_t width = command.columns.size();
  bool shared = width != command.mapping.size();
  if (shared) {
    for (uint32_t index : command.value_index) spec->add_value_index(index);
    for (size_t e = 0; e < extras; ++e) spec->add_value_index(static_cast<uint32_t>(width + e));
  }
  // Packed: one buffer of text and one of lengths, not a message per record and a string per
  // value (the validator parses it with two allocations instead of one or two per value).
  auto* packed = req.mutable_packed();
  packed->set_rows(static_cast<uint32_t>(command.records));
  packed->set_width(static_cast<uint32_t>(width + extras));
  size_t text = 0;
  for (std::string_view cell : command.cells) text += cell.size();
  for (std::string_view cell : command.extra_cells) text += cell.size();
  std::string* data = packed->mutable_data();
  data->reserve(text);
  auto* lengths = packed->mutable_lengths();
  lengths->Reserve(static_cast<int>(command.cells.size() + command.extra_cells.size()));
  auto add = [&](std::span<const std::string_view> cells) {
    for (std::string_view cell : cells) {
      data->append(cell);
      lengths->AddAlreadyReserved(static_cast<uint32_t>(cell.size()));
    }
  };
  if (extras == 0) {
    add(command.cells);
  } else {  // record by record: its columns' cells, then its extra columns'
    const std::span<const std::string_view> cells(command.cells), more(command.extra_cells);
    for (size_t r = 0; r < command.records; ++r) {
      add(cells.subspan(r * width, width));
      add(more.subspan(r * extras, extras));
    }
  }
  for (uint8_t kind : command.kinds) packed->add_kinds(static_cast<validator::v1::RowKind>(kind));
  return Status::Ok();
}

std::string ChannelsJson(const validator::v1::Stats& stats) {
  std::string out = "{";
  for (int c = 0; c < stats.channels_size(); ++c) {
    const auto& ch = stats.channels(c);
    if (c > 0) out += ',';
    AppendJsonString(out, ch.platform());
    out += ":{\"blocked\":";
    AppendNumber(out, ch.blocked());
    out += ",\"ready\":";
    AppendNumber(out, ch.ready());
    out += ",\"score\":";
    AppendNumber(out, ch.score());
    out += ",\"top_blockers\":[";
    for (int b = 0; b < ch.top_blockers_size(); ++b) {
      if (b > 0) out += ',';
      out += "{\"code\":";
      AppendJsonString(out, ch.top_blockers(b).code());
      out += ",\"rows\":";
      AppendNumber(out, ch.top_blockers(b).rows());
      out += '}';
    }
    out += "]}";
  }
  out += '}';
  return out;
}

namespace {

// Scratch space for writing one cleaned record, reused from record to record.
struct RecordScratch {
  std::vector<uint8_t> present;          // per column: the record has a member for it
  std::vector<const std::string*> open;  // nested: the objects the last member was inside
  std::vector<AddedValue> added;         // the record's fixes for columns it did not have
};

using Issues = google::protobuf::RepeatedPtrField<validator::v1::Issue>;

// The fixes of record r for columns it does not have (fixed: per record and column, the issue
// whose fixed value replaces the cell, or -1), into s.added.
void CollectAdded(const ValidateCommand& command, size_t r, const std::vector<int>& fixed,
                  RecordScratch& s) {
  const size_t width = command.columns.size();
  std::vector<uint8_t>& present = s.present;
  std::vector<AddedValue>& added = s.added;
  std::fill(present.begin(), present.end(), 0);
  // A fix for a column the record did not have goes where the column's path puts it: inside
  // its object, which is created when the record has none (issue 31: "meta.barcode" was
  // written as a key of its own). A top-level member of the record with the object's name
  // (a value, not an object) leaves no place for it: then the key is the column's name.
  for (uint32_t m = command.record_begin[r]; m < command.record_begin[r + 1]; ++m) {
    if (command.member_column[m] >= 0) present[static_cast<size_t>(command.member_column[m])] = 1;
  }
  added.clear();
  for (size_t c = 0; c < width; ++c) {
    const int fix = fixed[r * width + c];
    if (fix < 0 || present[c]) continue;
    AddedValue a{{}, &command.columns[c], fix, false};
    if (command.nested) {
      const auto it =
          std::find(command.path_names.begin(), command.path_names.end(), command.columns[c]);
      if (it != command.path_names.end()) {
        const auto& path = command.paths[static_cast<size_t>(it - command.path_names.begin())];
        bool blocked = false;
        for (uint32_t m = command.record_begin[r]; !blocked && m < command.record_begin[r + 1];
             ++m) {
          const auto& mp = command.paths[command.member_path[m]];
          blocked = command.member_column[m] != kSupersededMember && mp.size() == 1 &&
                    path.size() > 1 && mp[0] == path[0];
        }
        if (path.size() > 1 && !blocked) a.path = path;
      }
    }
    added.push_back(a);
  }
}

// Record r of the cleaned records, when it has a fix: its members as sent, in their order and
// objects, each fixed value in place of its cell, then the fixes for columns it lacked.
void WriteFixedRecord(std::string& out, const ValidateCommand& command, size_t r,
                      const std::vector<int>& fixed, const Issues& issues, RecordScratch& s) {
  const size_t width = command.columns.size();
  std::vector<uint8_t>& present = s.present;
  std::vector<const std::string*>& open = s.open;
  std::vector<AddedValue>& added = s.added;
  bool any = false;
  open.clear();
  CollectAdded(command, r, fixed, s);
  std::fill(present.begin(), present.end(), 0);
  for (uint32_t m = command.record_begin[r]; m < command.record_begin[r + 1]; ++m) {
    const int32_t col = command.member_column[m];
    if (col == kSupersededMember) continue;  // a repeated key: its last occurrence counts
    const auto& member = command.members[m];
    if (command.nested) {
      // The member's objects: close those it is not inside, open those it is the first of.
      const auto& path = command.paths[command.member_path[m]];
      size_t common = 0;
      while (common < open.size() && common + 1 < path.size() && *open[common] == path[common]) {
        ++common;
      }
      if (open.size() > common) any = true;  // the outer object has the one closed
      for (; open.size() > common; open.pop_back()) {
        bool inner_any = true;
        WriteAdded(out, added, open, issues, &inner_any);
        out += '}';
      }
      for (; open.size() + 1 < path.size(); any = false) {
        if (any) out += ',';
        AppendJsonString(out, path[open.size()]);
        out += ":{";
        open.push_back(&path[open.size()]);
      }
      if (any) out += ',';
      any = true;
      if (path.size() > 1) {
        AppendJsonString(out, path.back());
      } else {
        out += member.raw_key;
      }
    } else {
      if (any) out += ',';
      any = true;
      out += member.raw_key;
    }
    out += ':';
    const int fix = col < 0 ? -1 : fixed[r * width + static_cast<size_t>(col)];
    if (fix >= 0) {
      AppendJsonString(out, issues[fix].fixed_value());
    } else {
      out += member.raw_value;
    }
    if (col >= 0) present[static_cast<size_t>(col)] = 1;
  }
  if (!open.empty()) any = true;
  for (; !open.empty(); open.pop_back()) {
    bool inner_any = true;
    WriteAdded(out, added, open, issues, &inner_any);
    out += '}';
  }
  // What is left: top-level columns, and nested ones whose objects the record lacks, at the
  // end of the record.
  WriteAdded(out, added, {}, issues, &any);
}

}  // namespace

std::string WriteValidateResponse(const ValidateCommand& command,
                                  const validator::v1::ValidateResponse& result) {
  const auto& issues = result.issues();
  const size_t width = command.columns.size();
  // Per record and column, the issue whose fixed value replaces the cell (the last one wins),
  // and which records have a fix at all.
  std::vector<int> fixed(command.records * width, -1);
  std::vector<uint8_t> record_fixed(command.records, 0);
  for (int k = 0; k < issues.size(); ++k) {
    const auto& issue = issues[k];
    if (!issue.has_fixed_value() || issue.row() < 1 || issue.row() > command.records) continue;
    for (size_t m = 0; m < command.mapping.size(); ++m) {
      if (command.mapping[m].first == issue.field()) {
        fixed[(issue.row() - 1) * width + command.value_index[m]] = k;
        record_fixed[issue.row() - 1] = 1;
      }
    }
  }

  std::string out;
  const bool channels = !command.platform.empty();  // docs/api.md, "Channel readiness"
  // An issue's members around its texts, its item's names, and with channels the array (up
  // to eight names): reserved once, as an answer of a few thousand issues is mostly issues.
  size_t estimate = 256 + issues.size() * (channels ? 300 : 160);
  for (const auto& issue : issues) {
    estimate += issue.message().size() + issue.original_value().size() +
                issue.fixed_value().size();
  }
  for (const auto& m : command.members) estimate += m.raw_key.size() + m.raw_value.size() + 2;
  out.reserve(estimate + command.records * 4);

  RecordScratch scratch;
  scratch.present.resize(width);
  out += '{';
  if (channels) {
    out += "\"channels\":";
    out += ChannelsJson(result.stats());
    out += ',';
  }
  out += "\"cleaned\":[";
  for (size_t r = 0; r < command.records; ++r) {
    if (r > 0) out += ',';
    out += '{';
    if (!record_fixed[r]) {
      if (auto text = CompactMembers(command, r)) {  // the record's members, as sent
        out += *text;
        out += '}';
        continue;
      }
    }
    WriteFixedRecord(out, command, r, fixed, issues, scratch);
    out += '}';
  }
  out += "],\"issues\":[";
  for (int k = 0; k < issues.size(); ++k) {
    if (k > 0) out += ',';
    report::AppendIssueJson(out, issues[k], report::IssueForm::kValidate, 0,
                            NamesOf(command, issues[k].row()), channels);
  }
  out += "],\"notes\":[";
  for (size_t n = 0; n < command.notes.size(); ++n) {
    if (n > 0) out += ',';
    AppendJsonString(out, command.notes[n]);
  }
  out += "],\"source\":";
  if (command.source.empty()) {
    out += "null";
  } else {
    AppendJsonString(out, command.source);
  }
  const auto& st = result.stats();
  out += ",\"stats\":{\"errors\":";
  AppendNumber(out, st.errors());
  out += ",\"fixes\":";
  AppendNumber(out, st.fixes());
  out += ",\"rows\":";
  AppendNumber(out, st.rows());
  out += ",\"score\":";
  AppendNumber(out, st.score());
  out += ",\"warnings\":";
  AppendNumber(out, st.warnings());
  out += "}}";
  return out;
}

}  // namespace dq::gateway
