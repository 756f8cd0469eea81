// Throughput of the file formats beyond text (issue 17): the XLSX reader and writer on a
// generated 100,000-row workbook (bytes/s counted on the uncompressed sheet XML, the figure the
// target is set in), and gzip decompression of a generated CSV (bytes/s of decompressed output).
// Issue 31: the XML feed reader on a generated ~50 MB Google Merchant Center RSS feed, whole and
// in the job's 1 MiB pieces, and the cleaned feed written back (bytes/s of feed).
//
//   build/bench/files_bench --benchmark_min_time=1
#include <cstdlib>
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
    if (!w.Finish().ok()) std::abort();  // without its workbook the bench measures nothing
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
    if (!w.Finish().ok()) state.SkipWithError("RowWriter::Finish failed");
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

// A Google Merchant Center RSS 2.0 feed of about 50 MB, shaped like a real one: g: attributes,
// a CDATA description, entities, two additional images, a nested shipping.
const std::string& Feed() {
  static const std::string feed = [] {
    std::mt19937 rng(11);
    std::string out =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<rss xmlns:g=\"http://base.google.com/ns/1.0\" version=\"2.0\">\n<channel>\n"
        "<title>Store</title>\n<link>https://shop.example.com</link>\n"
        "<description>Feed</description>\n";
    for (int i = 0; out.size() < 50u * 1000 * 1000; ++i) {
      const std::string n = std::to_string(i);
      out += "<item>\n<g:id>SKU-" + n + "</g:id>\n<g:title>Cotton T-Shirt &amp; Hoodie Bundle " +
             n + " - Size M, Blue</g:title>\n<g:description><![CDATA[A soft <b>cotton</b> "
             "bundle, item " + n + ". Machine washable; fits true to size. Made from organic "
             "cotton grown without pesticides.]]></g:description>\n"
             "<g:link>https://shop.example.com/products/" + n + "</g:link>\n"
             "<g:image_link>https://cdn.example.com/img/" + n + ".jpg</g:image_link>\n"
             "<g:additional_image_link>https://cdn.example.com/img/" + n +
             "-2.jpg</g:additional_image_link>\n<g:additional_image_link>"
             "https://cdn.example.com/img/" + n + "-3.jpg</g:additional_image_link>\n"
             "<g:availability>in stock</g:availability>\n<g:price>" +
             std::to_string(1 + rng() % 999) + "." + std::to_string(10 + rng() % 90) +
             " USD</g:price>\n<g:brand>Acme</g:brand>\n<g:gtin>4006381333931</g:gtin>\n"
             "<g:condition>new</g:condition>\n<g:google_product_category>Apparel &amp; "
             "Accessories &gt; Clothing</g:google_product_category>\n<g:shipping>\n"
             "<g:country>US</g:country>\n<g:service>Standard</g:service>\n"
             "<g:price>4.95 USD</g:price>\n</g:shipping>\n"
             "<g:shipping_weight>0.3 kg</g:shipping_weight>\n</item>\n";
    }
    out += "</channel>\n</rss>\n";
    return out;
  }();
  return feed;
}

// The upload's pass (ScanFile): the whole feed in one buffer.
void BM_XmlRead(benchmark::State& state) {
  const std::string& feed = Feed();
  uint64_t rows = 0, columns = 0;
  for (auto _ : state) {
    auto summary = ScanFile(FileFormat::kXml, feed);
    if (!summary.ok()) state.SkipWithError(summary.status().message().c_str());
    rows = summary->data_rows;
    columns = summary->header.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * feed.size()));
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["columns"] = static_cast<double>(columns);
  state.counters["feed_MB"] = static_cast<double>(feed.size()) / 1e6;
}
BENCHMARK(BM_XmlRead)->Unit(benchmark::kMillisecond);

// As a job's worker reads it: 1 MiB pieces, each let go once the reader asks for more.
void BM_XmlReadPieces(benchmark::State& state) {
  const std::string& feed = Feed();
  constexpr size_t kPiece = 1 << 20;
  std::string piece;
  for (auto _ : state) {
    auto reader = MakeRowReader(FileFormat::kXml);
    for (size_t at = 0; at < feed.size(); at += kPiece) {
      piece.assign(feed, at, kPiece);
      reader->Feed(piece);
      if (at + kPiece >= feed.size()) reader->Finish();
      while (true) {
        auto s = reader->Next();
        if (!s.ok() || *s != ReadState::kRow) break;
        benchmark::DoNotOptimize(reader->row().data());
      }
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * feed.size()));
}
BENCHMARK(BM_XmlReadPieces)->Unit(benchmark::kMillisecond);

// The cleaned download of an XML job: read again and written back through RowWriter, one value
// in ten fixed.
void BM_XmlReadWrite(benchmark::State& state) {
  const std::string& feed = Feed();
  size_t out = 0;
  std::vector<std::string_view> cells;
  for (auto _ : state) {
    auto reader = MakeRowReader(FileFormat::kXml);
    RowWriter w(FileFormat::kXml, {}, {});
    w.set_source(reader.get());
    reader->Feed(feed);
    reader->Finish();
    uint64_t row = 0;
    while (true) {
      auto s = reader->Next();
      if (!s.ok() || *s != ReadState::kRow) break;
      cells.assign(reader->row().begin(), reader->row().end());
      if (++row % 10 == 0 && cells.size() > 8) cells[8] = "19.99 USD";
      w.WriteRow(cells);
      if (w.out().size() > (1u << 20)) {  // sent and let go, as the download does
        out += w.out().size();
        w.out().clear();
      }
    }
    if (!w.Finish().ok()) state.SkipWithError("RowWriter::Finish failed");
    out += w.out().size();
    benchmark::DoNotOptimize(w.out().data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * feed.size()));
  state.counters["out_MB_per_pass"] =
      static_cast<double>(out) / 1e6 / static_cast<double>(state.iterations());
}
BENCHMARK(BM_XmlReadWrite)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dq::ingest

BENCHMARK_MAIN();
