// Building an issue's message in one allocation. A platform=all answer carries several issues a
// row, each with a message of a few pieces; `a + b + c` allocates at each step, Cat() once.
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "types.h"

namespace dq::validator::rules {

// The pieces one after another, in a string reserved once.
template <typename... Pieces>
std::string Cat(const Pieces&... pieces) {
  const std::string_view parts[] = {std::string_view(pieces)...};
  size_t size = 0;
  for (std::string_view p : parts) size += p.size();
  std::string out;
  out.reserve(size);
  for (std::string_view p : parts) out.append(p);
  return out;
}

// A number's decimal digits (std::to_string's), as a piece for Cat.
class Num {
 public:
  explicit Num(uint64_t v) {
    size_ = static_cast<size_t>(std::to_chars(buf_, buf_ + sizeof buf_, v).ptr - buf_);
  }
  operator std::string_view() const { return {buf_, size_}; }

 private:
  char buf_[20];
  size_t size_ = 0;
};

// Every platform's name once, with ", " between them and " and " before the last: the longest
// text ChannelNamesText writes.
constexpr size_t LongestChannelNames() {
  size_t n = 5 * kPlatforms.size();
  for (std::string_view p : kPlatforms) n += p.size();
  return n;
}
inline constexpr size_t kLongestChannelNames = LongestChannelNames();

// "search_merchant", "search_merchant and social_catalog", "a, b and c": the names of the
// platforms in mask, in the order the caller listed them (ChannelNames' text), without
// allocating.
class ChannelNamesText {
 public:
  ChannelNamesText(const BatchSpec& spec, ChannelMask mask);
  operator std::string_view() const { return {buf_.data(), size_}; }

 private:
  void Append(std::string_view s) {
    std::memcpy(buf_.data() + size_, s.data(), s.size());
    size_ += s.size();
  }
  std::array<char, kLongestChannelNames> buf_;
  size_t size_ = 0;
};

}  // namespace dq::validator::rules
