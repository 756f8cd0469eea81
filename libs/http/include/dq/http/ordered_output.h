// The bytes one connection sends, in the order they were written, with as few copies as the
// socket allows.
//
// An HTTP/1.1 connection's answers must leave in the order of its requests. The HTTP library
// (Pistache 0.0.5) queues every write and copies it on the way: a 300 KB answer to
// POST /v1/validate was copied five times between the handler and the socket (its response
// buffer growing by doubling, the buffer handed out, the queue's entry, and once more for each
// partial write), a fifth of the gateway's CPU on that route. OrderedOutput writes an answer
// straight to the socket when nothing of the connection's waits in that queue, and queues only
// what the socket did not take at once. While anything waits in the queue, every later write is
// queued behind it, so the order holds.
//
// A write that does not come through here (the library's own answer to a request its parser
// rejects, a chunked stream written through the library) may still wait in the queue unseen:
// after one, LoseTrack() queues everything for the rest of the connection.
//
// Not thread-safe: a connection's writes happen one at a time (on its worker thread, or, for a
// deferred answer, on the thread that finished it while the worker reads nothing of the
// connection). The queue's completions run on the worker thread; the count they change is atomic.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace dq::http {

// The connection's I/O, as OrderedOutput needs it (a Pistache peer in production, a fake in
// tests).
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // Writes what the socket takes now, without blocking, of `first` then `second`: the number of
  // bytes written (0 when the socket's buffer is full), or -1 when the connection has failed.
  virtual ssize_t TrySend(std::string_view first, std::string_view second) = 0;
  // Hands bytes to the library's write queue, which writes them after whatever it already holds.
  // `done` runs once they are written or the write has failed; it may never run if the
  // connection goes away first.
  virtual void Enqueue(std::string bytes, std::function<void()> done) = 0;
};

class OrderedOutput {
 public:
  // Writes `head` then `body`, after everything written before.
  void Write(OutputSink& sink, std::string_view head, std::string_view body = {});
  // From now on every write is queued: something reached the queue that this class did not see.
  void LoseTrack() { tracking_ = false; }

  // For tests and metrics: writes handed to the queue and not yet done, and whether writes may
  // still go straight to the socket.
  size_t waiting() const { return *waiting_; }
  bool tracking() const { return tracking_; }

 private:
  // Shared with the completions, which may run after the connection (and this object) is gone.
  std::shared_ptr<std::atomic<size_t>> waiting_ = std::make_shared<std::atomic<size_t>>(0);
  bool tracking_ = true;
};

}  // namespace dq::http
