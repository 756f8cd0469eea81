#include "session.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "rules/rules.h"
#include "text.h"

namespace dq::validator {
namespace {

constexpr uint8_t kRowError = 1;
constexpr uint8_t kRowWarning = 2;
constexpr uint8_t kRowFixed = 4;

int32_t TodayUtc() {
  using namespace std::chrono;
  return static_cast<int32_t>(floor<days>(system_clock::now()).time_since_epoch().count());
}

// A price as it was written (plain decimal with `decimals` digits after the point).
std::string FormatPrice(double v, uint8_t decimals) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, decimals);
  return r.ec == std::errc() ? std::string(buf, r.ptr) : std::to_string(v);
}

std::string FormatNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.2f", v);
  return buf;
}

// Slices per thread in a chunk: enough that a thread that joins late (the caller, after reading
// the next chunk) still finds work, and that the last slice, merged after the others, is short.
constexpr size_t kSlicesPerThread = 8;
constexpr size_t kMinSliceRows = 32;

}  // namespace

// An open chunk, shared with the pool's threads. Three stages per slice: evaluate (any thread,
// any order), merge into the batch state (Session::TryMerge: any thread, one at a time,
// strictly in row order across chunks), emit the issues (the caller's thread, in order).
class Session::Chunk final : public WorkerPool::Job {
 public:
  explicit Chunk(Session& session) : session_(session) {}

  // Under the session's merge_mu_ (merging threads read what this sets).
  void Open(uint64_t first_row, size_t rows, size_t slice_rows, dates::DateOrder date_order,
            RowReader read, std::vector<RowKind> kinds) {
    std::lock_guard lock(mu_);
    kinds_ = std::move(kinds);
    first_row_ = first_row;
    rows_ = rows;
    slice_rows_ = slice_rows;
    slices_ = (rows + slice_rows - 1) / slice_rows;
    date_order_ = date_order;
    read_ = std::move(read);
    if (outputs_.size() < slices_) outputs_.resize(slices_);
    next_.store(0);
    done_.assign(slices_, 0);
    merged_ = 0;
    offered_ = false;
  }
  void Close() {
    read_ = nullptr;
    kinds_.clear();
  }
  // Leaves the remaining slices unclaimed (the chunk is being abandoned).
  void Cancel() { next_.store(slices_); }

  // A pool thread: takes a free lane, evaluates slices until none is left unclaimed.
  void Work() override {
    Lane* lane = session_.AcquireLane();
    if (lane == nullptr) return;  // more threads than lanes: nothing to do
    while (Claim(*lane)) {
    }
    session_.ReleaseLane(lane);
  }

  // Claims the next unevaluated slice, evaluates it with `lane` and merges what is ready; false
  // when no slice was left.
  bool Claim(Lane& lane) {
    const size_t k = next_.fetch_add(1);
    if (k >= slices_) return false;
    session_.EvaluateSlice(lane, *this, k);
    {
      std::lock_guard lock(mu_);
      done_[k] = 1;
    }
    session_.TryMerge();
    return true;
  }

  // Where the merge of this chunk stands: the slice to merge next, once it is evaluated.
  static constexpr size_t kWaiting = SIZE_MAX;      // the next slice is still being evaluated
  static constexpr size_t kAllMerged = SIZE_MAX - 1;
  size_t NextToMerge() {
    std::lock_guard lock(mu_);
    if (merged_ == slices_) return kAllMerged;
    return done_[merged_] ? merged_ : kWaiting;
  }
  // Under merge_mu_: slice k (NextToMerge) is merged.
  void SetMerged(size_t k) {
    {
      std::lock_guard lock(mu_);
      merged_ = k + 1;
    }
    merged_cv_.notify_all();
  }
  // Slices merged so far; waits while `emitted` are, when wait is set.
  size_t Merged(size_t emitted, bool wait) {
    std::unique_lock lock(mu_);
    if (wait) merged_cv_.wait(lock, [&] { return merged_ > emitted; });
    return merged_;
  }

