// Nested JSON objects read as columns named by their path ("meta.barcode"), and written back
// inside their objects (json_reader.h, row_writer.h).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "dq/ingest/json_reader.h"
#include "dq/ingest/mapping_inference.h"
#include "dq/ingest/row_writer.h"
#include "dq/ingest/source_profile.h"
#include "ingest_test_util.h"

namespace dq::ingest {
namespace {

using testing::ReadAll;
using testing::ReadOutcome;
constexpr CellKind S = CellKind::kString, N = CellKind::kNumber, Z = CellKind::kNull,
                   J = CellKind::kJson, M = CellKind::kMissing;

// A DummyJSON-shaped sample, in the JSON writer's own layout.
const std::string kSample =
    "[\n"
    R"({"id":1,"sku":"BEA-001","dimensions":{"width":15.14,"height":13.08},"tags":["a","b"],)"
    R"("reviews":[{"rating":3,"comment":"ok"}],"meta":{"createdAt":"2025-04-30","barcode":"5784719087687"},"images":["https://cdn.example.org/1.webp"]},)"
    "\n"
    R"({"id":2,"sku":"BEA-002","dimensions":{"width":1,"height":null},"tags":[],)"
    R"("reviews":[],"meta":{"createdAt":"2025-05-01","barcode":"8418883906838","deep":{"x":{"y":"z"}}},"images":[]},)"
    "\n"
    R"({"id":3,"sku":"BEA-003","meta":{},"note":"no dimensions"})"
    "\n]\n";

TEST(JsonNested, ObjectMembersAreColumnsNamedByTheirPath) {
  for (size_t chunk : {0, 1, 5, 64}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    const ReadOutcome out = ReadAll(FileFormat::kJsonArray, kSample, chunk);
    ASSERT_EQ(out.code, ErrorCode::kOk) << out.message;
    EXPECT_EQ(out.header,
              (std::vector<std::string>{"id", "sku", "dimensions.width", "dimensions.height",
                                        "tags", "reviews", "meta.createdAt", "meta.barcode",
                                        "images", "meta.deep.x.y", "meta", "note"}));
    ASSERT_EQ(out.rows.size(), 3u);
    EXPECT_EQ(out.rows[0][7], "5784719087687");
    EXPECT_EQ(out.rows[0][2], "15.14");
    EXPECT_EQ(out.kinds[0][2], N);
    // Arrays stay cells (an array of objects is not a column of its members).
    EXPECT_EQ(out.rows[0][5], R"([{"rating":3,"comment":"ok"}])");
    EXPECT_EQ(out.kinds[0][5], J);
    EXPECT_EQ(out.rows[0][8], R"(["https://cdn.example.org/1.webp"])");
    EXPECT_EQ(out.kinds[1][3], Z);
    EXPECT_EQ(out.rows[1][9], "z");
    // An empty object is a cell of its own.
    EXPECT_EQ(out.rows[2][10], "{}");
    EXPECT_EQ(out.kinds[2][10], J);
    EXPECT_EQ(out.kinds[2][2], M);
    EXPECT_EQ(out.kinds[2][7], M);
    EXPECT_EQ(out.kinds[2][11], S);
  }
}

TEST(JsonNested, ThePathsNameEachColumnsKeys) {
  auto reader = MakeRowReader(FileFormat::kJsonArray);
  reader->Feed(R"([{"a.b":1,"c":{"d.e":{"f":2}}}])");
  reader->Finish();
  ASSERT_TRUE(reader->Next().ok());
  EXPECT_EQ(reader->header(), (std::vector<std::string>{"a.b", "c.d.e.f"}));
  ASSERT_NE(reader->json_paths(), nullptr);
  EXPECT_EQ(*reader->json_paths(), (std::vector<std::vector<std::string>>{
                                       {"a.b"}, {"c", "d.e", "f"}}));
  // A flat file has no paths: the writer writes it as before.
  auto flat = MakeRowReader(FileFormat::kNdjson);
  flat->Feed("{\"a\":{},\"b\":[{\"c\":1}]}\n");
  flat->Finish();
  ASSERT_TRUE(flat->Next().ok());
  EXPECT_EQ(flat->json_paths(), nullptr);
}

TEST(JsonNested, LimitsAndAmbiguitiesAreClearErrors) {
  ReaderLimits shallow;
  shallow.max_json_path_depth = 2;
  ReadOutcome out = ReadAll(FileFormat::kJsonArray, R"([{"a":{"b":{"c":1}}},{"a":{"b":{"c":{"d":1}}}}])",
                            0, shallow);
  EXPECT_EQ(out.code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(out.message,
            "row 2 (byte 21): the member \"a.b.c\" nests objects more than 2 levels deep; dq "
            "reads a nested object's members as columns down to 2 levels");

  out = ReadAll(FileFormat::kJsonArray, R"([{"a.b":1},{"a":{"b":2}}])");
  EXPECT_EQ(out.code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(out.message,
            "row 2 (byte 11): the key \"a.b\" and the member path a.b of a nested object would "
            "both be the column \"a.b\"; rename the key");

  out = ReadAll(FileFormat::kNdjson, "{\"m\":{\"x\":1,\"x\":2}}\n");
  EXPECT_EQ(out.code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(out.message, "row 1 (byte 0): the member path m.x appears twice");

  ReaderLimits narrow;
  narrow.max_cells = 3;
  out = ReadAll(FileFormat::kNdjson, "{\"id\":1,\"m\":{\"a\":1,\"b\":2,\"c\":3}}\n", 0, narrow);
  EXPECT_EQ(out.code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(out.message,
            "row 1 (byte 0): more than 3 distinct keys (each member of a nested object counts as "
            "one)");
}

// Reads `input` whole, then writes every row back with `fix` applied (column, value) to the
// rows it names (from 0), with the reader as the writer's source.
std::string WriteBack(FileFormat format, const std::string& input,
                      const std::vector<std::tuple<size_t, size_t, std::string>>& fixes = {}) {
  auto reader = MakeRowReader(format);
  reader->Feed(input);
  reader->Finish();
  std::vector<std::vector<std::string>> rows;
  std::vector<std::vector<CellKind>> kinds;
  while (true) {
    Result<ReadState> s = reader->Next();
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (!s.ok() || *s != ReadState::kRow) break;
    rows.emplace_back(reader->row().begin(), reader->row().end());
    kinds.emplace_back(reader->cell_kinds().begin(), reader->cell_kinds().end());
  }
  for (const auto& [row, column, value] : fixes) {
    rows[row][column] = value;
    kinds[row][column] = CellKind::kString;
  }
  RowWriter w(format, reader->dialect(), reader->header());
  w.set_source(reader.get());
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string_view> cells(rows[i].begin(), rows[i].end());
    w.WriteRow(cells, kinds[i]);
  }
  EXPECT_TRUE(w.Finish().ok());
  return w.out();
}

TEST(JsonNested, TheCleanedFileKeepsTheObjectsInPlaceByteForByte) {
  EXPECT_EQ(WriteBack(FileFormat::kJsonArray, kSample), kSample);
  // A fixed nested value changes that value only.
  std::string expected = kSample;
  const size_t at = expected.find("8418883906838");
  expected.replace(at, 13, "08418883906838");
  EXPECT_EQ(WriteBack(FileFormat::kJsonArray, kSample, {{1, 7, "08418883906838"}}), expected);
  const std::string nd =
      "{\"a\":{\"b\":\"x\",\"c\":{\"d\":true}},\"e\":1}\n{\"a\":{\"c\":{\"d\":false}},\"e\":2}\n";
  EXPECT_EQ(WriteBack(FileFormat::kNdjson, nd), nd);
  // Keys come back in the file's first-seen order, as for a flat file: an object keeps its
  // place among them.
  EXPECT_EQ(WriteBack(FileFormat::kNdjson, "{\"e\":1,\"a\":{\"b\":2}}\n{\"a\":{\"b\":3},\"e\":4}\n"),
            "{\"e\":1,\"a\":{\"b\":2}}\n{\"e\":4,\"a\":{\"b\":3}}\n");
}

// A value for a column the record lacks goes inside its object, created when the record has
// none: with the reader's paths (a column it has met), and with set_json_paths (every column's
// path, for a column the reader has not met yet); never as a dotted key.
TEST(JsonNested, AValueAddedForAMissingMemberGoesInsideItsObject) {
  const std::string nd = "{\"id\":1,\"meta\":{\"x\":\"a\",\"barcode\":\"b\"}}\n{\"id\":2}\n"
                         "{\"id\":3,\"meta\":{\"x\":\"c\"}}\n";
  EXPECT_EQ(WriteBack(FileFormat::kNdjson, nd, {{1, 2, "B2"}, {2, 2, "B3"}}),
            "{\"id\":1,\"meta\":{\"x\":\"a\",\"barcode\":\"b\"}}\n"
            "{\"id\":2,\"meta\":{\"barcode\":\"B2\"}}\n"
            "{\"id\":3,\"meta\":{\"x\":\"c\",\"barcode\":\"B3\"}}\n");
  // The paths given: the first record is written before any reader met meta.barcode.
  const std::vector<std::vector<std::string>> paths = {{"id"}, {"meta", "barcode"}};
  RowWriter w(FileFormat::kNdjson, CsvDialect{}, {"id", "meta.barcode"});
  w.set_json_paths(&paths);
  const std::vector<std::string_view> cells = {"1", "B1"};
  const std::vector<CellKind> kinds = {CellKind::kNumber, CellKind::kString};
  w.WriteRow(cells, kinds);
  const std::vector<CellKind> missing = {CellKind::kNumber, CellKind::kMissing};
  w.WriteRow(cells, missing);
  EXPECT_TRUE(w.Finish().ok());
  EXPECT_EQ(w.out(), "{\"id\":1,\"meta\":{\"barcode\":\"B1\"}}\n{\"id\":1}\n");
}

TEST(JsonNested, MappingInferenceFindsANestedBarcode) {
  const std::vector<std::string> header = {"id", "title", "price", "dimensions.width",
                                           "meta.barcode", "meta.qrCode", "Price (incl. VAT)"};
  bool found = false;
  for (const auto& [field, column] : InferMapping(header)) {
    if (field == "gtin") {
      EXPECT_EQ(column, "meta.barcode");
      found = true;
    }
  }
  EXPECT_TRUE(found);
  // A column named for the field anywhere in the file wins over a nested member's last key.
  const std::vector<std::string> both = {"meta.barcode", "EAN"};
  for (const auto& [field, column] : InferMapping(both)) {
    if (field == "gtin") { EXPECT_EQ(column, "EAN"); }
  }
  const InferredMapping m = InferMappingFrom(header, {}, GenericProfile());
  bool seen = false;
  for (const InferredColumn& c : m.columns) {
    if (c.field != "gtin") continue;
    seen = true;
    EXPECT_EQ(c.column, "meta.barcode");
    EXPECT_EQ(c.how, "header");
    EXPECT_DOUBLE_EQ(c.confidence, 0.8);
  }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace dq::ingest
