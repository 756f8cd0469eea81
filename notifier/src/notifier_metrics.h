// The notifier app's own series, declared once (docs/notifier.md lists them; the dispatcher's
// are webhook::DispatcherMetrics). Each appears on /metrics at its first use.
#pragma once

#include "dq/common/metrics.h"

namespace dq::notifier {

struct NotifierMetrics {
  explicit NotifierMetrics(Metrics& registry)
      : reclaimed(registry, "dq_notifier_reclaimed_total",
                  "Events reclaimed from consumers that died"),
        set_aside(registry, "dq_notifier_set_aside_total",
                  "Stream events put on the retry schedule because their account had a backlog "
                  "in hand"),
        malformed_events(registry, "dq_notifier_malformed_events_total",
                         "Stream entries that were not valid events") {}
  // The process's, over Metrics::Global() (what /metrics shows).
  static NotifierMetrics& Global() {
    static NotifierMetrics* metrics = new NotifierMetrics(Metrics::Global());  // never destroyed
    return *metrics;
  }

  LazyCounter reclaimed;         // dq_notifier_reclaimed_total
  LazyCounter set_aside;         // dq_notifier_set_aside_total
  LazyCounter malformed_events;  // dq_notifier_malformed_events_total
};

}  // namespace dq::notifier
