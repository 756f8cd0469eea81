// The unary Validate answer (v1::ValidateResponse) encoded straight from the engine's issues, as
// protobuf's wire bytes: the same bytes, in the same order, as serializing the message ToProto
// would build (stats, then each issue; tests compare them), without building it. An answer of
// `platform=all` carries thousands of issues; as messages each cost a message, four to six
// strings and their copies, built, serialized once and destroyed (about a quarter of the
// validator's time under load, issue 32); encoded here they cost one pass over the texts the
// engine already holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/types.h"

namespace dq::validator::rpc {

// A checked batch, ready to answer: its issues in the answer's order, its stats, and whether
// the caller asked for each issue's channels as Issue.channel_bits (BatchSpec.channel_bits).
struct BatchAnswer {
  std::vector<Issue> issues;
  Stats stats;
  bool channel_bits = false;
};

// Encodes a ValidateResponse: Size() bytes, written by WriteTo.
class AnswerWire {
 public:
  explicit AnswerWire(const BatchAnswer& answer);
  size_t Size() const { return size_; }
  // Writes exactly Size() bytes at out.
  void WriteTo(char* out) const;
  // The same bytes as a string (tests, tools).
  std::string ToString() const;

 private:
  const BatchAnswer& answer_;
  std::string stats_;                 // the Stats message's bytes (small: one per template)
  std::vector<uint32_t> issue_sizes_;  // each issue's bytes, without its tag and length
  size_t size_ = 0;
};

}  // namespace dq::validator::rpc
