// XmlReader and XmlFeedWriter: no crash, no leak, bounded; chunking never changes the rows; a
// feed written back with no fix is the same bytes (or differs only in the declaration's
// encoding, which becomes UTF-8); written with a fix in every cell, it reads back with each
// cell either fixed or, when the writer says it could not place the fix, as it was.
#include <cstddef>
#include <cstdint>

#include "dq/ingest/xml_reader.h"
#include "dq/ingest/xml_writer.h"
#include "fuzz_util.h"

using namespace dq::ingest;

namespace {

constexpr std::string_view kPrefix = "<&]]>\"'";

struct Written {
  std::string out;
  uint64_t unplaced = 0;
  bool ok = true;
};

// Reads `data` whole and writes every row back, each cell prefixed with kPrefix when `fix`.
Written Write(std::string_view data, const ReaderLimits& limits, bool fix) {
  XmlReader reader(limits);
  XmlFeedWriter writer;
  Written w;
  reader.Feed(data);
  reader.Finish();
  std::vector<std::string> fixed;
  std::vector<std::string_view> cells;
  while (true) {
    auto s = reader.Next();
    if (!s.ok()) {
      w.ok = false;
      return w;
    }
    if (*s == ReadState::kEnd) break;
    fixed.clear();
    for (std::string_view c : reader.row()) {
      fixed.push_back(fix ? std::string(kPrefix) + std::string(c) : std::string(c));
    }
    cells.assign(fixed.begin(), fixed.end());
    writer.WriteRow(*reader.xml_source(), reader.row(), cells, &w.out);
  }
  writer.WriteEnd(*reader.xml_source(), &w.out);
  w.unplaced = writer.unplaced();
  return w;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size == 0) return 0;
  const size_t chunk = 1 + (bytes[0] & 0x3F);
  const std::string_view data(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  ReaderLimits limits = fuzz::SmallLimits();
  limits.max_xml_depth = 16;
  auto make = [&] { return std::make_unique<XmlReader>(limits); };
  const fuzz::Read whole = fuzz::ReadWith(make, data, 0);
  const fuzz::Read chunked = fuzz::ReadWith(make, data, chunk);
  fuzz::CheckChunkingAgrees(whole, chunked);
  if (!whole.ok) return 0;

  // No fix: the same file, but for the declared encoding.
  const Written same = Write(data, limits, false);
  fuzz::Check(same.ok, "a feed that reads does not read again");
  fuzz::Check(same.unplaced == 0, "nothing to place, yet a fix was not placed");
  if (same.out != data) {
    const size_t at = data.find("encoding");
    fuzz::Check(at != std::string_view::npos && at < 256, "the unfixed feed changed");
    const fuzz::Read again = fuzz::ReadWith(make, same.out, 0);
    fuzz::Check(again.ok && again.rows == whole.rows, "the declaration's rewrite changed rows");
  }

  // A fix in every cell: each reads back fixed, or unchanged and counted.
  const Written fixed = Write(data, limits, true);
  fuzz::Check(fixed.ok, "a feed that reads does not read again");
  ReaderLimits roomy = limits;
  roomy.max_record_bytes = 64 * fixed.out.size() + 64;
  auto reread = [&] { return std::make_unique<XmlReader>(roomy); };
  const fuzz::Read back = fuzz::ReadWith(reread, fixed.out, 0);
  fuzz::Check(back.ok, "the fixed feed does not read back");
  fuzz::Check(back.header == whole.header, "the fixed feed has another header");
  fuzz::Check(back.rows.size() == whole.rows.size(), "the fixed feed has another row count");
  uint64_t unchanged = 0;
  for (size_t r = 0; r < whole.rows.size(); ++r) {
    fuzz::Check(back.rows[r].size() == whole.rows[r].size(), "a fixed row has another width");
    for (size_t c = 0; c < whole.rows[r].size(); ++c) {
      const std::string& before = whole.rows[r][c];
      const std::string& after = back.rows[r][c];
      if (after == before) {
        ++unchanged;
      } else {
        fuzz::Check(after == std::string(kPrefix) + before,
                    "a cell came back neither fixed nor as it was");
      }
    }
  }
  fuzz::Check(unchanged == fixed.unplaced, "the writer's count of unplaced fixes is wrong");
  return 0;
}
