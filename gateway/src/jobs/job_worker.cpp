#include "job_worker.h"

#include <unistd.h>

#include <span>

#include "../clients/grpc_validator_client.h"
#include "../http/json_util.h"
#include "dq/common/crypto.h"
#include "dq/common/json_escape.h"
#include "dq/common/log.h"
#include "dq/common/metrics.h"
#include "dq/common/time_format.h"
#include "ingest/mapping_inference.h"
#include "ingest/row_reader.h"
#include "ingest/row_writer.h"

namespace dq::gateway {
namespace {

using nlohmann::json;
using validator::v1::ValidateStreamRequest;
using validator::v1::ValidateStreamResponse;

std::string ConsumerName(int index) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  return std::string(host) + "-" + std::to_string(getpid()) + "-" + std::to_string(index);
}

// A chunk of rows, owned (the reader's views die with the next piece of the file). The cell
// strings are reused from chunk to chunk, so a steady stream allocates almost nothing.
struct RowBatch {
  std::vector<std::string> cells;        // row r's cells start at starts[r]
  std::vector<ingest::CellKind> kinds;   // parallel to cells (JSON formats only)
  std::vector<size_t> starts;
  size_t used = 0;                       // cells in use
  uint64_t first_row = 0;                // row number of the first row, once sent

  size_t rows() const { return starts.size(); }
  void Clear() {
    starts.clear();
    used = 0;
  }
  void Add(std::span<const std::string_view> row, std::span<const ingest::CellKind> row_kinds) {
    starts.push_back(used);
    for (size_t c = 0; c < row.size(); ++c) {
      if (used == cells.size()) {
        cells.emplace_back(row[c]);
      } else {
        cells[used].assign(row[c]);
      }
      if (kinds.size() <= used) kinds.resize(used + 1);
      kinds[used] = c < row_kinds.size() ? row_kinds[c] : ingest::CellKind::kString;
      ++used;
    }
  }
  size_t Width(size_t r) const { return (r + 1 < starts.size() ? starts[r + 1] : used) - starts[r]; }
};

// Streams chunks of rows to the validator and turns each answer into stored issues and cleaned
// output. One chunk is kept in flight: while the validator works on chunk k, the worker reads
// chunk k+1 from the file.
class JobRun {
 public:
  using Stream = grpc::ClientReaderWriter<ValidateStreamRequest, ValidateStreamResponse>;

  JobRun(const Job& job, JobStore& store, const WorkerOptions& options)
      : job_(job), store_(store), options_(options),
        writer_(job.format, job.dialect, job.header) {
    for (const auto& [field, column] : job.mapping) {
      size_t index = SIZE_MAX;
      for (size_t i = 0; i < job.header.size(); ++i) {
        if (job.header[i] == column) index = i;
      }
      field_names_.push_back(field);
      columns_.push_back(index);
    }
  }

  const std::vector<std::string>& field_names() const { return field_names_; }

  Status Send(Stream& stream, RowBatch& batch) {
    request_.Clear();
    auto* rows = request_.mutable_chunk()->mutable_rows();
    rows->Reserve(static_cast<int>(batch.rows()));
    for (size_t r = 0; r < batch.rows(); ++r) {
      auto* out = rows->Add();
      const size_t width = batch.Width(r);
      for (size_t c : columns_) {
        if (c < width) {
          out->add_values(batch.cells[batch.starts[r] + c]);
        } else {
          out->add_values();
        }
      }
    }
    batch.first_row = rows_sent_ + 1;
    rows_sent_ += batch.rows();
    if (!stream.Write(request_)) return Status(ErrorCode::kUnavailable, "validator stream closed");
    return Status::Ok();
  }

  // Reads the answer for `batch` (the oldest chunk in flight), stores its issues, and writes its
  // rows, fixes applied, to the cleaned output.
  Status Receive(Stream& stream, RowBatch& batch) {
    if (!stream.Read(&response_) || !response_.has_issues()) {
      return Status(ErrorCode::kUnavailable, "validator stream closed");
    }
    if (Status s = StoreIssues(response_.issues(), &batch); !s.ok()) return s;
    std::vector<std::string_view> cells;
    for (size_t r = 0; r < batch.rows(); ++r) {
      const size_t at = batch.starts[r];
      const size_t width = batch.Width(r);
      cells.assign(batch.cells.begin() + static_cast<ptrdiff_t>(at),
                   batch.cells.begin() + static_cast<ptrdiff_t>(at + width));
      writer_.WriteRow(cells, {batch.kinds.data() + at, width});
    }
    if (writer_.out().size() >= options_.cleaned_piece_bytes) {
      if (Status s = store_.AppendCleaned(job_, std::move(writer_.out())); !s.ok()) return s;
      writer_.out().clear();
    }
    return Status::Ok();
  }

