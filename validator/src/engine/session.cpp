#include "session.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
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

// The open chunk, shared with the pool's threads. Three stages per slice: evaluate (any thread,
// any order), merge into the batch state (any thread, one at a time, strictly in slice order:
// whoever finishes the next slice in order merges it and any finished ones after it), emit the
// issues (the caller's thread, in order).
class Session::Chunk final : public WorkerPool::Job {
 public:
  explicit Chunk(Session& session) : session_(session) {}

  void Open(size_t rows, size_t slice_rows, RowReader read) {
    rows_ = rows;
    slice_rows_ = slice_rows;
    slices_ = (rows + slice_rows - 1) / slice_rows;
    read_ = std::move(read);
    next_.store(0);
    lanes_taken_.store(0);
    done_.assign(slices_, 0);
    merged_ = 0;
  }
  void Close() { read_ = nullptr; }
  // Leaves the remaining slices unclaimed (the chunk is being abandoned).
  void Cancel() { next_.store(slices_); }

  // A pool thread: takes a lane of its own, evaluates slices until none is left unclaimed.
  void Work() override {
    const size_t lane = lanes_taken_.fetch_add(1);
    if (lane >= session_.lanes_.size()) return;  // more helpers than lanes: nothing to do
    while (Claim(lane)) {
    }
  }

  // Claims the next unevaluated slice, evaluates it with `lane` and merges what is ready; false
  // when no slice was left.
  bool Claim(size_t lane) {
    const size_t k = next_.fetch_add(1);
    if (k >= slices_) return false;
    session_.EvaluateSlice(*session_.lanes_[lane], k);
    {
      std::lock_guard lock(mu_);
      done_[k] = 1;
    }
    TryMerge();
    return true;
  }

  // Merges evaluated slices in order, unless another thread is doing so. Whoever holds the merge
  // lock looks again after releasing it, so a slice finished meanwhile is never left behind.
  void TryMerge() {
    while (merge_mu_.try_lock()) {
      size_t k;
      while ((k = NextToMerge()) < slices_) {
        session_.MergeState(session_.slices_[k]);
        {
          std::lock_guard lock(mu_);
          merged_ = k + 1;
        }
        merged_cv_.notify_all();
      }
      merge_mu_.unlock();
      if (NextToMerge() == slices_) return;
    }
  }

  size_t TakeLane() { return lanes_taken_.fetch_add(1); }
  // Slices merged so far; waits while `emitted` are, when wait is set.
  size_t Merged(size_t emitted, bool wait) {
    std::unique_lock lock(mu_);
    if (wait) merged_cv_.wait(lock, [&] { return merged_ > emitted; });
    return merged_;
  }

  size_t rows() const { return rows_; }
  size_t slices() const { return slices_; }
  size_t slice_rows() const { return slice_rows_; }
  const RowReader& read() const { return read_; }

 private:
  // The slice to merge next if it is evaluated, else slices_.
  size_t NextToMerge() {
    std::lock_guard lock(mu_);
    return merged_ < slices_ && done_[merged_] ? merged_ : slices_;
  }

  Session& session_;
  size_t rows_ = 0;
  size_t slice_rows_ = 1;
  size_t slices_ = 0;
  RowReader read_;
  std::atomic<size_t> next_{0};         // next slice to claim
  std::atomic<size_t> lanes_taken_{0};  // lanes handed out in this chunk
  std::mutex merge_mu_;                 // held while merging (the batch state's owner)
  std::mutex mu_;
  std::condition_variable merged_cv_;
  std::vector<uint8_t> done_;  // per slice: evaluated; guarded by mu_
  size_t merged_ = 0;          // slices [0, merged_) are merged; guarded by mu_
};

Session::Session(const ReferenceData& ref, BatchSpec spec, WorkerPool* pool)
    : spec_(std::move(spec)), pool_(pool) {
  // The product check always looks at sku and price; unmapped counts as empty.
  if (spec_.checks & kProductCheck) {
    spec_.mapped.set(static_cast<size_t>(Field::kSku));
    spec_.mapped.set(static_cast<size_t>(Field::kPrice));
  }
  if (!spec_.today) spec_.today = TodayUtc();
  batch_.date_order = spec_.expiry_date_order;
  const size_t lanes = pool_ ? pool_->threads() : 1;
  for (size_t i = 0; i < lanes; ++i) lanes_.push_back(std::make_unique<Lane>(spec_, ref));
  chunk_ = std::make_unique<Chunk>(*this);
}

Session::~Session() {
  if (!chunk_open_ || !offered_) return;
  chunk_->Cancel();
  pool_->Withdraw(chunk_.get());
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
                       RowsOutput& out) {
  RowContext& ctx = lane.ctx;
  ctx.Begin(row, values);
  rules::NormalizeWhitespace(ctx);
  if (spec_.checks & kProductCheck) rules::CheckProduct(ctx);
  if (spec_.checks & kCustomerCheck) rules::CheckCustomer(ctx);
  if (spec_.checks & kShippingCheck) rules::CheckShipping(ctx);
  if (spec_.checks & kInventoryCheck) rules::CheckInventory(ctx);
  if (spec_.checks & kPriceCheck) rules::CheckPrice(ctx);
  if (spec_.platform != Platform::kNone) rules::CheckPlatform(ctx);
  ctx.Finish(out);
}

