#include "answer_wire.h"

#include <cstring>
#include <string_view>

#include "convert.h"
#include "dq/validator/v1/validator.pb.h"

namespace dq::validator::rpc {
namespace {

// Wire types and tags (field number << 3 | wire type) of the fields written here, as
// proto/dq/validator/v1/validator.proto numbers them.
constexpr uint8_t kVarint = 0, kLen = 2;
constexpr uint8_t Tag(uint8_t field, uint8_t type) { return static_cast<uint8_t>(field << 3 | type); }
constexpr uint8_t kResponseStats = Tag(1, kLen), kResponseIssue = Tag(2, kLen);
constexpr uint8_t kRow = Tag(1, kVarint), kSeverity = Tag(2, kVarint), kField = Tag(3, kLen),
                  kCode = Tag(4, kLen), kMessage = Tag(5, kLen), kOriginal = Tag(6, kLen),
                  kFixed = Tag(7, kLen), kChannels = Tag(8, kLen), kChannelBits = Tag(9, kVarint);

size_t VarintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

char* PutVarint(char* out, uint64_t v) {
  while (v >= 0x80) {
    *out++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *out++ = static_cast<char>(v);
  return out;
}

size_t TextSize(std::string_view s) { return 1 + VarintSize(s.size()) + s.size(); }

char* PutText(char* out, uint8_t tag, std::string_view s) {
  *out++ = static_cast<char>(tag);
  out = PutVarint(out, s.size());
  if (!s.empty()) std::memcpy(out, s.data(), s.size());
  return out + s.size();
}

// One issue's fields as ToProto sets them; proto3 leaves out what is empty or zero, except
// fixed_value, which is written whenever it is set (`optional`).
template <typename Sink>
void EachField(const Issue& issue, bool channel_bits, Sink&& sink) {
  if (issue.row != 0) sink.Varint(kRow, issue.row);
  sink.Varint(kSeverity, issue.severity() == Severity::kError ? v1::SEVERITY_ERROR
                                                               : v1::SEVERITY_WARNING);
  if (const std::string_view f = FieldName(issue.field); !f.empty()) sink.Text(kField, f);
  if (const std::string_view c = Def(issue.code).code; !c.empty()) sink.Text(kCode, c);
  if (const std::string_view m = issue.Message(); !m.empty()) sink.Text(kMessage, m);
  if (!issue.original.empty()) sink.Text(kOriginal, issue.original);
  if (issue.fixed) sink.Text(kFixed, *issue.fixed);
  if (const ChannelMask blocks = issue.blocks()) {
    if (channel_bits) {
      sink.Varint(kChannelBits, blocks);
      return;
    }
    for (size_t p = 1; p <= kPlatforms.size(); ++p) {
      if (blocks & ChannelBit(static_cast<Platform>(p))) sink.Text(kChannels, kPlatforms[p - 1]);
    }
  }
}

struct Measure {
  size_t size = 0;
  void Varint(uint8_t, uint64_t v) { size += 1 + VarintSize(v); }
  void Text(uint8_t, std::string_view s) { size += TextSize(s); }
};

struct Write {
  char* out;
  void Varint(uint8_t tag, uint64_t v) {
    *out++ = static_cast<char>(tag);
    out = PutVarint(out, v);
  }
  void Text(uint8_t tag, std::string_view s) { out = PutText(out, tag, s); }
};

size_t IssueSize(const Issue& issue, bool channel_bits) {
  Measure m;
  EachField(issue, channel_bits, m);
  return m.size;
}

}  // namespace

AnswerWire::AnswerWire(const BatchAnswer& answer) : answer_(answer) {
  v1::Stats stats;
  ToProto(answer.stats, &stats);
  stats.SerializeToString(&stats_);
  size_ = TextSize(stats_);
  issue_sizes_.reserve(answer.issues.size());
  for (const Issue& i : answer.issues) {
    const size_t n = IssueSize(i, answer.channel_bits);
    issue_sizes_.push_back(static_cast<uint32_t>(n));
    size_ += 1 + VarintSize(n) + n;
  }
}

void AnswerWire::WriteTo(char* out) const {
  out = PutText(out, kResponseStats, stats_);
  for (size_t k = 0; k < answer_.issues.size(); ++k) {
    const Issue& i = answer_.issues[k];
    *out++ = static_cast<char>(kResponseIssue);
    out = PutVarint(out, issue_sizes_[k]);
    Write w{out};
    EachField(i, answer_.channel_bits, w);
    out = w.out;
  }
}

std::string AnswerWire::ToString() const {
  std::string bytes(size_, '\0');
  WriteTo(bytes.data());
  return bytes;
}

}  // namespace dq::validator::rpc
