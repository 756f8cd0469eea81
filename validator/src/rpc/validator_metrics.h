// The validator's series, declared once (docs/deploy.md lists them). Each appears on /metrics at
// its first use.
#pragma once

#include "dq/common/metrics.h"

namespace dq::validator::rpc {

struct ValidatorMetrics {
  explicit ValidatorMetrics(Metrics& registry)
      : rows_validate(registry, "dq_validator_rows_total", "Rows evaluated", "rpc=\"Validate\""),
        rows_validate_stream(registry, "dq_validator_rows_total", "Rows evaluated",
                             "rpc=\"ValidateStream\"") {}
  // The process's, over Metrics::Global() (what /metrics shows).
  static ValidatorMetrics& Global() {
    static ValidatorMetrics* metrics = new ValidatorMetrics(Metrics::Global());  // never destroyed
    return *metrics;
  }

  // dq_validator_rows_total{rpc}: rows each RPC evaluated.
  LazyCounter rows_validate;         // rpc="Validate"
  LazyCounter rows_validate_stream;  // rpc="ValidateStream"
};

}  // namespace dq::validator::rpc