void Session::MergeState(RowsOutput& out) {
  // Key tables outgrow the caches: load the slot a few keys ahead (see FirstSeen::Prefetch).
  constexpr size_t kAhead = 8;
  const size_t n = out.keys.size();
  for (size_t j = 0; j < std::min(n, kAhead); ++j) {
    batch_.keys[static_cast<size_t>(out.keys[j].set)].Prefetch(out.keys[j].hash);
  }
  for (size_t j = 0; j < n; ++j) {
    if (j + kAhead < n) {
      const KeyUse& ahead = out.keys[j + kAhead];
      batch_.keys[static_cast<size_t>(ahead.set)].Prefetch(ahead.hash);
    }
    const KeyUse& k = out.keys[j];
    const auto first = batch_.keys[static_cast<size_t>(k.set)].InsertHash(k.hash, k.row);
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

void Session::AddRow(std::span<const std::string_view> values, std::vector<Issue>& out) {
  if (chunk_open_) std::abort();  // broken contract: a chunk is being evaluated
  Observe(values);
  ++rows_;
  row_flags_.push_back(0);
  Lane& lane = *lanes_[0];
  lane.ctx.set_date_order(batch_.date_order);
  Evaluate(lane, rows_, values, row_out_);
  MergeState(row_out_);
  Emit(row_out_, [&out](Issue&& issue) { out.push_back(std::move(issue)); });
}

void Session::BeginRows(size_t n, RowReader read) {
  if (chunk_open_) std::abort();  // broken contract: EndRows was not called
  const dates::DateOrder observed = ObserveRows(n, read);
  BeginRows(n, std::move(read), observed);
}

void Session::BeginRows(size_t n, RowReader read, dates::DateOrder observed) {
  if (chunk_open_) std::abort();  // broken contract: EndRows was not called
  if (ObservesDates()) batch_.date_order = iso_date::Combine(batch_.date_order, observed);
  for (auto& lane : lanes_) lane->ctx.set_date_order(batch_.date_order);
  const size_t threads = lanes_.size();
  const size_t slice_rows = threads == 1
                                ? std::max<size_t>(n, 1)
                                : std::max(kMinSliceRows, (n + threads * kSlicesPerThread - 1) /
                                                              (threads * kSlicesPerThread));
  chunk_->Open(n, slice_rows, std::move(read));
  if (slices_.size() < chunk_->slices()) slices_.resize(chunk_->slices());
  row_flags_.resize(rows_ + n, 0);
  chunk_open_ = true;
  offered_ = pool_ && chunk_->slices() > 1;
  if (offered_) pool_->Offer(chunk_.get());
}

void Session::EvaluateSlice(Lane& lane, size_t k) {
  const size_t begin = k * chunk_->slice_rows();
  const size_t end = std::min(chunk_->rows(), begin + chunk_->slice_rows());
  RowsOutput& out = slices_[k];
  out.Clear();
  const uint64_t first_row = rows_ + 1;  // read once: the caller's counters share its line
  const RowReader& read = chunk_->read();
  for (size_t i = begin; i < end; ++i) {
    read(i, lane.values);
    Evaluate(lane, first_row + i, lane.values, out);
  }
}

void Session::EndRows(const IssueSink& sink) {
  if (!chunk_open_) std::abort();  // broken contract: no BeginRows
  Chunk& chunk = *chunk_;
  const size_t lane = chunk.TakeLane();
  bool evaluating = lane < lanes_.size();
  size_t emitted = 0;
  while (emitted < chunk.slices()) {
    // Emit what is merged, in order; else evaluate a slice; else wait for the next merge.
    const size_t merged = chunk.Merged(emitted, /*wait=*/false);
    if (merged > emitted) {
      while (emitted < merged) Emit(slices_[emitted++], sink);
    } else if (evaluating && chunk.Claim(lane)) {
    } else {
      evaluating = false;
      chunk.TryMerge();
      chunk.Merged(emitted, /*wait=*/true);
    }
  }
  if (offered_) pool_->Withdraw(&chunk);
  chunk.Close();
  rows_ += chunk.rows();
  chunk_open_ = false;
  offered_ = false;
}

void Session::AddRows(size_t n, RowReader read, std::vector<Issue>& out) {
  BeginRows(n, std::move(read));
  EndRows([&out](Issue&& issue) { out.push_back(std::move(issue)); });
}

void Session::Finish(std::vector<Issue>& out) {
  const size_t first = out.size();
  // Price outliers (price check): Tukey fences per category or over the batch.
  batch_.prices.Find([&](const PriceOutliers::Outlier& o) {
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
  });
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
