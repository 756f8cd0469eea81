// StreamValidation, the logic behind ValidateStream, driven with v1 messages and no server: the
// answers are byte-identical whatever the pool's size, chunks are checked before they are
// evaluated, and bad input is an error naming the row.
#include "rpc/stream_validation.h"

#include <gtest/gtest.h>

#include "dq/common/vocabulary.h"

#include <functional>
#include <random>
#include <string>
#include <vector>

namespace dq::validator::rpc {
namespace {

v1::BatchSpec Spec() {
  v1::BatchSpec spec;
  for (const char* f : {"sku", "price", "category", "email", "phone", "expiry_date"}) {
    spec.add_fields(f);
  }
  for (const char* c : {"product", "price", "customer", "inventory"}) spec.add_check_types(c);
  return spec;
}

// Chunks of rows with duplicate SKUs and e-mails spread over the whole stream, price outliers
// and ambiguous dates.
std::vector<v1::RowChunk> Chunks(size_t rows, size_t per_chunk, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](size_t k) { return static_cast<size_t>(rng() % k); };
  std::vector<v1::RowChunk> chunks;
  for (size_t i = 0; i < rows; ++i) {
    if (i % per_chunk == 0) chunks.emplace_back();
    v1::Row* row = chunks.back().add_rows();
    row->add_values("SKU-" + std::to_string(pick(10) ? i : pick(i + 1)));
    row->add_values(pick(50) ? std::to_string(10 + pick(20)) + ".99" : "4999");
    row->add_values(pick(2) ? "Mugs" : "Lamps");
    std::string email;
    if (pick(3)) email.append("u").append(std::to_string(pick(rows))).append("@gmail.com");
    row->add_values(email);
    row->add_values(pick(2) ? "+49 30 9018" + std::to_string(10 + pick(80)) : "");
    row->add_values(pick(5) ? "" : (pick(2) ? "03/04/2027" : "2027-04-03"));
  }
  return chunks;
}

// Every message the call would write, serialized.
std::vector<std::string> Answers(const std::vector<v1::RowChunk>& chunks, WorkerPool* pool) {
  auto call = StreamValidation::Start(ReferenceData::Default(), Spec(), pool);
  EXPECT_TRUE(call.ok());
  std::vector<std::string> out;
  v1::IssueChunk answer;
  for (const v1::RowChunk& chunk : chunks) {
    EXPECT_TRUE((*call)->Begin(chunk).ok());
    (*call)->End(&answer);
    out.push_back(answer.SerializeAsString());
  }
  v1::Stats stats;
  (*call)->Finish(&answer, &stats);
  out.push_back(answer.SerializeAsString());
  out.push_back(stats.SerializeAsString());
  return out;
}

TEST(StreamValidation, AnswersAreByteIdenticalOnAnyNumberOfThreads) {
  const auto chunks = Chunks(30000, 4096, 17);
  const auto one = Answers(chunks, nullptr);
  v1::IssueChunk first;
  ASSERT_TRUE(first.ParseFromString(one[1]));
  ASSERT_GT(first.issues_size(), 100);  // the second chunk has duplicates of the first
  bool reaches_back = false;            // a duplicate in chunk 2 of a row in chunk 1
  const std::string prefix = "SKU is already used by row ";
  for (const v1::Issue& i : first.issues()) {
    if (i.code() == "DUPLICATE_SKU" && i.message().rfind(prefix, 0) == 0) {
      reaches_back |= std::stoull(i.message().substr(prefix.size())) <= 4096;
    }
  }
  EXPECT_TRUE(reaches_back);
  v1::IssueChunk tail;
  ASSERT_TRUE(tail.ParseFromString(one[one.size() - 2]));
  EXPECT_GT(tail.issues_size(), 100);  // price outliers
  for (size_t threads : {1u, 2u, 4u}) {
    WorkerPool pool(threads);
    EXPECT_EQ(Answers(chunks, &pool), one) << threads << " threads";
  }
}

TEST(StreamValidation, RowsDoneCountsEveryChunk) {
  WorkerPool pool(2);
  auto call = StreamValidation::Start(ReferenceData::Default(), Spec(), &pool);
  ASSERT_TRUE(call.ok());
  v1::IssueChunk answer;
  uint64_t done = 0;
  for (const auto& chunk : Chunks(1000, 300, 3)) {
    ASSERT_TRUE((*call)->Begin(chunk).ok());
    (*call)->End(&answer);
    done += static_cast<uint64_t>(chunk.rows_size());
    EXPECT_EQ(answer.rows_done(), done);
  }
}

TEST(StreamValidation, AWrongValueCountIsAnErrorNamingTheRowAcrossChunks) {
  WorkerPool pool(2);
  auto call = StreamValidation::Start(ReferenceData::Default(), Spec(), &pool);
  ASSERT_TRUE(call.ok());
  auto chunks = Chunks(250, 100, 5);
  chunks[2].mutable_rows(7)->add_values("extra");
  v1::IssueChunk answer;
  for (int k = 0; k < 2; ++k) {
    ASSERT_TRUE((*call)->Begin(chunks[static_cast<size_t>(k)]).ok());
    (*call)->End(&answer);
  }
  const Status s = (*call)->Begin(chunks[2]);
  EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(s.message(), "row 208 has 7 values for 6 fields");
}

TEST(StreamValidation, AValueIndexPastTheRowIsAnError) {
  v1::BatchSpec spec;
  spec.add_fields("sku");
  spec.add_fields("price");
  spec.add_value_index(0);
  spec.add_value_index(5);
  auto call = StreamValidation::Start(ReferenceData::Default(), spec, nullptr);
  ASSERT_TRUE(call.ok());
  v1::RowChunk chunk;
  for (int i = 0; i < 6; ++i) chunk.add_rows()->add_values(std::string("A"));
  const Status s = (*call)->Begin(chunk);
  EXPECT_EQ(s.message(), "row 1 has 1 values for 6 indexed values");
}

TEST(StreamValidation, AnUnknownFieldIsRejectedAtStart) {
  v1::BatchSpec spec;
  spec.add_fields("skew");
  auto call = StreamValidation::Start(ReferenceData::Default(), spec, nullptr);
  ASSERT_FALSE(call.ok());
  EXPECT_EQ(call.status().code(), ErrorCode::kInvalidRequest);
}

TEST(StreamValidation, ValidateBatchOrdersIssuesByRowWithOutliersInPlace) {
  v1::ValidateRequest request;
  *request.mutable_spec() = Spec();
  request.mutable_spec()->clear_check_types();
  request.mutable_spec()->add_check_types("price");
  for (int i = 0; i < 40; ++i) {
    v1::Row* row = request.add_rows();
    for (const char* v : {"S", i == 3 ? "9999" : "10.00", "", "", "", ""}) row->add_values(v);
  }
  v1::ValidateResponse response;
  ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), request, &response).ok());
  ASSERT_EQ(response.issues_size(), 1);
  EXPECT_EQ(response.issues(0).row(), 4u);
  EXPECT_EQ(response.issues(0).code(), "PRICE_OUTLIER_HIGH");
  EXPECT_EQ(response.stats().rows(), 40u);
}

