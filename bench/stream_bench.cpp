// One streamed job through the validator on 1, 2, ... evaluation threads (issue 15: "all cores
// for one job"), without the network. Wall-clock time, so run it on a quiet machine and note the
// load average.
//
//   BM_Stream/threads:N  What ValidateStream does for a job (validator_service.cpp): per 4,096-row
//                        chunk, parse the RowChunk from its wire bytes (the next one while the
//                        pool evaluates the current one), evaluate, build and serialize the
//                        IssueChunk; then outliers and stats. DQ_VALIDATOR_EVAL_THREADS=N.
//   BM_Engine/threads:N  The engine alone: Session::AddRows over rows already in memory.
//   BM_Machine/threads:N The machine: fixed CPU-bound work on N threads (what speed-up the
//                        machine allows at the moment; others' builds take cores away).
//
// Input: the gen_catalog.py products CSV named by DQ_BENCH_PRODUCTS (all 20 columns, checks
// product, price, inventory, shipping), else 200,000 generated rows.
//
//   python3 bench/tools/gen_catalog.py products --rows 1000000 --out /tmp/p1m.csv
//   DQ_BENCH_PRODUCTS=/tmp/p1m.csv build/bench/stream_bench --benchmark_repetitions=5
//       --benchmark_enable_random_interleaving=true          (one command line)
//
// items_per_second is rows per wall-clock second; "issues" must be the same for every N. The CPU
// column is the whole process's CPU time, driver_cpu_ms the driving thread's.
#include <benchmark/benchmark.h>

#include <time.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/reference_data.h"
#include "engine/session.h"
#include "engine/worker_pool.h"
#include "rpc/stream_validation.h"

namespace dq::bench {
// engine_data.cpp
using Rows = std::vector<std::vector<std::string>>;
extern const std::vector<std::string> kProductFields;
Rows GenerateProducts(size_t n, uint64_t seed);
Rows ReadCsv(const std::string& path);
}  // namespace dq::bench

