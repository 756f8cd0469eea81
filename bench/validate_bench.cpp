// POST /v1/validate without the network: the gateway's own work on a 500-row product body
// (20 columns, all mapped, shaped like bench/tools/gen_catalog.py --format json), and the JSON
// reader choice measured on the same body:
//   - BM_ValidateParse / BM_ValidateBuildRequest / BM_ValidateWriteAnswer: our path, in parts;
//   - BM_ValidateParseAnswer/0 and /1: parsing a platform=all answer (2,500 issues, each with
//     its channels as channel_bits) onto a fresh arena, as the route does, and into one message
//     reused (cleared) from call to call, whose strings keep their buffers;
//   - BM_ValidateWriteCleaned/0 and /1: the answer for the same records sent with spaces after
//     ':' and ',' (as Python's json.dumps writes them; so is Body()) and compact (as
//     JavaScript's JSON.stringify, Go and Jackson write them), a fix on every tenth record: a
//     compact record without a fix is copied whole;
//   - BM_ReaderOurs/0: the route's reader, simdjson On-Demand finding the tokens and the upload
//     parser (ingest/json_text.h) reading them; /1: the upload parser alone;
//   - BM_ReaderSimdjsonOnDemand: simdjson On-Demand (Debian 3.0.1) reading every member, with
//     strings unescaped and numbers validated;
//   - BM_ReaderNlohmannDom + BM_WriterNlohmannDom: what the route did before (parse to a DOM,
//     dump a DOM answer).
//
//   build/bench/validate_bench --benchmark_min_time=2
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <google/protobuf/arena.h>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "validate/validate_request.h"