// BatchSpec.channel_bits: each issue's channels as one integer (bit i: kPlatforms[i]), the same
// templates as the names it replaces, in the unary call and in a stream; all else the same.
TEST(StreamValidation, ChannelBitsCarryTheSameChannelsAsTheNames) {
  v1::ValidateRequest request;
  for (const char* f : {"sku", "title", "description", "price", "image_url"}) {
    request.mutable_spec()->add_fields(f);
  }
  request.mutable_spec()->set_platform("all");
  for (int i = 0; i < 6; ++i) {
    v1::Row* row = request.add_rows();
    row->add_values("S" + std::to_string(i));
    row->add_values(i % 2 ? "BEST PRICE!!! FREE SHIPPING" : "Blue mug");
    row->add_values(i % 3 ? "<p>A mug</p>" : "A mug");
    row->add_values(i == 4 ? "" : "10.00");
    row->add_values(i % 2 ? "http://example.com/a.html" : "https://shop.test/a.jpg");
  }
  auto with_bits = [](v1::ValidateRequest r) {
    r.mutable_spec()->set_channel_bits(true);
    return r;
  };
  // The names of channel_bits, as the validator wrote them before the field.
  auto as_names = [](v1::Issue issue) {
    for (size_t p = 0; p < kPlatforms.size(); ++p) {
      if (issue.channel_bits() & (1u << p)) issue.add_channels(std::string(kPlatforms[p]));
    }
    issue.clear_channel_bits();
    return issue.SerializeAsString();
  };
  v1::ValidateResponse names, bits;
  ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), request, &names).ok());
  ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), with_bits(request), &bits).ok());
  ASSERT_EQ(bits.issues_size(), names.issues_size());
  int with_channels = 0, several = 0;
  for (int k = 0; k < names.issues_size(); ++k) {
    EXPECT_EQ(names.issues(k).channel_bits(), 0u);
    EXPECT_EQ(bits.issues(k).channels_size(), 0);
    EXPECT_EQ(as_names(bits.issues(k)), names.issues(k).SerializeAsString()) << k;
    with_channels += names.issues(k).channels_size() > 0;
    several += names.issues(k).channels_size() > 1;
  }
  EXPECT_GT(with_channels, 0);
  EXPECT_GT(several, 0);
  EXPECT_EQ(bits.stats().SerializeAsString(), names.stats().SerializeAsString());

  // The stream: the same issues, chunk by chunk.
  auto stream = [&](const v1::BatchSpec& spec) {
    auto call = StreamValidation::Start(ReferenceData::Default(), spec, nullptr);
    EXPECT_TRUE(call.ok());
    v1::RowChunk chunk;
    *chunk.mutable_rows() = request.rows();
    EXPECT_TRUE((*call)->Begin(chunk).ok());
    v1::IssueChunk answer;
    (*call)->End(&answer);
    return answer;
  };
  const v1::IssueChunk streamed_names = stream(request.spec());
  const v1::IssueChunk streamed_bits = stream(with_bits(request).spec());
  ASSERT_EQ(streamed_bits.issues_size(), streamed_names.issues_size());
  ASSERT_EQ(streamed_names.issues_size(), names.issues_size());
  for (int k = 0; k < streamed_names.issues_size(); ++k) {
    EXPECT_EQ(streamed_bits.issues(k).channels_size(), 0);
    EXPECT_EQ(as_names(streamed_bits.issues(k)), streamed_names.issues(k).SerializeAsString());
  }
}

