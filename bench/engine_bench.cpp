// Rule-engine throughput in rows per second on one core: items_per_second is rows divided by
// the CPU time of the (single) benchmark thread, so other load on the machine does not count.
//
//   ProductFamily: product+price+inventory+shipping on gen_catalog-like product rows.
//   Customer:      customer on gen_catalog-like customer rows with distinct phone numbers
//                  (gen_catalog.py --phones unique, its default): the phone fast path
//                  (validator/src/engine/phone_fast_path.h), libphonenumber for the rest.
//                  Counters: distinct_phones in the input, and per run how many phone checks
//                  the fast path answered and how many went to libphonenumber.
//
// Input: generated in process (gen_catalog.py's shapes, --defects 0), or the gen_catalog.py CSV
// files named by DQ_BENCH_PRODUCTS and DQ_BENCH_CUSTOMERS. Each iteration validates the whole
// file in a fresh Session (row checks, duplicate sets, outliers in Finish), as a job would.
//
//   Channels:      ProductFamily with platform templates: /0 none, /1 search_merchant (the
//                  deepest pack), /2 all eight at once (`platform=all`), the same rows. Issue 32's
//                  goal: /2 costs at most 1.5x /1 (docs/PERFORMANCE.md).
//
//   ChannelsText:  the listing text's facts alone (title and description of each row), /0 one
//                  function per fact, /1 one pass (listing::Scan).
//
//   KeyTable:      the duplicate-key table alone (FirstSeen), 1,000,000 distinct keys into a
//                  fresh table, as one stream's SKUs; /1 is the table as built before it
//                  moved to ZeroedBlock (a std::vector of slots), for comparison.
//
//   build-rules/bench/engine_bench --benchmark_min_time=2
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "batch_state.h"
#include "listing_text.h"
#include "reference_data.h"
#include "session.h"

namespace dq::bench {
// engine_data.cpp
using Rows = std::vector<std::vector<std::string>>;
extern const std::vector<std::string> kProductFields;
extern const std::vector<std::string> kCustomerFields;
Rows GenerateProducts(size_t n, uint64_t seed);
Rows GenerateCustomers(size_t n, uint64_t seed);
Rows ReadCsv(const std::string& path);
}  // namespace dq::bench

