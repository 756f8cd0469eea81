// The job summary (docs/api.md, "summary"), counted as the issues stream past, so reading
// it costs no re-scan and its counts stay exact however many issues are stored:
//   by_field: [{field, errors, warnings, fixes}]            sorted by field
//   by_code:  [{code, field, severity, count, examples}]    errors first, then most frequent
// with at most kMaxExamples examples {row, original_value} per code, the first ones found.
// Pure; not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "dq/validator/v1/validator.pb.h"

namespace dq::report {

class JobSummaryBuilder {
 public:
  static constexpr size_t kMaxExamples = 5;
  static constexpr size_t kMaxExampleBytes = 256;  // longer failing values are cut

  void Add(const validator::v1::Issue& issue);
  // {"by_field":[...],"by_code":[...]}: the part of the summary stored with the job.
  std::string Json() const;

 private:
  struct FieldCounts {
    int64_t errors = 0, warnings = 0, fixes = 0;
  };
  struct CodeCounts {
    int64_t count = 0;
    std::vector<std::pair<uint64_t, std::string>> examples;
  };
  std::map<std::string, FieldCounts> fields_;
  std::map<std::tuple<std::string, std::string, std::string>, CodeCounts> codes_;
};

}  // namespace dq::report