namespace {

using namespace dq::validator;
using dq::validator::rpc::StreamValidation;

constexpr size_t kChunkRows = 4096;  // the gateway's JobRunnerOptions::chunk_rows
const std::vector<std::string> kChecks = {"product", "price", "inventory", "shipping"};

const dq::bench::Rows& Rows() {
  static const dq::bench::Rows rows = [] {
    const char* path = std::getenv("DQ_BENCH_PRODUCTS");
    return path && *path ? dq::bench::ReadCsv(path) : dq::bench::GenerateProducts(200'000, 1);
  }();
  return rows;
}

// The chunks as the gateway sends them: serialized RowChunks.
const std::vector<std::string>& Wire() {
  static const std::vector<std::string> wire = [] {
    std::vector<std::string> out;
    const auto& rows = Rows();
    for (size_t begin = 0; begin < rows.size(); begin += kChunkRows) {
      v1::RowChunk chunk;
      for (size_t r = begin; r < std::min(rows.size(), begin + kChunkRows); ++r) {
        v1::Row* row = chunk.add_rows();
        for (const std::string& v : rows[r]) row->add_values(v);
      }
      out.push_back(chunk.SerializeAsString());
    }
    return out;
  }();
  return wire;
}

double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

v1::BatchSpec ProtoSpec() {
  v1::BatchSpec spec;
  for (const std::string& f : dq::bench::kProductFields) spec.add_fields(f);
  for (const std::string& c : kChecks) spec.add_check_types(c);
  return spec;
}

void BM_Stream(benchmark::State& state) {
  const auto& wire = Wire();
  WorkerPool pool(static_cast<size_t>(state.range(0)));
  const v1::BatchSpec spec = ProtoSpec();
  uint64_t issues = 0, rows = 0;
  const double cpu_start = ThreadCpuSeconds();
  for (auto _ : state) {
    auto call = StreamValidation::Start(ReferenceData::Default(), spec, &pool);
    if (!call.ok()) {
      state.SkipWithError("bad spec");
      return;
    }
    v1::RowChunk chunks[2];
    v1::ValidateStreamResponse response;
    std::string bytes;
    issues = 0;
    int current = 0;
    chunks[current].ParseFromString(wire[0]);
    for (size_t k = 0; k < wire.size(); ++k) {
      if (!(*call)->Begin(chunks[current]).ok()) {
        state.SkipWithError("bad chunk");
        return;
      }
      if (k + 1 < wire.size()) chunks[1 - current].ParseFromString(wire[k + 1]);
      response.Clear();
      (*call)->End(response.mutable_issues());
      issues += static_cast<uint64_t>(response.issues().issues_size());
      response.SerializeToString(&bytes);
      current = 1 - current;
    }
    v1::ValidateStreamResponse stats;
    response.Clear();
    (*call)->Finish(response.mutable_issues(), stats.mutable_stats());
    issues += static_cast<uint64_t>(response.issues().issues_size());
    response.SerializeToString(&bytes);
    stats.SerializeToString(&bytes);
    rows = stats.stats().rows();
  }
  // The driving thread's own CPU time: a floor under the wall time whatever the load (it parses,
  // merges and encodes; the pool only evaluates).
  state.counters["driver_cpu_ms"] =
      (ThreadCpuSeconds() - cpu_start) * 1e3 / static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["issues"] = static_cast<double>(issues);
}
BENCHMARK(BM_Stream)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)
    ->UseRealTime()->MeasureProcessCPUTime();

void BM_Engine(benchmark::State& state) {
  const auto& rows = Rows();
  WorkerPool pool(static_cast<size_t>(state.range(0)));
  auto spec = BatchSpec::Make(dq::bench::kProductFields, kChecks, "");
  if (!spec.ok()) {
    state.SkipWithError("bad spec");
    return;
  }
  std::vector<Issue> issues;
  const double cpu_start = ThreadCpuSeconds();
  for (auto _ : state) {
    Session session(ReferenceData::Default(), *spec, &pool);
    issues.clear();
    for (size_t begin = 0; begin < rows.size(); begin += kChunkRows) {
      const size_t n = std::min(kChunkRows, rows.size() - begin);
      session.AddRows(
          n,
          [&rows, begin](size_t i, std::vector<std::string_view>& values) {
            values.assign(rows[begin + i].begin(), rows[begin + i].end());
          },
          issues);
    }
    session.Finish(issues);
  }
  state.counters["driver_cpu_ms"] =
      (ThreadCpuSeconds() - cpu_start) * 1e3 / static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows.size()));
  state.counters["rows"] = static_cast<double>(rows.size());
  state.counters["issues"] = static_cast<double>(issues.size());
}
BENCHMARK(BM_Engine)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)
    ->UseRealTime()->MeasureProcessCPUTime();

// The machine itself: fixed CPU-bound work (no memory traffic) split over N threads. On a quiet
// 2-core machine threads:2 takes half the time of threads:1; when it does not, other processes
// hold a core and the wall times above cannot show a speed-up either. Run with
// --benchmark_enable_random_interleaving so this is measured next to the others.
void BM_Machine(benchmark::State& state) {
  const size_t threads = static_cast<size_t>(state.range(0));
  constexpr uint64_t kSteps = 200'000'000;
  for (auto _ : state) {
    std::vector<std::thread> team;
    std::vector<uint64_t> sums(threads);
    for (size_t t = 0; t < threads; ++t) {
      team.emplace_back([&sums, t, threads] {
        uint64_t x = 88172645463325252ull + t, sum = 0;
        for (uint64_t i = 0; i < kSteps / threads; ++i) {  // xorshift64
          x ^= x << 13;
          x ^= x >> 7;
          x ^= x << 17;
          sum += x >> 60;
        }
        sums[t] = sum;
      });
    }
    for (std::thread& t : team) t.join();
    benchmark::DoNotOptimize(sums.data());
  }
}
BENCHMARK(BM_Machine)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)
    ->UseRealTime()->MeasureProcessCPUTime();

}  // namespace

BENCHMARK_MAIN();