namespace {

using dq::bench::Rows;
using dq::validator::BatchSpec;
using dq::validator::Issue;
using dq::validator::ReferenceData;
using dq::validator::Session;

struct Input {
  Rows rows;
  std::vector<std::vector<std::string_view>> views;
};

const Input& Load(const char* env, bool products) {
  static Input cache[2];
  Input& in = cache[products ? 0 : 1];
  if (!in.rows.empty()) return in;
  if (const char* path = std::getenv(env); path && *path) {
    in.rows = dq::bench::ReadCsv(path);
  } else {
    in.rows = products ? dq::bench::GenerateProducts(200'000, 1)
                       : dq::bench::GenerateCustomers(200'000, 1);
  }
  for (const auto& r : in.rows) in.views.emplace_back(r.begin(), r.end());
  return in;
}

void Run(benchmark::State& state, const Input& in, const std::vector<std::string>& fields,
         std::vector<std::string> checks, bool phones = false, std::string_view platform = "") {
  auto spec = BatchSpec::Make(fields, checks, platform);
  if (!spec.ok()) {
    state.SkipWithError("bad spec");
    return;
  }
  const ReferenceData& ref = ReferenceData::Default();
  std::vector<Issue> issues;
  uint64_t total_issues = 0, fast = 0, slow = 0;
  for (auto _ : state) {
    Session session(ref, *spec);
    for (const auto& row : in.views) {
      issues.clear();
      session.AddRow(row, issues);
      total_issues += issues.size();
    }
    issues.clear();
    session.Finish(issues);
    total_issues += issues.size();
    benchmark::DoNotOptimize(total_issues);
    fast = session.phone_checker().fast_checks();
    slow = session.phone_checker().slow_checks();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * in.views.size()));
  state.counters["rows"] = static_cast<double>(in.views.size());
  state.counters["issues_per_run"] =
      static_cast<double>(total_issues) / static_cast<double>(state.iterations());
  if (phones) {
    const size_t col = 1;  // kCustomerFields: email, phone, country
    std::set<std::string_view> distinct;
    for (const auto& row : in.views) distinct.insert(row.size() > col ? row[col] : "");
    state.counters["distinct_phones"] = static_cast<double>(distinct.size());
    state.counters["phone_fast"] = static_cast<double>(fast);
    state.counters["phone_libphonenumber"] = static_cast<double>(slow);
  }
}

void BM_ProductFamily(benchmark::State& state) {
  Run(state, Load("DQ_BENCH_PRODUCTS", true), dq::bench::kProductFields,
      {"product", "price", "inventory", "shipping"});
}
BENCHMARK(BM_ProductFamily)->Unit(benchmark::kMillisecond);

void BM_Customer(benchmark::State& state) {
  Run(state, Load("DQ_BENCH_CUSTOMERS", false), dq::bench::kCustomerFields, {"customer"},
      /*phones=*/true);
}
BENCHMARK(BM_Customer)->Unit(benchmark::kMillisecond);

void BM_Channels(benchmark::State& state) {
  static constexpr std::string_view kPlatform[] = {"", "search_merchant", "all"};
  const std::string_view platform = kPlatform[state.range(0)];
  Run(state, Load("DQ_BENCH_PRODUCTS", true), dq::bench::kProductFields,
      {"product", "price", "inventory", "shipping"}, false, platform);
  state.SetLabel(platform.empty() ? "no template" : std::string(platform));
}
BENCHMARK(BM_Channels)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// The listing text alone: every row's title and description asked all the facts the
// search_merchant pack asks of them, /0 one function per fact (listing::ScanEach, as the
// checks read them before issue 32's fused scan), /1 in one pass (listing::Scan). Items: rows.
void BM_ChannelsText(benchmark::State& state) {
  using namespace dq::validator::listing;
  const Input& in = Load("DQ_BENCH_PRODUCTS", true);
  const ScanRequest title{kCapitalsFact | kPromotionalFact | kGimmicksFact | kRepeatedFact |
                              kUsedWordFact,
                          true, kExclamation | kRepeatedSymbol | kDecorative};
  const ScanRequest description{kCapitalsFact | kPromotionalFact | kHtmlFact | kLinkFact, false,
                                0};
  const bool fused = state.range(0) == 1;
  size_t found = 0;
  for (auto _ : state) {
    for (const auto& row : in.views) {
      // kProductFields: title, description are columns 1 and 2.
      const TextFacts t = fused ? Scan(row[1], title) : ScanEach(row[1], title);
      const TextFacts d = fused ? Scan(row[2], description) : ScanEach(row[2], description);
      found += t.capitals + !t.promotional.empty() + t.gimmicks.kinds + !t.used_word.empty() +
               !t.repeated_word.empty() + !d.html.first_tag.empty() + !d.link.empty();
    }
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * in.views.size()));
  state.SetLabel(fused ? "one pass (Scan)" : "one function per fact (ScanEach)");
}
BENCHMARK(BM_ChannelsText)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The key table as it was before ZeroedBlock: slots in a std::vector, zeroed on assign, on
// normal pages (the same probing and growth as FirstSeen).
class VectorKeyTable {
 public:
  std::optional<uint64_t> InsertHash(uint64_t hash, uint64_t row) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.row == 0) {
        s = {hash, row};
        ++size_;
        return std::nullopt;
      }
      if (s.hash == hash) return s.row;
    }
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint64_t row = 0;
  };
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.row == 0) continue;
      size_t i = s.hash & mask;
      while (slots_[i].row != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

template <typename Table>
size_t InsertAll(const std::vector<uint64_t>& hashes) {
  Table table;
  size_t repeats = 0;
  for (size_t i = 0; i < hashes.size(); ++i) repeats += table.InsertHash(hashes[i], i + 1).has_value();
  return repeats;
}

void BM_KeyTable(benchmark::State& state) {
  std::mt19937_64 random(15);
  std::vector<uint64_t> hashes(1'000'000);
  for (uint64_t& h : hashes) h = random();
  for (auto _ : state) {
    benchmark::DoNotOptimize(state.range(0) == 0 ? InsertAll<dq::validator::FirstSeen>(hashes)
                                                 : InsertAll<VectorKeyTable>(hashes));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(hashes.size()));
  state.SetLabel(state.range(0) == 0 ? "FirstSeen (ZeroedBlock)" : "std::vector, as before");
}
BENCHMARK(BM_KeyTable)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