  uint64_t first_row() const { return first_row_; }
  size_t rows() const { return rows_; }
  size_t slices() const { return slices_; }
  size_t slice_rows() const { return slice_rows_; }
  dates::DateOrder date_order() const { return date_order_; }
  const RowReader& read() const { return read_; }
  // Row i's kind (a product when the chunk has no kinds).
  RowKind kind(size_t i) const { return kinds_.empty() ? RowKind::kProduct : kinds_[i]; }
  RowsOutput& output(size_t k) { return outputs_[k]; }
  bool offered() const { return offered_; }
  void set_offered() { offered_ = true; }

 private:
  Session& session_;
  uint64_t first_row_ = 1;  // the session's number of the chunk's first row
  size_t rows_ = 0;
  size_t slice_rows_ = 1;
  size_t slices_ = 0;
  dates::DateOrder date_order_ = dates::DateOrder::kUnknown;  // what its rows are judged with
  RowReader read_;
  std::vector<RowKind> kinds_;       // empty: all products
  std::vector<RowsOutput> outputs_;  // per slice (capacity reused by the chunks that follow)
  bool offered_ = false;              // offered to the pool (the caller's thread only)
  std::atomic<size_t> next_{0};       // next slice to claim
  std::mutex mu_;
  std::condition_variable merged_cv_;
  std::vector<uint8_t> done_;  // per slice: evaluated; guarded by mu_
  size_t merged_ = 0;          // slices [0, merged_) are merged; guarded by mu_
};

Session::Session(const ReferenceData& ref, BatchSpec spec, WorkerPool* pool)
    : spec_(std::move(spec)), pool_(pool) {
  if (!spec_.today) spec_.today = TodayUtc();
  batch_.date_order = spec_.expiry_date_order;
  const size_t lanes = pool_ ? pool_->threads() : 1;
  for (size_t i = 0; i < lanes; ++i) {
    lanes_.push_back(std::make_unique<Lane>(spec_, ref));
    free_lanes_.push_back(lanes_.back().get());
  }
  for (auto& chunk : chunks_) chunk = std::make_unique<Chunk>(*this);
}

Session::~Session() {
  for (uint64_t c = ended_; c < begun_; ++c) {
    Chunk& chunk = *chunks_[c % kMaxOpenChunks];
    chunk.Cancel();
    if (chunk.offered()) pool_->Withdraw(&chunk);
  }
}

Session::Lane* Session::AcquireLane() {
  std::lock_guard lock(lanes_mu_);
  if (free_lanes_.empty()) return nullptr;
  Lane* lane = free_lanes_.back();
  free_lanes_.pop_back();
  return lane;
}

void Session::ReleaseLane(Lane* lane) {
  std::lock_guard lock(lanes_mu_);
  free_lanes_.push_back(lane);
}

bool Session::ObservesDates() const {
  return (spec_.checks & kInventoryCheck) &&
         spec_.mapped.test(static_cast<size_t>(Field::kExpiryDate));
}

namespace {

// What one row shows of expiry_date's day/month order.
dates::DateOrder OrderShownByRow(const BatchSpec& spec, std::span<const std::string_view> values) {
  dates::DateOrder shown = dates::DateOrder::kUnknown;
  for (size_t i = 0; i < spec.columns.size() && i < values.size(); ++i) {
    if (spec.columns[i] == Field::kExpiryDate) {
      shown = iso_date::Combine(shown, iso_date::OrderShownBy(text::Trim(values[i])));
    }
  }
  return shown;
}

}  // namespace

void Session::Observe(std::span<const std::string_view> values) {
  if (!ObservesDates()) return;
  batch_.date_order = iso_date::Combine(batch_.date_order, OrderShownByRow(spec_, values));
}

dates::DateOrder Session::ObserveRows(size_t n, const ValueReader& value) const {
  dates::DateOrder shown = dates::DateOrder::kUnknown;
  if (!ObservesDates()) return shown;
  std::vector<size_t> columns;  // where expiry_date is mapped (one column, as a rule)
  for (size_t k = 0; k < spec_.columns.size(); ++k) {
    if (spec_.columns[k] == Field::kExpiryDate) columns.push_back(k);
  }
  for (size_t i = 0; i < n && shown != dates::DateOrder::kConflicting; ++i) {
    for (size_t k : columns) {
      shown = iso_date::Combine(shown, iso_date::OrderShownBy(text::Trim(value(i, k))));
    }
  }
  return shown;
}

