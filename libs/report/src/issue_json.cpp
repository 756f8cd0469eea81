#include "dq/report/issue_json.h"

#include <charconv>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "dq/common/json_escape.h"
#include "dq/common/vocabulary.h"
#include "dq/ingest/row_writer.h"

namespace dq::report {
namespace {

enum class Member {
  kId, kRow, kSeverity, kField, kCode, kMessage, kOriginal, kFixed, kSku, kItemId, kTitle,
  kChannels  // only with platform templates: the channels the issue blocks
};

struct Key {
  Member member;
  std::string_view name;
};

// The forms: which members, in what order, under what names.
constexpr Key kJobRecord[] = {
    {Member::kId, "id"},           {Member::kRow, "issue_row"},
    {Member::kSeverity, "severity"}, {Member::kField, "field"},
    {Member::kCode, "code"},       {Member::kMessage, "message"},
    {Member::kOriginal, "original_value"}, {Member::kFixed, "fixed_value"},
    {Member::kSku, "sku"},         {Member::kItemId, "item_id"},
    {Member::kTitle, "title"},     {Member::kChannels, "channels"}};
constexpr Key kValidate[] = {
    {Member::kChannels, "channels"}, {Member::kCode, "code"},       {Member::kField, "field"},
    {Member::kFixed, "fixed_value"}, {Member::kItemId, "item_id"},
    {Member::kMessage, "message"}, {Member::kOriginal, "original_value"},
    {Member::kRow, "row"},         {Member::kSeverity, "severity"},
    {Member::kSku, "sku"},         {Member::kTitle, "title"}};

void AppendNumber(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void AppendNameOrNull(std::string& out, std::string_view name) {
  if (name.empty()) {
    out += "null";
  } else {
    AppendJsonString(out, name);
  }
}

// The "channels" array of every set of templates, by Issue.channel_bits (bit i: kPlatforms[i]),
// written once: a platform=all answer has one a row and field that finds fault.
class ChannelArrays {
 public:
  static constexpr size_t kSets = size_t{1} << kPlatforms.size();
  ChannelArrays() {
    for (size_t bits = 0; bits < kSets; ++bits) {
      std::string& a = arrays_[bits];
      a.push_back('[');
      for (size_t p = 0; p < kPlatforms.size(); ++p) {
        if ((bits & (size_t{1} << p)) == 0) continue;
        if (a.size() > 1) a.push_back(',');
        AppendJsonString(a, kPlatforms[p]);
      }
      a.push_back(']');
    }
  }
  // Bits past the known templates (a newer validator's) are left out.
  const std::string& Of(uint32_t bits) const { return arrays_[bits & (kSets - 1)]; }

 private:
  std::string arrays_[kSets];
};

void AppendChannels(std::string& out, const validator::v1::Issue& i) {
  if (i.channels_size() == 0) {  // none, or as channel_bits (BatchSpec.channel_bits)
    static const ChannelArrays arrays;
    out += arrays.Of(i.channel_bits());
    return;
  }
  out.push_back('[');
  for (int c = 0; c < i.channels_size(); ++c) {
    if (c > 0) out.push_back(',');
    AppendJsonString(out, i.channels(c));
  }
  out.push_back(']');
}

template <size_t N>
void Append(std::string& out, const validator::v1::Issue& i, const Key (&keys)[N], int64_t id,
            const ItemNames& names, bool with_channels) {
  char sep = '{';
  for (const Key& k : keys) {
    if (k.member == Member::kChannels && !with_channels) continue;
    out.push_back(sep);
    sep = ',';
    out.push_back('"');
    out += k.name;
    out += "\":";
    switch (k.member) {
      case Member::kId: AppendNumber(out, static_cast<uint64_t>(id)); break;
      case Member::kRow: AppendNumber(out, i.row()); break;
      case Member::kSeverity:
        out += i.severity() == validator::v1::SEVERITY_ERROR ? "\"error\"" : "\"warning\"";
        break;
      case Member::kField: AppendJsonString(out, i.field()); break;
      case Member::kCode: AppendJsonString(out, i.code()); break;
      case Member::kMessage: AppendJsonString(out, i.message()); break;
      case Member::kOriginal: AppendJsonString(out, i.original_value()); break;
      case Member::kFixed:
        if (i.has_fixed_value()) {
          AppendJsonString(out, i.fixed_value());
        } else {
          out += "null";
        }
        break;
      case Member::kSku: AppendNameOrNull(out, names.sku); break;
      case Member::kItemId: AppendNameOrNull(out, names.item_id); break;
      case Member::kTitle: AppendNameOrNull(out, names.title); break;
      case Member::kChannels: AppendChannels(out, i); break;
    }
  }
  out.push_back('}');
}

// A cell of the issues CSV: a value that starts like a formula always gets a leading ' (OWASP's
// rule; the CSV is for people, opened in spreadsheets), then quoted as RFC 4180 needs.
void AppendCsvCell(std::string& out, std::string_view value) {
  std::string s;
  ingest::AppendNeutralised(s, value);
  if (s.find_first_of(",\"\r\n") == std::string::npos) {
    out += s;
    return;
  }
  out.push_back('"');
  for (char c : s) {
    if (c == '"') out += "\"\"";
    else out.push_back(c);
  }
  out.push_back('"');
}

}  // namespace

void AppendIssueJson(std::string& out, const validator::v1::Issue& issue, IssueForm form,
                     int64_t id, const ItemNames& names, bool with_channels) {
  if (form == IssueForm::kJobRecord) {
    Append(out, issue, kJobRecord, id, names, with_channels);
  } else {
    Append(out, issue, kValidate, id, names, with_channels);
  }
}

std::string IssueJson(int64_t id, const validator::v1::Issue& issue, const ItemNames& names,
                      bool with_channels) {
  std::string j;
  j.reserve(200 + issue.message().size() + 2 * issue.original_value().size() + names.sku.size() +
            names.item_id.size() + names.title.size());
  Append(j, issue, kJobRecord, id, names, with_channels);
  return j;
}

const std::string& IssuesCsvHeader() {
  static const std::string header = [] {
    std::string h;
    for (const Key& k : kJobRecord) {
      if (k.member == Member::kChannels) continue;  // the CSV keeps its columns
      if (!h.empty()) h.push_back(',');
      h += k.name;
    }
    return h + "\r\n";
  }();
  return header;
}

bool AppendIssueCsvRow(std::string& out, std::string_view record) {
  const nlohmann::json i = nlohmann::json::parse(record, nullptr, false);
  if (!i.is_object()) return false;
  for (const Key& k : kJobRecord) {
    if ((k.member == Member::kId || k.member == Member::kRow) &&
        !i.value(std::string(k.name), nlohmann::json()).is_number_integer()) {
      return false;
    }
  }
  bool first = true;
  for (const Key& k : kJobRecord) {
    if (k.member == Member::kChannels) continue;
    if (!first) out.push_back(',');
    first = false;
    const auto it = i.find(std::string(k.name));
    if (it == i.end()) continue;
    if (it->is_number_integer()) {
      out += std::to_string(it->get<int64_t>());
    } else if (it->is_string()) {
      const std::string& s = it->get_ref<const std::string&>();
      // Codes and severities are words; the rest may hold anything.
      if (k.member == Member::kSeverity || k.member == Member::kCode) {
        out += s;
      } else {
        AppendCsvCell(out, s);
      }
    }
  }
  out += "\r\n";
  return true;
}

}  // namespace dq::report
