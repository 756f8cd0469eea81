// Internal to dq_ingest: the byte window every RowReader parses from.
//
// Input is read in place from the caller's chunk ("borrowed") whenever no unfinished record is
// pending; only the tail of an unfinished record is copied into owned storage, when more input is
// needed. A record that stays unfinished is retried only once the window has doubled (or input
// has finished), so feeding a long record in tiny chunks costs linear, not quadratic, time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace dq::ingest::internal {

class InputBuffer {
 public:
  void Feed(std::string_view bytes) {
    if (bytes.empty()) return;
    const std::string_view pending = data_.substr(pos_);
    consumed_ += pos_;
    if (pending.empty()) {  // read the new chunk in place
      data_ = bytes;
      pos_ = 0;
      borrowed_ = true;
      return;
    }
    if (borrowed_) {
      own_.assign(pending);
    } else {
      own_.erase(0, pos_);
    }
    own_.append(bytes);
    data_ = own_;
    pos_ = 0;
    borrowed_ = false;
  }

  void Finish() { finished_ = true; }
  bool finished() const { return finished_; }

  // Unread bytes, starting at file offset offset().
  std::string_view available() const { return data_.substr(pos_); }
  uint64_t offset() const { return consumed_ + pos_; }

  void Consume(size_t n) {
    pos_ += n;
    retry_at_ = 0;
  }

  // The record at available() is unfinished and the caller is about to answer kNeedMore: keep
  // the tail in owned storage (the caller may release its chunk) and wait for more before the
  // next attempt. `limit` caps the wait so a record over the limit is seen promptly.
  void Hold(size_t limit) {
    const std::string_view pending = available();
    if (borrowed_) {
      consumed_ += pos_;
      own_.assign(pending);
      data_ = own_;
      pos_ = 0;
      borrowed_ = false;
    }
    retry_at_ = std::min(pending.size() * 2, limit + 1);
    if (retry_at_ == 0) retry_at_ = 1;
  }

  // False while a held record cannot have finished yet.
  bool WorthTrying() const { return finished_ || available().size() >= retry_at_; }

 private:
  std::string own_;
  std::string_view data_;
  size_t pos_ = 0;
  uint64_t consumed_ = 0;  // file offset of data_[0]
  size_t retry_at_ = 0;
  bool borrowed_ = false;
  bool finished_ = false;
};

}  // namespace dq::ingest::internal
