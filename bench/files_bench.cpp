// Throughput of the file formats beyond text (issue 17): the XLSX reader and writer on a
// generated 100,000-row workbook (bytes/s counted on the uncompressed sheet XML, the figure the
// target is set in), and gzip decompression of a generated CSV (bytes/s of decompressed output).
//
//   build/bench/files_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>
#include <zip.h>
#include <zlib.h>

#include <random>
#include <string>

#include "dq/ingest/gzip.h"
#include "dq/ingest/row_reader.h"
#include "dq/ingest/row_writer.h"

namespace dq::ingest {
namespace {

constexpr int kRows = 100000;

// A product sheet: text cells, prices and GTINs as numbers, a quantity.
const std::string& Workbook() {
  static const std::string book = [] {
    std::mt19937 rng(7);
    const char* nouns[] = {"Mug", "T-Shirt", "Backpack", "Desk Lamp", "Yoga Mat", "Teapot"};
    RowWriter w(FileFormat::kXlsx, {},
                {"SKU", "Title", "Price", "Currency", "GTIN", "Stock", "Brand", "Category"});
    const std::vector<CellKind> kinds = {CellKind::kString, CellKind::kString, CellKind::kNumber,
                                         CellKind::kString, CellKind::kNumber, CellKind::kNumber,
                                         CellKind::kString, CellKind::kString};
    for (int i = 0; i < kRows; ++i) {
      const std::string sku = "SKU-" + std::to_string(10000000 + i);
      const std::string title = std::string("Acme Classic ") + nouns[rng() % 6];
      const std::string price = std::to_string(1 + rng() % 400) + "." + std::to_string(10 + rng() % 90);
      const std::string stock = std::to_string(rng() % 900);
      std::vector<std::string_view> cells = {sku, title, price, "EUR", "4006381333931", stock,
                                             "Acme", "Home & Garden"};
      w.WriteRow(cells, kinds);
    }
    w.Finish();
    return w.out();
  }();
  return book;
}

uint64_t SheetXmlBytes(const std::string& book) {
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(book.data(), book.size(), 0, &err);
  zip_t* z = zip_open_from_source(src, ZIP_RDONLY, &err);
  zip_stat_t st;
  zip_stat_init(&st);
  zip_stat(z, "xl/worksheets/sheet1.xml", 0, &st);
  zip_discard(z);
  return st.size;
}

void BM_XlsxRead(benchmark::State& state) {
  const std::string& book = Workbook();
  const uint64_t xml = SheetXmlBytes(book);
  uint64_t rows = 0;
  for (auto _ : state) {
    auto reader = MakeRowReader(FileFormat::kXlsx);
    reader->Feed(book);
    reader->Finish();
    while (true) {
      auto s = reader->Next();
      if (!s.ok() || *s != ReadState::kRow) break;
      benchmark::DoNotOptimize(reader->row().data());
    }
    rows = reader->rows_read();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * xml));
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["sheet_xml_MB"] = static_cast<double>(xml) / 1e6;
  state.counters["file_MB"] = static_cast<double>(book.size()) / 1e6;
}
BENCHMARK(BM_XlsxRead)->Unit(benchmark::kMillisecond);

// The cleaned workbook of an XLSX job: the same rows written again (RowWriter, XlsxWriter),
// bytes/s counted on the sheet XML as for the reader.
void BM_XlsxWrite(benchmark::State& state) {
  const std::string& book = Workbook();
  const uint64_t xml = SheetXmlBytes(book);
  std::vector<std::vector<std::string>> rows;
  std::vector<std::vector<CellKind>> kinds;
  auto reader = MakeRowReader(FileFormat::kXlsx);
  reader->Feed(book);
  reader->Finish();
  while (*reader->Next() == ReadState::kRow) {
    rows.emplace_back(reader->row().begin(), reader->row().end());
    kinds.emplace_back(reader->cell_kinds().begin(), reader->cell_kinds().end());
  }
  size_t out = 0;
  for (auto _ : state) {
    RowWriter w(FileFormat::kXlsx, {}, reader->header());
    for (size_t r = 0; r < rows.size(); ++r) {
      std::vector<std::string_view> cells(rows[r].begin(), rows[r].end());
      w.WriteRow(cells, kinds[r]);
    }
    w.Finish();
    out = w.out().size();
    benchmark::DoNotOptimize(w.out().data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * xml));
  state.counters["rows"] = static_cast<double>(rows.size());
  state.counters["file_MB"] = static_cast<double>(out) / 1e6;
}
BENCHMARK(BM_XlsxWrite)->Unit(benchmark::kMillisecond);

const std::string& Csv() {
  static const std::string csv = [] {
    std::mt19937 rng(3);
    std::string out = "sku,title,price,gtin,stock\n";
    while (out.size() < 64u * 1024 * 1024) {
      out += "SKU-" + std::to_string(rng() % 100000000) + ",Acme Classic Mug " +
             std::to_string(rng() % 1000) + "," + std::to_string(rng() % 500) + ".99," +
             "4006381333931," + std::to_string(rng() % 900) + "\n";
    }
    return out;
  }();
  return csv;
}

std::string Compress(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

void BM_Gunzip(benchmark::State& state) {
  static const std::string gz = Compress(Csv());
  for (auto _ : state) {
    auto out = Gunzip(gz, 1u << 30);
    benchmark::DoNotOptimize(out.ok());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * Csv().size()));
  state.counters["ratio"] = static_cast<double>(Csv().size()) / static_cast<double>(gz.size());
}
BENCHMARK(BM_Gunzip)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dq::ingest

BENCHMARK_MAIN();
