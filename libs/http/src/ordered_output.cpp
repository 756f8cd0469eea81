#include "dq/http/ordered_output.h"

namespace dq::http {

void OrderedOutput::Write(OutputSink& sink, std::string_view head, std::string_view body) {
  size_t sent = 0;
  if (tracking_ && *waiting_ == 0) {
    const ssize_t n = sink.TrySend(head, body);
    // A failed connection: the queue meets the same failure and cleans up as it always has.
    if (n > 0) sent = static_cast<size_t>(n);
  }
  const size_t total = head.size() + body.size();
  if (sent >= total) return;
  std::string rest;
  rest.reserve(total - sent);
  if (sent < head.size()) {
    rest.append(head.substr(sent));
    rest.append(body);
  } else {
    rest.append(body.substr(sent - head.size()));
  }
  ++*waiting_;
  sink.Enqueue(std::move(rest), [waiting = waiting_] { --*waiting; });
}

}  // namespace dq::http