dates::DateOrder Session::ObserveRows(size_t n, const RowReader& read) const {
  // Combine is a join (unknown below day-first and month-first, conflicting above both), so
  // rows can be combined in any grouping: a chunk's rows first, then the chunk into the column.
  dates::DateOrder shown = dates::DateOrder::kUnknown;
  if (!ObservesDates()) return shown;
  thread_local std::vector<std::string_view> values;
  for (size_t i = 0; i < n && shown != dates::DateOrder::kConflicting; ++i) {
    read(i, values);
    shown = iso_date::Combine(shown, OrderShownByRow(spec_, values));
  }
  return shown;
}

void Session::Evaluate(Lane& lane, uint64_t row, std::span<const std::string_view> values,
                       RowKind kind, RowsOutput& out) {
  if (kind == RowKind::kImage) return;  // folded into its product's images: never in error
  RowContext& ctx = lane.ctx;
  ctx.Begin(row, values, kind);
  rules::NormalizeWhitespace(ctx);
  if (spec_.checks & kProductCheck) rules::CheckProduct(ctx);
  if (spec_.checks & kCustomerCheck) rules::CheckCustomer(ctx);
  if (spec_.checks & kShippingCheck) rules::CheckShipping(ctx);
  if (spec_.checks & kInventoryCheck) rules::CheckInventory(ctx);
  if (spec_.checks & kPriceCheck) rules::CheckPrice(ctx);
  if (spec_.platform != Platform::kNone) rules::CheckPlatform(ctx);
  ctx.Finish(out);
}

bool Session::Mergeable() {
  Chunk* chunk = merging_.load(std::memory_order_acquire);
  // A chunk wholly merged is passed over by the next merging thread (to the chunk after it).
  return chunk != nullptr && chunk->NextToMerge() != Chunk::kWaiting;
}

void Session::TryMerge() {
  while (merge_mu_.try_lock()) {
    while (Chunk* chunk = merging_.load(std::memory_order_relaxed)) {
      const size_t k = chunk->NextToMerge();
      if (k == Chunk::kWaiting) break;
      if (k == Chunk::kAllMerged) {
        merging_.store(next_merge_, std::memory_order_release);  // on to the next open chunk
        next_merge_ = nullptr;
        continue;
      }
      MergeState(chunk->output(k));
      chunk->SetMerged(k);
    }
    merge_mu_.unlock();
    if (!Mergeable()) return;
  }
}

void Session::MergeState(RowsOutput& out) {
  // Key tables outgrow the caches: load the slot a few keys ahead (see FirstSeen::Prefetch).
  constexpr size_t kAhead = 8;
  const size_t n = out.keys.size();
  auto prefetch = [this](const KeyUse& k) {
    if (k.set == KeySet::kGtin) {
      batch_.gtins.Prefetch(k.hash);
    } else {
      batch_.keys[static_cast<size_t>(k.set)].Prefetch(k.hash);
    }
  };
  for (size_t j = 0; j < std::min(n, kAhead); ++j) prefetch(out.keys[j]);
  for (size_t j = 0; j < n; ++j) {
    if (j + kAhead < n) prefetch(out.keys[j + kAhead]);
    const KeyUse& k = out.keys[j];
    const auto first = k.set == KeySet::kGtin
                           ? batch_.gtins.Insert(k.hash, k.row, k.owner)
                           : batch_.keys[static_cast<size_t>(k.set)].InsertHash(k.hash, k.row);
    if (k.issue == KeyUse::kNoIssue) continue;
    Issue& issue = out.issues[k.issue];
    if (first) {
      issue.message = k.prefix;  // (not prefix + to_string(): GCC 12 warns, -Wrestrict)
      issue.message += std::to_string(*first);
    } else {
      issue.row = 0;  // not a duplicate after all: dropped by Emit
    }
  }
  const std::string_view text = out.text;
  for (const PriceUse& p : out.prices) {
    batch_.prices.Add(p.row, p.price, p.decimals, text.substr(p.category_begin, p.category_size),
                      p.category_hash);
  }
}