  // Issues that came after the last chunk (batch-level checks). They carry no fixes.
  Status StoreTail(const validator::v1::IssueChunk& chunk) { return StoreIssues(chunk, nullptr); }

  Status FinishCleaned(std::string sheet_name) {
    writer_.set_sheet_name(std::move(sheet_name));  // XLSX: the cleaned sheet keeps its name
    writer_.Finish();
    if (writer_.out().empty()) return Status::Ok();
    return store_.AppendCleaned(job_, std::move(writer_.out()));
  }

  int64_t issues_stored() const { return issue_id_; }

 private:
  Status StoreIssues(const validator::v1::IssueChunk& chunk, RowBatch* batch) {
    std::vector<std::string> out;
    out.reserve(static_cast<size_t>(chunk.issues_size()));
    for (const auto& i : chunk.issues()) {
      std::string j;
      j.reserve(160 + i.message().size() + 2 * i.original_value().size());
      j += "{\"id\":";
      j += std::to_string(++issue_id_);
      j += ",\"issue_row\":";
      j += std::to_string(i.row());
      j += i.severity() == validator::v1::SEVERITY_ERROR ? ",\"severity\":\"error\""
                                                         : ",\"severity\":\"warning\"";
      j += ",\"field\":";
      AppendJsonString(j, i.field());
      j += ",\"code\":";
      AppendJsonString(j, i.code());
      j += ",\"message\":";
      AppendJsonString(j, i.message());
      j += ",\"original_value\":";
      AppendJsonString(j, i.original_value());
      j += ",\"fixed_value\":";
      if (i.has_fixed_value()) {
        AppendJsonString(j, i.fixed_value());
      } else {
        j += "null";
      }
      j += '}';
      out.push_back(std::move(j));
      if (batch != nullptr && i.has_fixed_value() && i.row() >= batch->first_row &&
          i.row() < batch->first_row + batch->rows()) {
        ApplyFix(*batch, static_cast<size_t>(i.row() - batch->first_row), i.field(),
                 i.fixed_value());
      }
    }
    return store_.AppendIssues(job_, out);
  }

  void ApplyFix(RowBatch& batch, size_t r, const std::string& field, const std::string& value) {
    for (size_t k = 0; k < field_names_.size(); ++k) {
      if (field_names_[k] != field || columns_[k] >= batch.Width(r)) continue;
      const size_t at = batch.starts[r] + columns_[k];
      batch.cells[at] = value;
      batch.kinds[at] = ingest::CellKind::kString;
    }
  }

  const Job& job_;
  JobStore& store_;
  const WorkerOptions& options_;
  ingest::RowWriter writer_;
  std::vector<std::string> field_names_;
  std::vector<size_t> columns_;  // per mapped field: column index in the header (SIZE_MAX: none)
  ValidateStreamRequest request_;
  ValidateStreamResponse response_;
  uint64_t rows_sent_ = 0;
  int64_t issue_id_ = 0;
};

}  // namespace

JobWorkers::JobWorkers(JobStore& store, JobQueue& queue, QuotaService& quota,
                       std::shared_ptr<grpc::Channel> validator, const Clock& clock,
                       WorkerOptions options)
    : store_(store),
      queue_(queue),
      quota_(quota),
      stub_(validator::v1::Validator::NewStub(std::move(validator))),
      clock_(clock),
      options_(options) {}

JobWorkers::~JobWorkers() { Stop(); }

void JobWorkers::Start() {
  if (Status s = queue_.EnsureGroup(); !s.ok()) {
    log::Warn("job queue group not created yet", {{"error", s.message()}});
  }
  for (int i = 0; i < options_.threads; ++i) {
    auto done = std::make_shared<std::atomic<bool>>(false);
    finished_.push_back(done);
    threads_.emplace_back([this, i, done] {
      Loop(i);
      done->store(true);
    });
  }
}

void JobWorkers::Stop(std::chrono::milliseconds grace) {
  stop_ = true;
  const auto deadline = std::chrono::steady_clock::now() + grace;
  for (size_t i = 0; i < threads_.size(); ++i) {
    while (!finished_[i]->load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!threads_[i].joinable()) continue;
    if (finished_[i]->load()) {
      threads_[i].join();
    } else {
      log::Warn("job worker still busy at shutdown; its job will be taken again");
      threads_[i].detach();
    }
  }
  threads_.clear();
  finished_.clear();
}

