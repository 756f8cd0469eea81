// Graceful shutdown: main() blocks SIGINT and SIGTERM before starting any thread (so every
// thread inherits the mask), then waits for one of them and shuts down in order.
//
//   BlockTerminationSignals();
//   ... start servers ...
//   int sig = WaitForTerminationSignal();
#pragma once

namespace dq {

// Blocks SIGINT and SIGTERM in the calling thread and its future threads; ignores SIGPIPE.
void BlockTerminationSignals();
// Waits until SIGINT or SIGTERM arrives; returns the signal number.
int WaitForTerminationSignal();

}  // namespace dq
