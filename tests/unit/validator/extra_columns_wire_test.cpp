// BatchSpec.extra_columns on the wire (validator.proto): each record carries the further
// columns' values after the fields' values, in repeated Row, in PackedRows and through a
// value_index; a spec or a record that does not fit is an error that says why.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rpc/stream_validation.h"

namespace dq::validator::rpc {
namespace {

// sku, price, image_url (base_image) with Magento's file names; small_image as a further column.
v1::BatchSpec MagentoSpec() {
  v1::BatchSpec spec;
  for (const char* f : {"sku", "price", "image_url"}) spec.add_fields(f);
  spec.add_check_types("product");
  auto* conv = spec.add_conventions();
  conv->set_field("image_url");
  for (const char* e : {"jpg", "png"}) conv->add_file_extensions(e);
  auto* extra = spec.add_extra_columns();
  extra->set_field("image_url");
  extra->set_column("small_image");
  for (const char* e : {"jpg", "png"}) extra->add_file_extensions(e);
  return spec;
}

const char* kRows[][4] = {{"A-1", "10.00", "a.jpg", "a small.jpg"},
                          {"A-2", "12.00", "b c.jpg", "b.png"},
                          {"A-3", "9.00", "", ""}};

std::vector<std::string> Described(const v1::ValidateResponse& r) {
  std::vector<std::string> out;
  for (const v1::Issue& i : r.issues()) {
    out.push_back(std::to_string(i.row()) + " " + i.code() + " " + i.field() + " '" +
                  i.original_value() + "': " + i.message());
  }
  return out;
}

const std::vector<std::string> kExpected = {
    "1 INVALID_IMAGE_URL image_url 'a small.jpg': Neither an absolute http or https URL nor a "
    "file name the source's import takes from its import folder (ASCII letters, digits and - _ "
    ". / only, ending in .jpg, .png): column small_image, 'a small.jpg'",
    "2 INVALID_IMAGE_URL image_url 'b c.jpg': Neither an absolute http or https URL nor a file "
    "name the source's import takes from its import folder (ASCII letters, digits and - _ . / "
    "only, ending in .jpg, .png)"};

TEST(ExtraColumnsWire, RowsPackedRowsAndAValueIndexCarryTheSameValues) {
  v1::ValidateRequest rows, packed, indexed;
  *rows.mutable_spec() = MagentoSpec();
  *packed.mutable_spec() = MagentoSpec();
  *indexed.mutable_spec() = MagentoSpec();
  // Indexed: the record holds sku, price, small_image, base_image, as a gateway lays columns out.
  for (uint32_t k : {0u, 1u, 3u, 2u}) indexed.mutable_spec()->add_value_index(k);
  auto* p = packed.mutable_packed();
  auto* q = indexed.mutable_packed();
  for (auto* x : {p, q}) {
    x->set_width(4);
    x->set_rows(3);
  }
  for (const auto& r : kRows) {
    v1::Row* row = rows.add_rows();
    for (const char* v : r) {
      row->add_values(v);
      p->mutable_data()->append(v);
      p->add_lengths(static_cast<uint32_t>(std::string(v).size()));
    }
    for (int c : {0, 1, 3, 2}) {
      q->mutable_data()->append(r[c]);
      q->add_lengths(static_cast<uint32_t>(std::string(r[c]).size()));
    }
  }
  for (const v1::ValidateRequest* req : {&rows, &packed, &indexed}) {
    v1::ValidateResponse answer;
    ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), *req, &answer).ok());
    EXPECT_EQ(Described(answer), kExpected);
    EXPECT_EQ(answer.stats().rows(), 3u);
    EXPECT_EQ(answer.stats().fixes(), 0u);
  }
}