// The same rows, packed (the form the gateway sends).
v1::PackedRows Pack(const google::protobuf::RepeatedPtrField<v1::Row>& rows, uint32_t width) {
  v1::PackedRows packed;
  packed.set_width(width);
  packed.set_rows(static_cast<uint32_t>(rows.size()));
  for (const v1::Row& row : rows) {
    for (const std::string& v : row.values()) {
      packed.mutable_data()->append(v);
      packed.add_lengths(static_cast<uint32_t>(v.size()));
    }
  }
  return packed;
}

TEST(StreamValidation, PackedRowsGetTheAnswersOfRepeatedRows) {
  const std::vector<v1::RowChunk> chunks = Chunks(3000, 700, 11);
  std::vector<v1::RowChunk> packed;
  for (const v1::RowChunk& c : chunks) {
    packed.emplace_back();
    *packed.back().mutable_packed() = Pack(c.rows(), 6);
  }
  WorkerPool pool(2);
  EXPECT_EQ(Answers(packed, nullptr), Answers(chunks, nullptr));
  EXPECT_EQ(Answers(packed, &pool), Answers(chunks, nullptr));
}

TEST(StreamValidation, PackedRowsWithAValueIndexShareValues) {
  v1::ValidateRequest rows, packed;
  for (v1::ValidateRequest* r : {&rows, &packed}) {
    r->mutable_spec()->add_fields("sku");
    r->mutable_spec()->add_fields("title");
    r->mutable_spec()->add_fields("price");
    for (uint32_t k : {0u, 0u, 1u}) r->mutable_spec()->add_value_index(k);
    r->mutable_spec()->add_check_types("product");
    r->mutable_spec()->add_check_types("price");
  }
  for (const char* v : {" a-1 ", "12,5", "", "-3", "\xC3\xA9t\xC3\xA9", "7"}) {
    v1::Row* row = rows.add_rows();
    row->add_values(v);
    row->add_values(v);
  }
  *packed.mutable_packed() = Pack(rows.rows(), 2);
  v1::ValidateResponse a, b;
  ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), rows, &a).ok());
  ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), packed, &b).ok());
  EXPECT_EQ(b.stats().rows(), 6u);
  EXPECT_GT(b.issues_size(), 0);
  EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString());
}