void Session::Emit(RowsOutput& out, const IssueSink& sink) {
  for (Issue& issue : out.issues) {
    if (issue.row == 0) continue;
    Count(issue);
    sink(std::move(issue));
  }
  out.Clear();
}

void Session::AddRow(std::span<const std::string_view> values, std::vector<Issue>& out,
                     RowKind kind) {
  if (begun_ != ended_) std::abort();  // broken contract: a chunk is being evaluated
  Observe(values);
  ++rows_;
  rows_begun_ = rows_;
  row_flags_.push_back(0);
  Lane& lane = *lanes_[0];
  lane.ctx.set_date_order(batch_.date_order);
  Evaluate(lane, rows_, values, kind, row_out_);
  MergeState(row_out_);
  Emit(row_out_, [&out](Issue&& issue) { out.push_back(std::move(issue)); });
}

void Session::BeginRows(size_t n, RowReader read, std::vector<RowKind> kinds) {
  if (begun_ - ended_ >= kMaxOpenChunks) std::abort();  // broken contract: EndRows first
  const dates::DateOrder observed = ObserveRows(n, read);
  BeginRows(n, std::move(read), observed, std::move(kinds));
}

void Session::BeginRows(size_t n, RowReader read, dates::DateOrder observed,
                        std::vector<RowKind> kinds) {
  if (begun_ - ended_ >= kMaxOpenChunks) std::abort();  // broken contract: EndRows first
  if (!kinds.empty() && kinds.size() != n) std::abort();  // broken contract: one kind a row
  // A chunk is judged with what the rows up to its own end show; an open chunk before it keeps
  // what it was begun with.
  if (ObservesDates()) batch_.date_order = iso_date::Combine(batch_.date_order, observed);
  const size_t threads = lanes_.size();
  const size_t slice_rows = threads == 1
                                ? std::max<size_t>(n, 1)
                                : std::max(kMinSliceRows, (n + threads * kSlicesPerThread - 1) /
                                                              (threads * kSlicesPerThread));
  Chunk& chunk = *chunks_[begun_ % kMaxOpenChunks];
  {
    // Its slot last held a chunk that is ended, so wholly merged; merging threads may still
    // point at it until they pass it, which is done here first.
    std::lock_guard lock(merge_mu_);
    Chunk* head = merging_.load(std::memory_order_relaxed);
    if (head != nullptr && head->NextToMerge() == Chunk::kAllMerged) {
      head = next_merge_;
      next_merge_ = nullptr;
    }
    if (head != nullptr && head->NextToMerge() == Chunk::kAllMerged) head = nullptr;
    chunk.Open(rows_begun_ + 1, n, slice_rows, batch_.date_order, std::move(read),
               std::move(kinds));
    if (head == nullptr) {
      head = &chunk;
    } else {
      next_merge_ = &chunk;  // head is the other open chunk
    }
    merging_.store(head, std::memory_order_release);
  }
  ++begun_;
  rows_begun_ += n;
  row_flags_.resize(rows_begun_, 0);
  if (pool_ && chunk.slices() > 1) {
    chunk.set_offered();
    pool_->Offer(&chunk);
  }
  TryMerge();  // a slice of the other open chunk finished while the merge was held here
}

void Session::EvaluateSlice(Lane& lane, Chunk& chunk, size_t k) {
  const size_t begin = k * chunk.slice_rows();
  const size_t end = std::min(chunk.rows(), begin + chunk.slice_rows());
  RowsOutput& out = chunk.output(k);
  out.Clear();
  lane.ctx.set_date_order(chunk.date_order());
  const uint64_t first_row = chunk.first_row();
  const RowReader& read = chunk.read();
  for (size_t i = begin; i < end; ++i) {
    const RowKind kind = chunk.kind(i);
    if (kind == RowKind::kImage) continue;  // nothing to read: it gets no issue
    read(i, lane.values);
    Evaluate(lane, first_row + i, lane.values, kind, out);
  }
}

