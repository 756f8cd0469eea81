#include "dq/report/issue_json.h"

#include <array>
#include <charconv>
#include <cstring>
#include <initializer_list>
#include <vector>

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

// A key as written, '"name":', in a fixed block: copied whole (a fixed-size copy the compiler
// inlines), the record's buffer having room for the block past its bound.
struct KeyText {
  char text[24];
  size_t size;
};
constexpr size_t kKeyTextSlack = sizeof(KeyText::text);

template <size_t N>
constexpr std::array<KeyText, N> KeyTexts(const Key (&keys)[N]) {
  std::array<KeyText, N> out{};
  for (size_t k = 0; k < N; ++k) {
    size_t n = 0;
    out[k].text[n++] = '"';
    for (char c : keys[k].name) out[k].text[n++] = c;
    out[k].text[n++] = '"';
    out[k].text[n++] = ':';
    out[k].size = n;
  }
  return out;
}
constexpr auto kJobRecordKeys = KeyTexts(kJobRecord);
constexpr auto kValidateKeys = KeyTexts(kValidate);

char* PutNumber(char* p, uint64_t v) { return std::to_chars(p, p + 20, v).ptr; }

char* Put(char* p, std::string_view text) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

char* PutNameOrNull(char* p, std::string_view name) {
  return name.empty() ? Put(p, "null") : WriteJsonString(p, name);
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

const ChannelArrays& Arrays() {
  static const ChannelArrays arrays;
  return arrays;
}

// The most bytes PutChannels writes for i.
size_t ChannelsBound(const validator::v1::Issue& i) {
  if (i.channels_size() == 0) return Arrays().Of(i.channel_bits()).size();
  size_t bound = 2;
  for (const std::string& c : i.channels()) bound += 1 + JsonStringBound(c.size());
  return bound;
}

char* PutChannels(char* p, const validator::v1::Issue& i) {
  if (i.channels_size() == 0) return Put(p, Arrays().Of(i.channel_bits()));  // as channel_bits
  *p++ = '[';
  for (int c = 0; c < i.channels_size(); ++c) {
    if (c > 0) *p++ = ',';
    p = WriteJsonString(p, i.channels(c));
  }
  *p++ = ']';
  return p;
}

// The most bytes a record of i takes in a form of these keys.
template <size_t N>
size_t RecordBound(const validator::v1::Issue& i, const Key (&keys)[N], const ItemNames& names) {
  size_t bound = 2 + 2 * 20 + 16 + kKeyTextSlack;  // braces, id and row, severity
  for (const Key& k : keys) bound += k.name.size() + 4;  // ,"name":
  for (size_t n : {i.field().size(), i.code().size(), i.message().size(),
                   i.original_value().size(), i.fixed_value().size(), names.sku.size(),
                   names.item_id.size(), names.title.size()}) {
    bound += JsonStringBound(n);  // or null
  }
  return bound + ChannelsBound(i);
}

// One record, written into a buffer of its bound and appended once: an answer under
// platform=all has thousands, and a string's bookkeeping for each of their ~40 pieces cost more
// than the writing.
template <size_t N>
void Append(std::string& out, const validator::v1::Issue& i, const Key (&keys)[N],
            const std::array<KeyText, N>& key_texts, int64_t id, const ItemNames& names,
            bool with_channels) {
  constexpr size_t kKept = size_t{1} << 16;  // a larger record gets a buffer of its own
  thread_local std::vector<char> kept;
  std::vector<char> own;
  const size_t bound = RecordBound(i, keys, names);
  std::vector<char>& buf = bound <= kKept ? kept : own;
  if (buf.size() < bound) buf.resize(bound);
  char* const begin = buf.data();
  char* p = begin;
  char sep = '{';
  for (size_t n = 0; n < N; ++n) {
    const Key& k = keys[n];
    if (k.member == Member::kChannels && !with_channels) continue;
    *p++ = sep;
    sep = ',';
    std::memcpy(p, key_texts[n].text, kKeyTextSlack);
    p += key_texts[n].size;
    switch (k.member) {
      case Member::kId: p = PutNumber(p, static_cast<uint64_t>(id)); break;
      case Member::kRow: p = PutNumber(p, i.row()); break;
      case Member::kSeverity:
        p = Put(p, i.severity() == validator::v1::SEVERITY_ERROR ? "\"error\"" : "\"warning\"");
        break;
      case Member::kField: p = WriteJsonString(p, i.field()); break;
      case Member::kCode: p = WriteJsonString(p, i.code()); break;
      case Member::kMessage: p = WriteJsonString(p, i.message()); break;
      case Member::kOriginal: p = WriteJsonString(p, i.original_value()); break;
      case Member::kFixed:
        p = i.has_fixed_value() ? WriteJsonString(p, i.fixed_value()) : Put(p, "null");
        break;
      case Member::kSku: p = PutNameOrNull(p, names.sku); break;
      case Member::kItemId: p = PutNameOrNull(p, names.item_id); break;
      case Member::kTitle: p = PutNameOrNull(p, names.title); break;
      case Member::kChannels: p = PutChannels(p, i); break;
    }
  }
  *p++ = '}';
  out.append(begin, p);
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
    Append(out, issue, kJobRecord, kJobRecordKeys, id, names, with_channels);
  } else {
    Append(out, issue, kValidate, kValidateKeys, id, names, with_channels);
  }
}

std::string IssueJson(int64_t id, const validator::v1::Issue& issue, const ItemNames& names,
                      bool with_channels) {
  std::string j;
  j.reserve(200 + issue.message().size() + 2 * issue.original_value().size() + names.sku.size() +
            names.item_id.size() + names.title.size());
  Append(j, issue, kJobRecord, kJobRecordKeys, id, names, with_channels);
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