// The pass that learns expiry_date's day/month order reads one value a row, through the value
// index: the date column (2), not the unmapped column beside it (1), which shows the opposite
// order, nor the column the field's position would name (0).
TEST(StreamValidation, TheDateOrderIsLearntFromTheMappedColumnInEveryForm) {
  auto answer = [](bool revealing, bool packed) {
    v1::ValidateRequest r;
    for (const char* f : {"expiry_date", "sku", "title"}) r.mutable_spec()->add_fields(f);
    for (uint32_t k : {2u, 0u, 0u}) r.mutable_spec()->add_value_index(k);
    r.mutable_spec()->add_check_types("inventory");
    for (int i = 0; i < 6; ++i) {
      v1::Row* row = r.add_rows();
      row->add_values("SKU-" + std::to_string(i));
      row->add_values("12/31/2027");  // unmapped: would say month-first
      row->add_values(revealing && i == 4 ? "31/12/2027" : "03/04/2027");
    }
    if (packed) *r.mutable_packed() = Pack(r.rows(), 3);
    if (packed) r.clear_rows();
    v1::ValidateResponse response;
    EXPECT_TRUE(ValidateBatch(ReferenceData::Default(), r, &response).ok());
    return response;
  };
  const v1::ValidateResponse rows = answer(true, false);
  const v1::ValidateResponse packed = answer(true, true);
  EXPECT_EQ(rows.SerializeAsString(), packed.SerializeAsString());
  // Day-first, from row 5's date: row 1's 03/04/2027 is the 3rd of April.
  bool fixed_day_first = false;
  for (const auto& issue : packed.issues()) {
    if (issue.row() == 1 && issue.field() == "expiry_date" && issue.fixed_value() == "2027-04-03") {
      fixed_day_first = true;
    }
  }
  EXPECT_TRUE(fixed_day_first) << packed.DebugString();
  EXPECT_NE(answer(false, true).SerializeAsString(), packed.SerializeAsString());
}

// Records with no mapped value still count: the row count travels with the packed rows.
TEST(StreamValidation, PackedRowsOfNoValuesAreCounted) {
  v1::ValidateRequest request;
  request.mutable_spec()->add_check_types("product");
  request.mutable_packed()->set_rows(3);
  v1::ValidateResponse response;
  ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), request, &response).ok());
  EXPECT_EQ(response.stats().rows(), 3u);
}

