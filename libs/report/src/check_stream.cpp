#include "dq/report/check_stream.h"

#include <algorithm>
#include <vector>

#include "dq/ingest/row_reader.h"
#include "dq/report/stage_timer.h"

namespace dq::report {

Status StreamCheck(const StreamInput& input, JobOutput& output, ValidatorStream& stream,
                   const StreamOptions& options, const AfterAnswer& after_answer,
                   JobStages& stages, validator::v1::Stats* stats) {
  if (Status s = stream.Start(output.Spec()); !s.ok()) return s;
  auto reader = ingest::MakeRowReader(input.check.format);
  // A ring of batches: up to `in_flight` sent and unanswered, plus the one being filled. The
  // validator works on the next chunks while this thread reads, applies and stores.
  const size_t in_flight = std::max<size_t>(1, options.chunks_in_flight);
  std::vector<RowBatch> ring(in_flight + 1);
  validator::v1::RowChunk chunk;
  validator::v1::IssueChunk answer;
  uint64_t sent = 0;      // chunks sent
  uint64_t answered = 0;  // chunks whose answer was applied
  RowBatch* filling = &ring[0];
  // The answer for the oldest chunk in flight, applied; then the caller's turn (a job stores
  // once enough output is pending, so a write carries many chunks' output, not one chunk's).
  auto collect = [&](bool last) -> Status {
    {
      StageTimer t(stages.wait);
      if (Status s = stream.Receive(&answer); !s.ok()) return s;
    }
    RowBatch& batch = ring[answered++ % ring.size()];
    {
      StageTimer t(stages.apply);
      output.Apply(answer, batch);
    }
    return after_answer(last);
  };
  auto send = [&]() -> Status {
    {
      StageTimer t(stages.encode);
      output.Seal(*filling, &chunk);
    }
    {
      StageTimer t(stages.send);
      if (Status s = stream.Send(chunk); !s.ok()) return s;
    }
    ++sent;
    if (sent - answered >= in_flight) {
      if (Status s = collect(/*last=*/false); !s.ok()) return s;
    }
    filling = &ring[sent % ring.size()];
    filling->Clear();
    return Status::Ok();
  };
  const int64_t pieces = input.check.file_pieces;
  // With max_rows, reading stops after that many rows (the rest of the file is not checked).
  const uint64_t max_rows = input.max_rows > 0 ? static_cast<uint64_t>(input.max_rows) : UINT64_MAX;
  uint64_t rows_read = 0;
  bool whole_file = false;  // read to its end (not cut by max_rows)
  for (int64_t i = 0; i < pieces && rows_read < max_rows; ++i) {
    auto piece = [&] {
      StageTimer t(stages.fetch);
      return input.piece(i);
    }();
    if (!piece.ok()) return piece.status();
    StageTimer t(stages.read);
    reader->Feed(*piece);
    if (i + 1 == pieces) reader->Finish();
    while (true) {
      auto state = reader->Next();
      if (!state.ok()) {
        if (state.status().code() == ErrorCode::kEmptyFile) break;
        return state.status();
      }
      if (*state != ingest::ReadState::kRow) {
        whole_file = i + 1 == pieces;
        break;
      }
      if (rows_read == max_rows) break;
      ++rows_read;
      output.AddRow(reader->row(), *filling, &chunk, reader->fields_read());
      // A row whose kind may still change is not sent yet (at most RowModel::kMaxPending rows
      // more), so that chunk sizes never change a verdict.
      if (filling->rows() >= options.chunk_rows && !output.KindPending()) {
        t.Pause();
        if (Status s = send(); !s.ok()) return s;
        t.Resume();
      }
    }
  }
  // The rows after a cut are unknown: a row still pending stays a parent.
  if (whole_file) output.EndRows(*filling, &chunk);
  if (filling->rows() > 0) {
    if (Status s = send(); !s.ok()) return s;
  }
  while (answered < sent) {
    // The last answer's output goes with the final write (Finish).
    if (Status s = collect(/*last=*/answered + 1 == sent); !s.ok()) return s;
  }
  StageTimer t_tail(stages.tail);
  if (Status s = stream.WritesDone(); !s.ok()) return s;
  validator::v1::ValidateStreamResponse tail;
  bool have_stats = false;
  while (true) {
    auto more = stream.Tail(&tail);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (tail.has_issues()) {
      output.ApplyTail(tail.issues());
    } else if (tail.has_stats()) {
      // Every row read from the file must have been checked: fewer means rows were lost on
      // the way, and a job that says `done` must not hide that.
      if (tail.stats().rows() != static_cast<uint64_t>(input.expected_rows)) {
        return Status(ErrorCode::kInternal,
                      "The validator checked " + std::to_string(tail.stats().rows()) +
                          " of the file's " + std::to_string(input.expected_rows) +
                          " rows; the job was stopped.");
      }
      *stats = tail.stats();
      output.AdjustStats(stats);  // the job's own ROW_FIELD_COUNT errors
      have_stats = true;
    }
  }
  if (!have_stats) return Status(ErrorCode::kUnavailable, "the validator sent no stats");
  return NameTail(input, output);
}

Status NameTail(const StreamInput& input, JobOutput& output) {
  const std::vector<uint64_t> rows = output.TailRows();
  if (!rows.empty() && !output.NameTailFromKept()) {
    // The batch-level issues may be about any row: the file is read again for their rows'
    // names, only when there are such issues.
    auto reader = ingest::MakeRowReader(input.check.format);
    auto model = output.NewRowModel();
    uint64_t row = 0;
    size_t next = 0;
    for (int64_t i = 0; i < input.check.file_pieces && next < rows.size(); ++i) {
      auto piece = input.piece(i);
      if (!piece.ok()) return piece.status();
      reader->Feed(*piece);
      if (i + 1 == input.check.file_pieces) reader->Finish();
      while (next < rows.size()) {
        auto state = reader->Next();
        if (!state.ok() || *state != ingest::ReadState::kRow) break;  // it read whole before
        ++row;
        model->Next(reader->row());
        if (row == rows[next]) {
          output.NameTailRow(row, {model->sku(), model->item_id(), model->title()});
          ++next;
        }
      }
    }
  }
  output.FlushTail();
  return Status::Ok();
}

}  // namespace dq::report