void Session::EndRows(const IssueSink& sink) {
  if (begun_ == ended_) std::abort();  // broken contract: no BeginRows
  Chunk& chunk = *chunks_[ended_ % kMaxOpenChunks];
  // The chunk begun after it, if any: the caller helps with it while it waits for this one.
  Chunk* ahead = begun_ - ended_ > 1 ? chunks_[(ended_ + 1) % kMaxOpenChunks].get() : nullptr;
  Lane* lane = AcquireLane();
  size_t emitted = 0;
  while (emitted < chunk.slices()) {
    // Emit what is merged, in order; else evaluate a slice (of this chunk, then of the next);
    // else wait for the next merge.
    const size_t merged = chunk.Merged(emitted, /*wait=*/false);
    if (merged > emitted) {
      while (emitted < merged) Emit(chunk.output(emitted++), sink);
    } else if (lane != nullptr && (chunk.Claim(*lane) || (ahead && ahead->Claim(*lane)))) {
    } else {
      TryMerge();
      chunk.Merged(emitted, /*wait=*/true);
    }
  }
  if (lane != nullptr) ReleaseLane(lane);
  if (chunk.offered()) pool_->Withdraw(&chunk);
  chunk.Close();
  rows_ += chunk.rows();
  ++ended_;
}

void Session::AddRows(size_t n, RowReader read, std::vector<Issue>& out,
                      std::vector<RowKind> kinds) {
  BeginRows(n, std::move(read), std::move(kinds));
  EndRows([&out](Issue&& issue) { out.push_back(std::move(issue)); });
}

void Session::Finish(std::vector<Issue>& out) {
  const size_t first = out.size();
  // Price outliers (price check): Tukey fences per category or over the batch, worked out on
  // the pool's threads for a large batch.
  auto emit = [&](const PriceOutliers::Outlier& o) {
    Issue issue;
    issue.row = o.row;
    issue.code = o.high ? IssueCode::PRICE_OUTLIER_HIGH : IssueCode::PRICE_OUTLIER_LOW;
    issue.field = Field::kPrice;
    issue.original = FormatPrice(o.price, o.decimals);
    std::string scope = o.category.empty() ? std::string("the batch")
                                           : "category '" + std::string(o.category) + "'";
    issue.message = "Price " + issue.original + " is " + (o.high ? "above" : "below") + " the " +
                    (o.high ? "upper" : "lower") + " fence " +
                    FormatNumber(o.high ? o.fences.high : o.fences.low) + " of " + scope + " (Q1 " +
                    FormatNumber(o.fences.q1) + ", Q3 " + FormatNumber(o.fences.q3) +
                    ", fences at 1.5 x IQR)";
    out.push_back(std::move(issue));
  };
  batch_.prices.Find(emit, pool_);
  for (size_t i = first; i < out.size(); ++i) Count(out[i]);
}

void Session::Count(const Issue& issue) {
  uint8_t& flags = row_flags_[issue.row - 1];
  if (issue.severity() == Severity::kError) {
    ++errors_;
    flags |= kRowError;
  } else {
    ++warnings_;
    flags |= kRowWarning;
  }
  if (issue.fixed) {
    ++fixes_;
    flags |= kRowFixed;
  }
}

Stats Session::stats() const {
  Stats s;
  s.rows = rows_;
  s.errors = errors_;
  s.warnings = warnings_;
  s.fixes = fixes_;
  for (uint8_t f : row_flags_) {
    if (f & kRowError) {
      ++s.rows_error;
    } else if (f & kRowWarning) {
      ++s.rows_warning;
    }
    if (f & kRowFixed) ++s.rows_fixed;
  }
  s.score = HealthScore(s.rows, s.rows_error, s.rows_warning);
  return s;
}

}  // namespace dq::validator