TEST(StreamValidation, BadPackedRowsAreErrorsThatSayWhy) {
  struct Case {
    const char* name;
    uint32_t rows;
    uint32_t width;
    std::string data;
    std::vector<uint32_t> lengths;
    bool with_rows;
    const char* message;
  };
  const Case cases[] = {
      {"wrong_width", 2, 1, "ab", {1, 1}, false, "row 1 has 1 values for 2 fields"},
      {"lengths_not_rows_times_width", 2, 2, "abc", {1, 1, 1}, false,
       "packed rows: 3 lengths for 2 rows of 2"},
      {"rows_without_lengths", 3, 2, "", {}, false, "packed rows: 0 lengths for 3 rows of 2"},
      {"too_many_rows", 4000000000u, 2, "", {}, false,
       "packed rows: 4000000000 rows in one message; at most 1048576"},
      {"lengths_past_data", 1, 2, "ab", {1, 5}, false,
       "packed rows: the lengths add up to 6 bytes, the data has 2"},
      {"lengths_short_of_data", 1, 2, "abcd", {1, 1}, false,
       "packed rows: the lengths add up to 2 bytes, the data has 4"},
      {"not_utf8", 1, 2, "a\xE9", {1, 1}, false, "packed rows: data is not UTF-8"},
      {"both_forms", 1, 2, "ab", {1, 1}, true,
       "rows and packed rows in one message; send one of them"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    v1::ValidateRequest request;
    request.mutable_spec()->add_fields("sku");
    request.mutable_spec()->add_fields("price");
    request.mutable_spec()->add_check_types("product");
    request.mutable_packed()->set_rows(c.rows);
    request.mutable_packed()->set_width(c.width);
    request.mutable_packed()->set_data(c.data);
    for (uint32_t n : c.lengths) request.mutable_packed()->add_lengths(n);
    if (c.with_rows) {
      request.add_rows()->add_values("a");
      request.mutable_rows(0)->add_values("b");
    }
    v1::ValidateResponse response;
    const Status s = ValidateBatch(ReferenceData::Default(), request, &response);
    EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
    EXPECT_EQ(s.message(), c.message);
  }
}

// Issue 31: the row model, the conventions and the GTIN evidence travel in the v1 messages.
v1::ValidateRequest ShopifyShaped(bool packed) {
  v1::ValidateRequest r;
  for (const char* f : {"sku", "title", "price", "image_url", "availability", "gtin"}) {
    r.mutable_spec()->add_fields(f);
  }
  r.mutable_spec()->add_check_types("product");
  r.mutable_spec()->set_source("woocommerce");
  r.mutable_spec()->set_gtin_padding_evidence(true);
  v1::FieldConvention* images = r.mutable_spec()->add_conventions();
  images->set_field("image_url");
  images->set_list_separator(",");
  v1::FieldConvention* stock = r.mutable_spec()->add_conventions();
  stock->set_field("availability");
  (*stock->mutable_value_aliases())["1"] = "in_stock";
  (*stock->mutable_value_aliases())["0"] = "out_of_stock";
  const std::vector<std::pair<v1::RowKind, std::vector<const char*>>> rows = {
      {v1::ROW_KIND_PARENT,
       {"TEE", "Tee", "", "https://a.example.com/1.jpg,ftp://b/2.jpg", "1", ""}},
      {v1::ROW_KIND_VARIANT, {"TEE-S", "", "10", "", "0", "36000291452"}},
      {v1::ROW_KIND_VARIANT, {"TEE-M", "", "", "", "1", ""}},
      {v1::ROW_KIND_IMAGE, {"", "", "", "not a url", "", ""}},
  };
  for (const auto& [kind, values] : rows) {
    v1::Row* row = r.add_rows();
    row->set_kind(kind);
    for (const char* v : values) row->add_values(v);
  }
  if (packed) {
    *r.mutable_packed() = Pack(r.rows(), 6);
    for (const v1::Row& row : r.rows()) r.mutable_packed()->add_kinds(row.kind());
    r.clear_rows();
  }
  return r;
}

TEST(StreamValidation, RowKindsConventionsAndEvidenceReachTheRules) {
  for (bool packed : {false, true}) {
    SCOPED_TRACE(packed ? "packed" : "rows");
    v1::ValidateResponse response;
    ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), ShopifyShaped(packed), &response).ok());
    std::vector<std::string> got;
    for (const v1::Issue& i : response.issues()) {
      got.push_back(std::to_string(i.row()) + ":" + i.code() + ":" + i.message() +
                    (i.has_fixed_value() ? "=" + i.fixed_value() : ""));
    }
    EXPECT_EQ(got, (std::vector<std::string>{
                       "1:INVALID_IMAGE_URL:Image URL must be an absolute http or https URL: "
                       "item 2 of 2, 'ftp://b/2.jpg'",
                       "2:GTIN_LEADING_ZEROS_RESTORED:Leading zeros lost by a spreadsheet were "
                       "restored=036000291452",
                       "3:INVALID_PRICE:Price must be a positive number"}));
    EXPECT_EQ(response.stats().rows(), 4u);
  }
}

