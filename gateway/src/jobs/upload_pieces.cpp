#include "upload_pieces.h"

#include <algorithm>
#include <atomic>
#include <system_error>

#include "dq/common/available_cpus.h"
#include "piece_codec.h"

namespace dq::gateway {

namespace {

std::vector<std::string_view> Cut(std::string_view file, size_t piece_bytes) {
  piece_bytes = std::max<size_t>(1, piece_bytes);
  std::vector<std::string_view> pieces;
  for (size_t off = 0; off < file.size(); off += piece_bytes) {
    pieces.push_back(file.substr(off, piece_bytes));
  }
  return pieces;
}

}  // namespace

size_t DefaultCompressHelpers() {
  const size_t cores = AvailableCpus();
  return std::min<size_t>(2, cores > 1 ? cores - 1 : 0);
}

UploadPieces::UploadPieces(std::string_view file, size_t piece_bytes, size_t helpers)
    : UploadPieces(Cut(file, piece_bytes), helpers) {}

UploadPieces::UploadPieces(std::vector<std::string_view> pieces, size_t helpers)
    : raw_(std::move(pieces)) {
  compressed_.resize(raw_.size());
  ready_.assign(raw_.size(), 0);
  helpers = raw_.size() < 2 ? 0 : std::min(helpers, raw_.size() - 1);
  compressed_by_.assign(helpers + 1, 0);
  helpers_.reserve(helpers);
  for (size_t h = 0; h < helpers; ++h) {
    try {
      helpers_.emplace_back([this, h] { Help(h + 1); });
    } catch (const std::system_error&) {
      break;  // no thread to be had (a process or memory limit): the store compresses the rest
    }
  }
}

UploadPieces::~UploadPieces() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : helpers_) t.join();
}

bool UploadPieces::CompressNext(size_t who, bool within_lead) {
  size_t i;
  {
    std::lock_guard lock(mu_);
    if (next_ >= raw_.size() || (within_lead && next_ >= taken_ + kLead)) return false;
    i = next_++;
  }
  std::string piece = CompressPiece(raw_[i]);
  {
    std::lock_guard lock(mu_);
    compressed_[i] = std::move(piece);
    ready_[i] = 1;
    ++compressed_by_[who];
  }
  cv_.notify_all();
  return true;
}

void UploadPieces::Help(size_t helper) {
  while (true) {
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stop_ || next_ >= raw_.size() || next_ < taken_ + kLead; });
      if (stop_ || next_ >= raw_.size()) return;
    }
    // False when another thread took the last piece the lead allows: wait again.
    CompressNext(helper, /*within_lead=*/true);
  }
}

std::string UploadPieces::TakeCompressed(size_t i) {
  if (!raw_copies_.empty()) {
    raw_copies_[i].assign(raw_[i]);
    raw_copied_.fetch_add(1);
  }
  // Until piece i is ready, this thread compresses the next unclaimed piece rather than wait:
  // piece i itself when nobody has claimed it, else one after it (within the lead).
  while (true) {
    {
      std::lock_guard lock(mu_);
      if (ready_[i] != 0) break;
      if (next_ > i && (next_ >= raw_.size() || next_ >= taken_ + kLead)) break;
    }
    CompressNext(0, /*within_lead=*/false);
  }
  std::string out;
  {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return ready_[i] != 0; });
    out = std::move(compressed_[i]);
    compressed_[i] = std::string();
    ++taken_;
  }
  cv_.notify_all();  // a helper held back by the lead may go on
  return out;
}

Status UploadPieces::StoreEach(size_t writers,
                               const std::function<Status(size_t, std::string)>& put) {
  std::atomic<size_t> next{0};
  std::mutex error_mu;
  Status first = Status::Ok();  // under error_mu
  std::atomic<bool> failed{false};
  auto write = [&] {
    for (size_t i; !failed.load() && (i = next.fetch_add(1)) < raw_.size();) {
      Status s = put(i, TakeCompressed(i));
      if (s.ok()) continue;
      std::lock_guard lock(error_mu);
      if (first.ok()) first = std::move(s);
      failed.store(true);
    }
  };
  std::vector<std::thread> threads;
  const size_t extra = std::min(writers, raw_.size()) > 1 ? std::min(writers, raw_.size()) - 1 : 0;
  threads.reserve(extra);
  for (size_t t = 0; t < extra; ++t) {
    try {
      threads.emplace_back(write);
    } catch (const std::system_error&) {
      break;  // no thread to be had: the others (the caller at least) write the rest
    }
  }
  write();
  for (auto& t : threads) t.join();
  return first;
}

std::vector<std::string> UploadPieces::TakeRawCopies() {
  if (raw_copies_.empty() || raw_copied_.load() != raw_.size()) return {};
  return std::move(raw_copies_);
}

std::vector<size_t> UploadPieces::CompressedBy() const {
  std::lock_guard lock(mu_);
  return compressed_by_;
}

}  // namespace dq::gateway
