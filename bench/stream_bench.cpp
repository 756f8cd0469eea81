// One streamed job through the validator on 1, 2, ... evaluation threads (issue 15: "all cores
// for one job"), without the network. Wall-clock time, so run it on a quiet machine and note the
// load average.
//
//   BM_Stream/threads:N  What ValidateStream does for a job (RunValidateStream, stream_call.h):
//                        per 4,096-row chunk, parse the request from its wire bytes, evaluate,
//                        build and serialize the answer; then outliers and stats. With N > 1 one
//                        thread reads and parses while another evaluates with the pool, as in
//                        the service. DQ_VALIDATOR_EVAL_THREADS=N.
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
#include "rpc/stream_call.h"

namespace dq::bench {
// engine_data.cpp
using Rows = std::vector<std::vector<std::string>>;
extern const std::vector<std::string> kProductFields;
Rows GenerateProducts(size_t n, uint64_t seed);
Rows ReadCsv(const std::string& path);
}  // namespace dq::bench

namespace {

using namespace dq::validator;
using dq::validator::rpc::RunValidateStream;
using dq::validator::rpc::StreamIo;

constexpr size_t kChunkRows = 4096;  // the gateway's JobRunnerOptions::chunk_rows
const std::vector<std::string> kChecks = {"product", "price", "inventory", "shipping"};

const dq::bench::Rows& Rows() {
  static const dq::bench::Rows rows = [] {
    const char* path = std::getenv("DQ_BENCH_PRODUCTS");
    return path && *path ? dq::bench::ReadCsv(path) : dq::bench::GenerateProducts(200'000, 1);
  }();
  return rows;
}

// The chunks as the gateway sends them: serialized ValidateStreamRequests, rows packed
// (validator.proto's PackedRows, as JobOutput::ToChunk builds them). With DQ_BENCH_ROWS=repeated,
// one Row message per row instead, the form older gateways sent.
const std::vector<std::string>& Wire() {
  static const std::vector<std::string> wire = [] {
    const char* form = std::getenv("DQ_BENCH_ROWS");
    const bool repeated = form != nullptr && std::string_view(form) == "repeated";
    std::vector<std::string> out;
    const auto& rows = Rows();
    for (size_t begin = 0; begin < rows.size(); begin += kChunkRows) {
      v1::ValidateStreamRequest request;
      v1::PackedRows* packed = request.mutable_chunk()->mutable_packed();
      packed->set_width(static_cast<uint32_t>(dq::bench::kProductFields.size()));
      packed->set_rows(static_cast<uint32_t>(std::min(rows.size(), begin + kChunkRows) - begin));
      for (size_t r = begin; r < std::min(rows.size(), begin + kChunkRows); ++r) {
        v1::Row* row = repeated ? request.mutable_chunk()->add_rows() : nullptr;
        for (const std::string& v : rows[r]) {
          if (repeated) {
            row->add_values(v);
          } else {
            packed->mutable_data()->append(v);
            packed->add_lengths(static_cast<uint32_t>(v.size()));
          }
        }
      }
      if (repeated) request.mutable_chunk()->clear_packed();
      out.push_back(request.SerializeAsString());
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

// The call's stream as gRPC hands it over: Read() parses the next message from its wire bytes
// on the reading thread, Write() serializes the answer. Every chunk is available at once (a
// client with many chunks in flight).
class WireStream final : public StreamIo {
 public:
  WireStream(const std::string& spec, const std::vector<std::string>& chunks)
      : spec_(spec), chunks_(chunks) {}
  bool Read(v1::ValidateStreamRequest* msg) override {
    if (next_ > chunks_.size()) return false;
    const std::string& bytes = next_ == 0 ? spec_ : chunks_[next_ - 1];
    ++next_;
    return msg->ParseFromString(bytes);
  }
  bool Write(const v1::ValidateStreamResponse& msg, grpc::WriteOptions) override {
    msg.SerializeToString(&out_);
    if (msg.has_issues()) issues_ += static_cast<uint64_t>(msg.issues().issues_size());
    return true;
  }
  void SendInitialMetadata() override {}
  bool NextMessageSize(uint32_t* sz) override {
    *sz = 1 << 26;
    return true;
  }
  uint64_t issues() const { return issues_; }

 private:
  const std::string& spec_;
  const std::vector<std::string>& chunks_;
  size_t next_ = 0;
  std::string out_;
  uint64_t issues_ = 0;
};

void BM_Stream(benchmark::State& state) {
  const auto& wire = Wire();
  WorkerPool pool(static_cast<size_t>(state.range(0)));
  v1::ValidateStreamRequest first;
  *first.mutable_spec() = ProtoSpec();
  const std::string spec = first.SerializeAsString();
  uint64_t issues = 0, rows = 0;
  const double cpu_start = ThreadCpuSeconds();
  for (auto _ : state) {
    WireStream stream(spec, wire);
    const grpc::Status status = RunValidateStream(
        ReferenceData::Default(), &pool, &stream, [] { return false; }, &rows);
    if (!status.ok()) {
      state.SkipWithError(status.error_message().c_str());
      return;
    }
    issues = stream.issues();
  }
  // The call's own thread's CPU time (with 2+ threads it reads and parses; another thread of the
  // call evaluates and answers with the pool).
  state.counters["driver_cpu_ms"] =
      (ThreadCpuSeconds() - cpu_start) * 1e3 / static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["issues"] = static_cast<double>(issues);
}
BENCHMARK(BM_Stream)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

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
BENCHMARK(BM_Engine)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

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
BENCHMARK(BM_Machine)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

}  // namespace

BENCHMARK_MAIN();