// Shopify's Variant Grams 0 (FieldConvention.zero_is_empty): read as no weight, which only a
// template that requires a weight reports, as empty, showing the 0 it was given; without the
// convention 0 is an invalid weight.
TEST(StreamValidation, ZeroIsEmptyConventionReadsZeroAsNoValue) {
  for (bool convention : {true, false}) {
    SCOPED_TRACE(convention ? "zero_is_empty" : "no convention");
    v1::ValidateRequest r;
    r.mutable_spec()->add_fields("weight");
    r.mutable_spec()->add_check_types("shipping");
    r.mutable_spec()->set_platform("marketplace1_tw");
    r.mutable_spec()->set_weight_unit("g");
    if (convention) {
      v1::FieldConvention* grams = r.mutable_spec()->add_conventions();
      grams->set_field("weight");
      grams->set_zero_is_empty(true);
    }
    for (const char* v : {"0", "0.0", "-3", "250"}) r.add_rows()->add_values(v);
    v1::ValidateResponse response;
    ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), r, &response).ok());
    std::vector<std::string> got;
    for (const v1::Issue& i : response.issues()) {
      if (i.field() != "weight") continue;  // the template's other fields are not mapped
      got.push_back(std::to_string(i.row()) + ":" + i.code() + ":" + i.message() + ":'" +
                    i.original_value() + "'" + (i.has_fixed_value() ? "=" + i.fixed_value() : ""));
    }
    if (convention) {
      EXPECT_EQ(got, (std::vector<std::string>{
                         "1:INVALID_WEIGHT:Weight is empty:'0'",
                         "2:INVALID_WEIGHT:Weight is empty:'0.0'",
                         "3:INVALID_WEIGHT:Weight must be a positive number of grams:'-3'"}));
    } else {
      EXPECT_EQ(got, (std::vector<std::string>{
                         "1:INVALID_WEIGHT:Weight must be a positive number of grams:'0'",
                         "2:INVALID_WEIGHT:Weight must be a positive number of grams:'0.0'",
                         "3:INVALID_WEIGHT:Weight must be a positive number of grams:'-3'"}));
    }
  }
}

TEST(StreamValidation, RowKindsGiveTheSameAnswersOnAStreamOfAnyThreads) {
  const v1::ValidateRequest rows = ShopifyShaped(false);
  auto run = [&](WorkerPool* pool, bool packed) {
    const v1::ValidateRequest r = ShopifyShaped(packed);
    auto call = StreamValidation::Start(ReferenceData::Default(), r.spec(), pool);
    EXPECT_TRUE(call.ok());
    v1::RowChunk chunk;
    if (packed) {
      *chunk.mutable_packed() = r.packed();
    } else {
      *chunk.mutable_rows() = r.rows();
    }
    v1::IssueChunk answer, tail;
    v1::Stats stats;
    EXPECT_TRUE((*call)->Begin(chunk).ok());
    (*call)->End(&answer);
    (*call)->Finish(&tail, &stats);
    return answer.SerializeAsString() + stats.SerializeAsString();
  };
  WorkerPool pool(3);
  EXPECT_EQ(run(nullptr, false), run(&pool, true));
}