namespace dq::gateway {
namespace {

constexpr const char* kColumns[] = {
    "Variant SKU", "Title", "Body (HTML)", "Variant Price", "Variant Compare At Price",
    "Cost per item", "Currency", "Availability", "Image Src", "Vendor", "Type",
    "Variant Barcode", "Variant Grams", "HS Code", "Country of Origin", "Supplier VAT",
    "Variant Inventory Qty", "Reorder Point", "Best Before", "Location"};
constexpr const char* kFields[] = {
    "sku", "title", "description", "price", "compare_at_price", "cost_price", "currency",
    "availability", "image_url", "brand", "category", "gtin", "weight", "hs_code",
    "country_of_origin", "vat_number", "stock_qty", "reorder_point", "expiry_date",
    "warehouse_id"};

// 500 records of 20 columns. With spaces after ':' and ',' between members (as Python's
// json.dumps writes them), or compact.
std::string MakeBody(bool compact) {
  const char* comma = compact ? "," : ", ";
  const char* colon = compact ? ":" : ": ";
  std::mt19937 rng(7);
  std::string out = std::string("{\"records\":") + (compact ? "[" : " [");
  for (int i = 1; i <= 500; ++i) {
    if (i > 1) out += comma;
    const std::string n = std::to_string(i);
    const std::string values[] = {
        std::string("SKU-").append(8 - n.size(), '0').append(n), "Kirei Organic Yoga Mat",
        "<p>Kirei Organic Yoga Mat. Made with care, ships in 2 days.</p>",
        std::to_string(10 + rng() % 90).append(".").append(std::to_string(10 + rng() % 90)),
        "",
        "33.89", "EUR", "in_stock", std::string("https://cdn.example.com/img/").append(n).append(".jpg"), "Kirei",
        "Sports", "4066907439158", std::to_string(rng() % 4000), "6109100010", "VN", "",
        std::to_string(rng() % 900), "46", i % 5 == 0 ? "2028-04-01" : "", "WH-FRA-3"};
    out += '{';
    for (int c = 0; c < 20; ++c) {
      if (c > 0) out += comma;
      out.append("\"").append(kColumns[c]).append("\"").append(colon).append("\"")
          .append(values[c]).append("\"");
    }
    out += '}';
  }
  out.append("]").append(comma).append("\"mapping\"").append(colon).append("{");
  for (int c = 0; c < 20; ++c) {
    if (c > 0) out += comma;
    out.append("\"").append(kFields[c]).append("\"").append(colon).append("\"")
        .append(kColumns[c]).append("\"");
  }
  out.append("}").append(comma).append("\"check_types\"").append(colon)
      .append("\"product,price,inventory,shipping\"}");
  return out;
}

const std::string& Body() {
  static const std::string body = MakeBody(false);
  return body;
}

// About what the validator answers for such a body: two issues a row, one a fix.
validator::v1::ValidateResponse Answer() {
  validator::v1::ValidateResponse r;
  r.mutable_stats()->set_rows(500);
  for (uint64_t row = 1; row <= 500; ++row) {
    auto* a = r.add_issues();
    a->set_row(row);
    a->set_severity(validator::v1::SEVERITY_WARNING);
    a->set_field("compare_at_price");
    a->set_code("COMPARE_AT_PRICE_MISSING");
    a->set_message("The compare-at price is empty.");
    auto* b = r.add_issues();
    b->set_row(row);
    b->set_severity(validator::v1::SEVERITY_WARNING);
    b->set_field("title");
    b->set_code("TITLE_CASE_FIXED");
    b->set_message("The title was re-cased.");
    b->set_original_value("Kirei Organic Yoga Mat");
    b->set_fixed_value("Kirei organic yoga mat");
  }
  return r;
}

// About what the validator answers under platform=all: five issues a row, every one blocking
// channels, with the catalogue's messages (tens of bytes: no short-string buffer holds them).
std::string AllAnswerBytes() {
  validator::v1::ValidateResponse r;
  r.mutable_stats()->set_rows(500);
  const struct {
    const char* field;
    const char* code;
    const char* message;
  } kinds[] = {
      {"link", "LINK_MISSING", "The product page link is missing; every channel needs one."},
      {"condition", "CONDITION_MISSING", "The condition is missing (new, refurbished or used)."},
      {"image_url", "IMAGE_URL_PLACEHOLDER", "The image is on a placeholder host (example.com)."},
      {"description", "DESCRIPTION_HAS_HTML", "The description holds HTML tags; send plain text."},
      {"title", "TITLE_PROMOTIONAL", "The title holds promotional text the channels refuse."}};
  for (uint64_t row = 1; row <= 500; ++row) {
    for (const auto& k : kinds) {
      auto* a = r.add_issues();
      a->set_row(row);
      a->set_severity(validator::v1::SEVERITY_ERROR);
      a->set_field(k.field);
      a->set_code(k.code);
      a->set_message(k.message);
      a->set_original_value("https://cdn.example.com/img/" + std::to_string(row) + ".jpg");
      a->set_channel_bits(0xff);
    }
  }
  return r.SerializeAsString();
}

void BM_ValidateParseAnswer(benchmark::State& state) {
  const std::string bytes = AllAnswerBytes();
  validator::v1::ValidateResponse reused;
  for (auto _ : state) {
    if (state.range(0) == 0) {
      google::protobuf::Arena arena;
      auto* a = google::protobuf::Arena::CreateMessage<validator::v1::ValidateResponse>(&arena);
      benchmark::DoNotOptimize(a->ParseFromString(bytes));
    } else {
      reused.Clear();
      benchmark::DoNotOptimize(reused.ParseFromString(bytes));
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_ValidateParseAnswer)->Arg(0)->Arg(1);

void SetBytes(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * Body().size()));
}

// A fresh command each time (allocates every buffer).
void BM_ValidateParse(benchmark::State& state) {
  for (auto _ : state) {
    auto cmd = ParseValidateRequest(Body(), 500);
    benchmark::DoNotOptimize(cmd);
  }
  SetBytes(state);
}
BENCHMARK(BM_ValidateParse);

void BM_ValidateBuildRequest(benchmark::State& state) {
  auto cmd = ParseValidateRequest(Body(), 500);
  for (auto _ : state) {
    google::protobuf::Arena arena;
    auto* req = google::protobuf::Arena::CreateMessage<validator::v1::ValidateRequest>(&arena);
    Status s = BuildValidatorRequestInto(*cmd, *req);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(req);
  }
}
BENCHMARK(BM_ValidateBuildRequest);

void BM_ValidateWriteAnswer(benchmark::State& state) {
  auto cmd = ParseValidateRequest(Body(), 500);
  const auto answer = Answer();
  for (auto _ : state) {
    std::string out = WriteValidateResponse(*cmd, answer);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_ValidateWriteAnswer);

// The platform=all answer of BM_ValidateParseAnswer written as JSON (the issue encoder, report/
// issue_json.h, writes most of it).
void BM_ValidateWriteAllAnswer(benchmark::State& state) {
  auto cmd = ParseValidateRequest(Body(), 500);
  validator::v1::ValidateResponse answer;
  answer.ParseFromString(AllAnswerBytes());
  size_t bytes = 0;
  for (auto _ : state) {
    std::string out = WriteValidateResponse(*cmd, answer);
    bytes = out.size();
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_ValidateWriteAllAnswer);

void BM_ValidateWriteCleaned(benchmark::State& state) {
  const bool compact = state.range(0) == 1;
  state.SetLabel(compact ? "compact body" : "body with spaces");
  auto cmd = ParseValidateRequest(MakeBody(compact), 500);
  validator::v1::ValidateResponse answer;
  answer.mutable_stats()->set_rows(500);
  for (uint64_t row = 10; row <= 500; row += 10) {
    auto* fix = answer.add_issues();
    fix->set_row(row);
    fix->set_severity(validator::v1::SEVERITY_WARNING);
    fix->set_field("title");
    fix->set_code("TITLE_CASE_FIXED");
    fix->set_message("The title was re-cased.");
    fix->set_original_value("Kirei Organic Yoga Mat");
    fix->set_fixed_value("Kirei organic yoga mat");
  }
  for (auto _ : state) {
    std::string out = WriteValidateResponse(*cmd, answer);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_ValidateWriteCleaned)->Arg(0)->Arg(1);

// As the route runs it: one command per thread, its buffers reused. Arg 0: the route's reader
// (simdjson finds the tokens, the upload parser reads them); arg 1: the upload parser alone,
// which the route falls back to for bodies of another shape and for errors.
void BM_ReaderOurs(benchmark::State& state) {
  const JsonPath path = state.range(0) == 0 ? JsonPath::kFast : JsonPath::kHandWritten;
  state.SetLabel(state.range(0) == 0 ? "simdjson tokens + upload parser" : "upload parser alone");
  ValidateCommand cmd;
  for (auto _ : state) {
    Status s = ParseValidateRequestInto(Body(), 500, cmd, path);
    if (!s.ok()) state.SkipWithError(s.message().c_str());
    benchmark::DoNotOptimize(cmd.members.data());
  }
  SetBytes(state);
}
BENCHMARK(BM_ReaderOurs)->Arg(0)->Arg(1);

void BM_ReaderSimdjsonOnDemand(benchmark::State& state) {
  simdjson::ondemand::parser parser;
  const simdjson::padded_string padded(Body());
  for (auto _ : state) {
    size_t members = 0;
    auto doc = parser.iterate(padded);
    for (auto top : doc.get_object()) {
      std::string_view key = top.unescaped_key();
      if (key != "records") {
        benchmark::DoNotOptimize(top.value().raw_json_token());
        continue;
      }
      for (auto record : top.value().get_array()) {
        for (auto field : record.get_object()) {
          std::string_view k = field.unescaped_key();
          auto value = field.value();
          if (value.type() == simdjson::ondemand::json_type::string) {
            std::string_view v = value.get_string();
            benchmark::DoNotOptimize(v);
          } else {
            benchmark::DoNotOptimize(value.raw_json_token());
          }
          benchmark::DoNotOptimize(k);
          ++members;
        }
      }
    }
    benchmark::DoNotOptimize(members);
  }
  SetBytes(state);
}
BENCHMARK(BM_ReaderSimdjsonOnDemand);

void BM_ReaderNlohmannDom(benchmark::State& state) {
  for (auto _ : state) {
    auto doc = nlohmann::json::parse(Body());
    benchmark::DoNotOptimize(doc);
  }
  SetBytes(state);
}
BENCHMARK(BM_ReaderNlohmannDom);

void BM_WriterNlohmannDom(benchmark::State& state) {
  const auto doc = nlohmann::json::parse(Body());
  for (auto _ : state) {
    nlohmann::json out;
    out["cleaned"] = doc["records"];
    out["issues"] = nlohmann::json::array();
    for (int i = 0; i < 1000; ++i) {
      out["issues"].push_back({{"row", i}, {"code", "X"}, {"message", "m"}});
    }
    std::string text = out.dump();
    benchmark::DoNotOptimize(text);
  }
}
BENCHMARK(BM_WriterNlohmannDom);

}  // namespace
}  // namespace dq::gateway

BENCHMARK_MAIN();