// A record without the extra column's value, as a validator that predates the field would read
// it, or a value_index of one per field only: errors that say what is expected.
TEST(ExtraColumnsWire, RecordsOrIndexesThatDoNotFitAreErrors) {
  v1::ValidateRequest req;
  *req.mutable_spec() = MagentoSpec();
  v1::Row* row = req.add_rows();
  for (const char* v : {"A-1", "10.00", "a.jpg"}) row->add_values(v);
  v1::ValidateResponse answer;
  Status s = ValidateBatch(ReferenceData::Default(), req, &answer);
  EXPECT_EQ(s.message(), "row 1 has 3 values for 4 fields and extra columns");
  for (uint32_t k : {0u, 1u, 2u}) req.mutable_spec()->add_value_index(k);
  s = ValidateBatch(ReferenceData::Default(), req, &answer);
  EXPECT_EQ(s.message(), "value_index has 3 entries for 3 fields and 1 extra columns");
  req.mutable_spec()->add_value_index(2);
  ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), req, &answer).ok());  // base_image twice
  EXPECT_EQ(answer.issues_size(), 0);
}

TEST(ExtraColumnsWire, AnExtraColumnOfAFieldWithFixesIsRejectedAtStart) {
  v1::BatchSpec spec = MagentoSpec();
  spec.mutable_extra_columns(0)->set_field("price");
  auto call = StreamValidation::Start(ReferenceData::Default(), spec, nullptr);
  ASSERT_FALSE(call.ok());
  EXPECT_EQ(call.status().code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(call.status().message(),
            "extra_columns: field 'price' cannot be checked in a further column; only image_url, "
            "additional_image_link and phone can");
}

// A stream: the extra values travel in every chunk, and the answers do not depend on the pool.
TEST(ExtraColumnsWire, AStreamChecksTheExtraValuesOfEveryChunk) {
  WorkerPool pool(2);
  for (WorkerPool* p : {static_cast<WorkerPool*>(nullptr), &pool}) {
    auto call = StreamValidation::Start(ReferenceData::Default(), MagentoSpec(), p);
    ASSERT_TRUE(call.ok());
    std::vector<std::string> got;
    for (int chunk = 0; chunk < 3; ++chunk) {
      v1::RowChunk c;
      for (int i = 0; i < 50; ++i) {
        v1::Row* row = c.add_rows();
        for (const char* v : {"S", "1.00", "a.jpg"}) row->add_values(v);
        row->add_values(i == 7 ? "bad name.jpg" : "s.jpg");
      }
      ASSERT_TRUE((*call)->Begin(c).ok());
      v1::IssueChunk answer;
      (*call)->End(&answer);
      for (const v1::Issue& i : answer.issues()) {
        if (i.code() == "INVALID_IMAGE_URL") got.push_back(std::to_string(i.row()));
      }
    }
    EXPECT_EQ(got, (std::vector<std::string>{"8", "58", "108"}));
  }
}

// FieldConvention.empty_values and ExtraColumn.empty_values (Magento's no_selection) read such a
// value as empty in the field's column and in the further column; ExtraColumn.renamed_file_names
// (Magento's swatch_image) takes a file name with a space. A blank spelling is refused.
TEST(ExtraColumnsWire, EmptyValuesAndRenamedFileNamesTravelOnTheWire) {
  v1::ValidateRequest req;
  *req.mutable_spec() = MagentoSpec();
  req.mutable_spec()->mutable_conventions(0)->add_empty_values("no_selection");
  auto* extra = req.mutable_spec()->mutable_extra_columns(0);
  extra->add_empty_values("No_Selection");
  extra->set_renamed_file_names(true);
  for (const auto& r : std::vector<std::vector<std::string>>{
           {"A-1", "10.00", "NO_SELECTION", "no_selection"}, {"A-2", "12.00", "b.jpg", "b c.jpg"}}) {
    v1::Row* row = req.add_rows();
    for (const std::string& v : r) row->add_values(v);
  }
  v1::ValidateResponse answer;
  ASSERT_TRUE(ValidateBatch(ReferenceData::Default(), req, &answer).ok());
  EXPECT_EQ(Described(answer), std::vector<std::string>{});

  req.mutable_spec()->mutable_extra_columns(0)->add_empty_values(" ");
  const Status refused = ValidateBatch(ReferenceData::Default(), req, &answer);
  EXPECT_EQ(refused.message(), "conventions: an empty_values spelling is empty");
}

}  // namespace
}  // namespace dq::validator::rpc