TEST(StreamValidation, BadKindsAreErrorsThatSayWhy) {
  struct Case {
    const char* name;
    std::function<void(v1::ValidateRequest&)> edit;
    const char* message;
  };
  const Case cases[] = {
      {"packed_kinds_short",
       [](v1::ValidateRequest& r) { r.mutable_packed()->mutable_kinds()->RemoveLast(); },
       "packed rows: 3 kinds for 4 rows; send one kind a row, or none"},
      {"packed_unknown_kind",
       [](v1::ValidateRequest& r) {
         r.mutable_packed()->set_kinds(1, static_cast<v1::RowKind>(7));
       },
       "packed rows: row 2 has the unknown kind 7; a row is a product (0), variant (1), parent "
       "(2) or image (3)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    v1::ValidateRequest r = ShopifyShaped(true);
    c.edit(r);
    v1::ValidateResponse response;
    const Status s = ValidateBatch(ReferenceData::Default(), r, &response);
    EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
    EXPECT_EQ(s.message(), c.message);
  }
  // Repeated rows: the row is numbered across the chunks of a stream.
  v1::ValidateRequest r = ShopifyShaped(false);
  auto call = StreamValidation::Start(ReferenceData::Default(), r.spec(), nullptr);
  ASSERT_TRUE(call.ok());
  v1::RowChunk chunk;
  *chunk.mutable_rows() = r.rows();
  v1::IssueChunk answer;
  ASSERT_TRUE((*call)->Begin(chunk).ok());
  (*call)->End(&answer);
  chunk.mutable_rows(2)->set_kind(static_cast<v1::RowKind>(9));
  const Status s = (*call)->Begin(chunk);
  EXPECT_EQ(s.code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(s.message(),
            "row 7 has the unknown kind 9; a row is a product (0), variant (1), parent (2) or "
            "image (3)");
}

TEST(StreamValidation, BadConventionsAreRejectedAtStart) {
  struct Case {
    const char* name;
    std::function<void(v1::BatchSpec&)> edit;
    const char* message;
  };
  const Case cases[] = {
      {"unknown_field",
       [](v1::BatchSpec& s) { s.add_conventions()->set_field("colour"); },
       "conventions: unknown standard field 'colour'"},
      {"field_not_in_fields",
       [](v1::BatchSpec& s) {
         v1::FieldConvention* c = s.add_conventions();
         c->set_field("brand");
         c->set_list_separator(",");
       },
       "conventions: field 'brand' is not one of the batch's fields"},
      {"field_twice",
       [](v1::BatchSpec& s) {
         v1::FieldConvention* c = s.add_conventions();
         c->set_field("image_url");
         c->set_list_separator("|");
       },
       "conventions: field 'image_url' is listed twice"},
      {"unknown_weight_unit", [](v1::BatchSpec& s) { s.set_weight_unit("stone"); },
       "unknown weight unit 'stone'; use g, kg, lb, oz or unknown"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    v1::BatchSpec spec = ShopifyShaped(false).spec();
    c.edit(spec);
    auto call = StreamValidation::Start(ReferenceData::Default(), spec, nullptr);
    ASSERT_FALSE(call.ok());
    EXPECT_EQ(call.status().code(), ErrorCode::kInvalidRequest);
    EXPECT_EQ(call.status().message(), c.message);
  }
  v1::BatchSpec unknown = ShopifyShaped(false).spec();
  unknown.set_weight_unit("unknown");
  EXPECT_TRUE(StreamValidation::Start(ReferenceData::Default(), unknown, nullptr).ok());
}

}  // namespace
}  // namespace dq::validator::rpc