void JobWorkers::Loop(int index) {
  const std::string consumer = ConsumerName(index);
  auto last_reclaim = std::chrono::steady_clock::time_point();
  while (!stop_) {
    std::vector<QueueEntry> work;
    // Now and then, take over jobs whose worker went silent.
    if (std::chrono::steady_clock::now() - last_reclaim > options_.claim_idle / 4) {
      last_reclaim = std::chrono::steady_clock::now();
      auto stale = queue_.Reclaim(consumer, options_.claim_idle, 1);
      if (stale.ok()) work = std::move(*stale);
    }
    if (work.empty()) {
      auto next = queue_.Next(consumer, std::chrono::milliseconds(1000));
      if (!next.ok()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));  // Redis down: wait
        continue;
      }
      if (next->has_value()) work.push_back(std::move(**next));
    }
    for (const auto& entry : work) {
      if (!Run(entry, consumer)) std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    }
  }
}

bool JobWorkers::Run(const QueueEntry& entry, const std::string& consumer) {
  auto found = store_.Get(entry.account_id, entry.job_id);
  if (!found.ok()) return false;
  if (!found->has_value()) {  // expired or never stored: nothing to do
    queue_.Ack(entry.entry_id);
    return true;
  }
  Job job = std::move(**found);
  if (job.status == "done" || job.status == "failed") {  // finished; the ack was lost
    queue_.Ack(entry.entry_id);
    return true;
  }
  if (job.attempts >= options_.max_attempts) {
    Finish(job, entry, "failed",
           "The job could not be completed after " + std::to_string(job.attempts) + " attempts.");
    return true;
  }
  const auto start = std::chrono::steady_clock::now();
  Status s = Process(job, entry, consumer);
  if (s.ok()) {
    Metrics::Global()
        .Histogram("dq_job_seconds", "Time from a worker taking a job to its end")
        .Observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return true;
  }
  if (s.code() == ErrorCode::kUnavailable) {
    log::Warn("job postponed", {{"job_id", job.id}, {"error", s.message()}});
    job.status = "queued";
    store_.Save(job);  // best effort: if Redis is down the reclaim fixes the status later
    return false;
  }
  log::Error("job failed", {{"job_id", job.id}, {"error", s.message()}});
  Finish(job, entry, "failed", s.message());
  return true;
}

