// Ingestion throughput: the CSV reader (whole buffer and 64 KiB chunks), the format scan the
// upload endpoint runs, the writer for the cleaned download, and the JSON readers, on generated
// product files shaped like gen_catalog.py's output (20 columns, ~250 bytes a row, some quoted
// cells with commas and "" escapes). Bytes/s is the figure to read.
//
//   build-ingest/bench/ingest_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "dq/ingest/json_fast.h"
#include "dq/ingest/row_reader.h"
#include "dq/ingest/row_writer.h"

namespace dq::ingest {
namespace {

constexpr int kRows = 200000;

const std::string& ProductCsv() {
  static const std::string csv = [] {
    std::mt19937 rng(1);
    const char* brands[] = {"Acme", "Nordwind", "Kirei", "Solace", "Tamarind", "Orbit"};
    const char* nouns[] = {"Mug", "T-Shirt", "Backpack", "Desk Lamp", "Yoga Mat", "Teapot"};
    std::string out =
        "Variant SKU,Title,Body (HTML),Variant Price,Variant Compare At Price,Cost per item,"
        "Currency,Availability,Image Src,Vendor,Type,Variant Barcode,Variant Grams,HS Code,"
        "Country of Origin,Supplier VAT,Variant Inventory Qty,Reorder Point,Best Before,"
        "Location\r\n";
    // Appends only: GCC 12 warns falsely (-Wrestrict) on chains of "literal" + std::string.
    auto add = [&out](auto&&... parts) { (out.append(parts), ...); };
    for (int i = 1; i <= kRows; ++i) {
      const std::string brand = brands[rng() % 6];
      std::string title = brand;
      title.append(" Classic ").append(nouns[rng() % 6]);
      const unsigned price = 300 + rng() % 40000;
      add("SKU-", std::to_string(10000000 + i), ",", title);
      // Some descriptions need quoting: commas, and now and then an escaped quote.
      if (i % 5 == 0) {
        add(",\"<p>", title, ", made with care. Size 12\"\" wide.</p>\"");
      } else {
        add(",<p>", title, ". Made with care; ships in 2 days.</p>");
      }
      add(",", std::to_string(price / 100), ".", std::to_string(10 + price % 90));
      add(i % 3 == 0 ? ",49.90" : ",");
      add(",12.40,USD,in_stock,https://cdn.example.com/img/", std::to_string(i), ".jpg,", brand);
      add(",Home & Garden,4006381333931,", std::to_string(20 + rng() % 4000),
          ",6109100010,DE,DE136695976,", std::to_string(rng() % 900), ",15,");
      add(i % 5 == 0 ? "2028-04-01" : "", ",WH-FRA-3\r\n");
    }
    return out;
  }();
  return csv;
}

const std::string& ProductNdjson() {
  static const std::string nd = [] {
    Result<FileSummary> s = ScanFile(FileFormat::kCsv, ProductCsv());
    auto reader = MakeRowReader(FileFormat::kCsv);
    reader->Feed(ProductCsv());
    reader->Finish();
    RowWriter w(FileFormat::kNdjson, {}, s->header);
    int n = 0;
    while (*reader->Next() == ReadState::kRow && n++ < kRows / 4) w.WriteRow(reader->row());
    return w.out();
  }();
  return nd;
}

void BM_CsvWhole(benchmark::State& state) {
  const std::string& csv = ProductCsv();
  size_t cells = 0;
  for (auto _ : state) {
    auto reader = MakeRowReader(FileFormat::kCsv);
    reader->Feed(csv);
    reader->Finish();
    while (*reader->Next() == ReadState::kRow) cells += reader->row().size();
  }
  benchmark::DoNotOptimize(cells);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * csv.size()));
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(state.iterations() * kRows),
                                                benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CsvWhole)->Unit(benchmark::kMillisecond);

void BM_CsvChunked64K(benchmark::State& state) {
  const std::string& csv = ProductCsv();
  size_t cells = 0;
  for (auto _ : state) {
    auto reader = MakeRowReader(FileFormat::kCsv);
    for (size_t at = 0; at < csv.size(); at += 65536) {
      reader->Feed(std::string_view(csv).substr(at, 65536));
      while (*reader->Next() == ReadState::kRow) cells += reader->row().size();
    }
    reader->Finish();
    while (*reader->Next() == ReadState::kRow) cells += reader->row().size();
  }
  benchmark::DoNotOptimize(cells);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * csv.size()));
}
BENCHMARK(BM_CsvChunked64K)->Unit(benchmark::kMillisecond);

void BM_ScanFile(benchmark::State& state) {
  const std::string& csv = ProductCsv();
  for (auto _ : state) {
    Result<FileSummary> s = ScanFile(FileFormat::kCsv, csv);
    benchmark::DoNotOptimize(s.ok());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * csv.size()));
}
BENCHMARK(BM_ScanFile)->Unit(benchmark::kMillisecond);

void BM_CsvReadWrite(benchmark::State& state) {
  const std::string& csv = ProductCsv();
  for (auto _ : state) {
    auto reader = MakeRowReader(FileFormat::kCsv);
    reader->Feed(csv);
    reader->Finish();
    Result<ReadState> first = reader->Next();
    RowWriter w(FileFormat::kCsv, reader->dialect(), reader->header());
    for (Result<ReadState> s = first; *s == ReadState::kRow; s = reader->Next()) {
      w.WriteRow(reader->row());
      if (w.out().size() > (1 << 20)) w.out().clear();  // as if sent
    }
    if (!w.Finish().ok()) state.SkipWithError("RowWriter::Finish failed");
    benchmark::DoNotOptimize(w.out().data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * csv.size()));
}
BENCHMARK(BM_CsvReadWrite)->Unit(benchmark::kMillisecond);

void BM_Ndjson(benchmark::State& state) {
  const std::string& nd = ProductNdjson();
  size_t cells = 0;
  for (auto _ : state) {
    auto reader = MakeRowReader(FileFormat::kNdjson);
    reader->Feed(nd);
    reader->Finish();
    while (*reader->Next() == ReadState::kRow) cells += reader->row().size();
  }
  benchmark::DoNotOptimize(cells);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * nd.size()));
}
BENCHMARK(BM_Ndjson)->Unit(benchmark::kMillisecond);

// The two halves of the JSON record reader on the same lines: /0 the fast half (simdjson finding
// the tokens, the hand-written parser reading them), which the readers try first; /1 the
// hand-written parser alone, which they fall back to. No row building: the readers' own cost.
void BM_JsonRecordHalves(benchmark::State& state) {
  const std::string& nd = ProductNdjson();
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < nd.size();) {
    const size_t nl = nd.find('\n', at);
    lines.push_back(std::string_view(nd).substr(at, nl - at));
    at = nl + 1;
  }
  internal::JsonObjectParser parser(64);
  internal::FastObjectReader fast;
  const bool fast_half = state.range(0) == 0;
  state.SetLabel(fast_half ? "simdjson tokens + parser" : "parser alone");
  size_t fields = 0;
  for (auto _ : state) {
    for (std::string_view line : lines) {
      if (fast_half) {
        if (!fast.Read(line, parser)) state.SkipWithError("the fast half gave up");
        fields += fast.fields().size();
      } else {
        if (parser.Parse(line)) state.SkipWithError("the parser refused a line");
        fields += parser.fields().size();
      }
    }
  }
  benchmark::DoNotOptimize(fields);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * nd.size()));
}
BENCHMARK(BM_JsonRecordHalves)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dq::ingest

BENCHMARK_MAIN();
