// AnswerWire writes the very bytes protobuf writes for the ValidateResponse ToProto builds: for
// every code of the catalogue, texts of every length class (empty, short, 127/128 bytes at the
// varint's edge, tens of KB), fixed values absent, empty and set, every channel set in both
// forms (names and channel_bits), rows from 0 to the largest; and for the engine's own answer
// under `all`. The gateway parses these bytes as the message, so equal bytes are equal answers.
#include "rpc/answer_wire.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rpc/convert.h"
#include "rpc/stream_validation.h"

namespace dq::validator::rpc {
namespace {

// What the message path sends for the same answer.
std::string AsMessage(const BatchAnswer& answer) {
  v1::ValidateResponse response;
  for (const Issue& i : answer.issues) ToProto(i, response.add_issues(), answer.channel_bits);
  ToProto(answer.stats, response.mutable_stats());
  return response.SerializeAsString();
}

BatchAnswer Varied() {
  BatchAnswer answer;
  const std::string texts[] = {"", "x", "Blue mug", std::string(127, 'a'), std::string(128, 'b'),
                               std::string(20000, 'c') + "\xc3\xa9"};
  const uint64_t rows[] = {0, 1, 127, 128, 16384, uint64_t{1} << 40, ~uint64_t{0}};
  size_t k = 0;
  for (size_t c = 0; c < kIssueCodeCount; ++c) {
    for (int variant = 0; variant < 4; ++variant, ++k) {
      Issue i;
      i.code = static_cast<IssueCode>(c);
      i.row = rows[k % std::size(rows)];
      i.field = static_cast<Field>(k % kStandardFields.size());
      i.original = texts[k % std::size(texts)];
      if (variant == 1) i.fixed = "";
      if (variant == 2) i.fixed = texts[(k + 2) % std::size(texts)];
      if (variant == 3) i.message = texts[(k + 1) % std::size(texts)];
      i.channels = static_cast<ChannelMask>(k % (ChannelMask{1} << kPlatforms.size()));
      answer.issues.push_back(std::move(i));
    }
  }
  answer.stats.rows = 300;
  answer.stats.errors = 200;
  answer.stats.score = 41;
  ChannelStats ch;
  ch.platform = Platform::kMarketplace2;
  ch.blocked = 7;
  ch.top_blockers.push_back({static_cast<IssueCode>(1), 7});
  answer.stats.channels.push_back(ch);
  return answer;
}

TEST(AnswerWire, WritesTheBytesOfTheMessageForEveryKindOfIssue) {
  BatchAnswer answer = Varied();
  int errors = 0, warnings = 0;
  for (const Issue& i : answer.issues) (i.severity() == Severity::kError ? errors : warnings)++;
  ASSERT_GT(errors, 0);
  ASSERT_GT(warnings, 0);
  for (bool bits : {false, true}) {
    answer.channel_bits = bits;
    const AnswerWire wire(answer);
    const std::string bytes = wire.ToString();
    EXPECT_EQ(bytes.size(), wire.Size());
    EXPECT_EQ(bytes, AsMessage(answer)) << "channel_bits " << bits;
  }
}

TEST(AnswerWire, AnEmptyAnswerIsItsStatsAlone) {
  BatchAnswer answer;
  EXPECT_EQ(AnswerWire(answer).ToString(), AsMessage(answer));
  EXPECT_EQ(AnswerWire(answer).ToString(), std::string("\x0a\x02\x28\x64", 4));  // score 100
}

TEST(AnswerWire, TheEnginesAnswerUnderEveryTemplateIsTheMessagesBytes) {
  v1::ValidateRequest request;
  for (const char* f : {"sku", "title", "description", "price", "image_url", "gtin"}) {
    request.mutable_spec()->add_fields(f);
  }
  request.mutable_spec()->set_platform("all");
  for (int i = 0; i < 30; ++i) {
    v1::Row* row = request.add_rows();
    row->add_values(i % 7 ? "S" + std::to_string(i) : "");
    row->add_values(i % 2 ? "BEST PRICE!!! FREE SHIPPING  " : "Blue mug");
    row->add_values(i % 3 ? "<p>A mug</p>" : "A mug");
    row->add_values(i == 4 ? "" : i == 9 ? "99999" : "10,00");
    row->add_values(i % 5 ? "http://example.com/a.jpg" : "");
    row->add_values(i % 4 ? "4006381333931" : "123");
  }
  for (bool bits : {false, true}) {
    request.mutable_spec()->set_channel_bits(bits);
    BatchAnswer answer;
    ASSERT_TRUE(CheckBatch(ReferenceData::Default(), request, &answer).ok());
    ASSERT_GT(answer.issues.size(), 100u);
    v1::ValidateResponse message;
    ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), request, &message).ok());
    EXPECT_EQ(AnswerWire(answer).ToString(), message.SerializeAsString());
  }
}

// AnswerWire knows the fields of the proto as it stands: Issue's nine and the response's two. A
// field added to either makes this fail, and answer_wire.cpp (its tags and EachField) is the
// place to write it, or the answers would silently lack it.
TEST(AnswerWire, KnowsEveryFieldOfTheAnswerMessages) {
  auto numbers = [](const google::protobuf::Descriptor* d) {
    std::vector<int> n;
    for (int i = 0; i < d->field_count(); ++i) n.push_back(d->field(i)->number());
    std::sort(n.begin(), n.end());
    return n;
  };
  EXPECT_EQ(numbers(v1::Issue::descriptor()), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}))
      << "v1::Issue changed: write the new field in validator/src/rpc/answer_wire.cpp";
  EXPECT_EQ(numbers(v1::ValidateResponse::descriptor()), (std::vector<int>{1, 2}))
      << "v1::ValidateResponse changed: write the new field in validator/src/rpc/answer_wire.cpp";
}

}  // namespace
}  // namespace dq::validator::rpc