Status JobWorkers::Process(Job& job, const QueueEntry& entry, const std::string& consumer) {
  job.status = "processing";
  job.attempts += 1;
  job.started_at = FormatIso8601Millis(clock_.Now());
  if (Status s = store_.Save(job); !s.ok()) return s;
  if (Status s = store_.ResetResults(job); !s.ok()) return s;

  JobRun run(job, store_, options_);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + options_.stream_deadline);
  auto stream = stub_->ValidateStream(&ctx);
  ValidateStreamRequest spec_msg;
  auto* spec = spec_msg.mutable_spec();
  for (const auto& f : run.field_names()) spec->add_fields(f);
  size_t start = 0;
  while (start <= job.check_types.size()) {
    const size_t comma = job.check_types.find(',', start);
    spec->add_check_types(job.check_types.substr(start, comma == std::string::npos
                                                            ? std::string::npos
                                                            : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  spec->set_platform(job.platform);
  for (const auto& [field, column] : job.mapping) {  // "Weight (kg)": bare numbers are kg
    if (field == "weight") spec->set_weight_unit(ingest::WeightUnitOfColumn(column));
  }
  if (!stream->Write(spec_msg)) return FromGrpcStatus(stream->Finish());

  auto reader = ingest::MakeRowReader(job.format);
  RowBatch batches[2];
  int filling = 0;
  bool in_flight = false;  // batches[1 - filling] was sent and awaits its answer
  auto fail = [&](const Status& s) {
    ctx.TryCancel();
    if (s.code() != ErrorCode::kUnavailable) return s;
    Status grpc = FromGrpcStatus(stream->Finish());
    return grpc.ok() ? s : grpc;
  };
  // Sends the batch being filled, then collects the answer for the one sent before it.
  auto rotate = [&]() -> Status {
    if (Status s = run.Send(*stream, batches[filling]); !s.ok()) return s;
    if (in_flight) {
      if (Status s = run.Receive(*stream, batches[1 - filling]); !s.ok()) return s;
    }
    in_flight = true;
    filling = 1 - filling;
    batches[filling].Clear();
    return Status::Ok();
  };
  auto last_touch = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < job.file_chunks; ++i) {
    auto piece = store_.FileChunk(job, i);
    if (!piece.ok()) return fail(piece.status());
    reader->Feed(*piece);
    if (i + 1 == job.file_chunks) reader->Finish();
    while (true) {
      auto state = reader->Next();
      if (!state.ok()) {
        if (state.status().code() == ErrorCode::kEmptyFile) break;
        return fail(state.status());
      }
      if (*state != ingest::ReadState::kRow) break;
      batches[filling].Add(reader->row(), reader->cell_kinds());
      if (batches[filling].rows() >= options_.chunk_rows) {
        if (Status s = rotate(); !s.ok()) return fail(s);
      }
    }
    if (std::chrono::steady_clock::now() - last_touch > options_.heartbeat) {
      last_touch = std::chrono::steady_clock::now();
      queue_.Touch(consumer, entry.entry_id);
    }
  }
  if (batches[filling].rows() > 0) {
    if (Status s = rotate(); !s.ok()) return fail(s);
  }
  if (in_flight) {
    if (Status s = run.Receive(*stream, batches[1 - filling]); !s.ok()) return fail(s);
  }
  stream->WritesDone();
  ValidateStreamResponse resp;
  validator::v1::Stats stats;
  bool have_stats = false;
  while (stream->Read(&resp)) {
    if (resp.has_issues()) {
      if (Status s = run.StoreTail(resp.issues()); !s.ok()) return s;
    } else if (resp.has_stats()) {
      stats = resp.stats();
      have_stats = true;
    }
  }
  grpc::Status final_status = stream->Finish();
  if (!final_status.ok()) return FromGrpcStatus(final_status);
  if (!have_stats) return Status(ErrorCode::kUnavailable, "the validator sent no stats");
  if (Status s = run.FinishCleaned(reader->sheet_name()); !s.ok()) return s;

  job.rows_total = static_cast<int64_t>(stats.rows());
  job.rows_error = static_cast<int64_t>(stats.rows_error());
  job.rows_warning = static_cast<int64_t>(stats.rows_warning());
  job.rows_fixed = static_cast<int64_t>(stats.rows_fixed());
  job.errors = static_cast<int64_t>(stats.errors());
  job.warnings = static_cast<int64_t>(stats.warnings());
  job.fixes = static_cast<int64_t>(stats.fixes());
  job.health_score = stats.score();
  job.issues = run.issues_stored();
  Finish(job, entry, "done", "");
  return Status::Ok();
}

void JobWorkers::Finish(Job& job, const QueueEntry& entry, const std::string& status,
                        const std::string& error) {
  const auto now = clock_.Now();
  job.status = status;
  job.error = error;
  job.finished_at = FormatIso8601Millis(now);
  if (status == "failed") {
    QuotaReservation r{job.account_id, job.quota_month, job.rows_total};
    if (Status s = quota_.Release(r); !s.ok()) {
      log::Warn("quota release failed", {{"job_id", job.id}, {"error", s.message()}});
    }
  }
  if (Status s = store_.Save(job); !s.ok()) {
    log::Warn("job state not saved; it will be retried", {{"job_id", job.id}});
    return;  // not acknowledged: another attempt will finish it
  }
  store_.DeleteFile(job);
  json payload = {{"event", "job.complete"},
                  {"timestamp", FormatIso8601Millis(now)},
                  {"jobId", job.id},
                  {"filename", job.filename},
                  {"rows", job.rows_total},
                  {"stats",
                   {{"errors", job.errors},
                    {"warnings", job.warnings},
                    {"fixes", job.fixes},
                    {"score", job.health_score}}},
                  {"status", status}};
  // The delivery id is derived from the job, so a job finished twice (a worker died after
  // publishing but before acknowledging) produces the same id and receivers deduplicate it.
  const std::string delivery_id = job.id;
  if (Status s = queue_.PublishEvent(job.account_id, delivery_id, DumpJson(payload), UnixMillis(now));
      !s.ok()) {
    log::Warn("job.complete not published; the job will be finished again", {{"job_id", job.id}});
    return;
  }
  queue_.Ack(entry.entry_id);
  Metrics::Global()
      .Counter("dq_jobs_total", "Jobs finished by status", "status=\"" + status + "\"")
      .Inc();
  log::Info("job finished", {{"job_id", job.id}, {"status", status},
                             {"rows", std::to_string(job.rows_total)}});
}

}  // namespace dq::gateway
