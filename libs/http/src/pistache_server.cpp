#include "dq/http/pistache_server.h"

#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <pistache/peer.h>
#include <sys/socket.h>
#include <sys/uio.h>


#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <optional>
#include <cstdio>
#include <sstream>

#include "dq/common/log.h"
#include "dq/http/edge/edge_connection.h"
#include "dq/http/edge/request_head.h"
#include "dq/http/edge/text.h"
#include "dq/http/ordered_output.h"
#include "dq/http/pistache_head_check.h"

namespace dq::http {

namespace {

// The threads that make the parts of streamed bodies (HttpResponse::body_producer): making a
// part reads the job store, which must not hold up a Pistache worker's other connections. A
// task posted after Stop() is dropped (destroyed, releasing what it holds), as are the tasks
// still waiting at Stop().
class PartMakers {
 public:
  void Start(int threads) {
    std::lock_guard lock(mu_);
    stop_ = false;
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Run(); });
  }
  void Stop() {
    std::deque<std::function<void()>> dropped;
    {
      std::lock_guard lock(mu_);
      stop_ = true;
      dropped.swap(tasks_);
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
    threads_.clear();
    dropped.clear();  // outside the lock: a task's captures may post again (and be dropped)
  }
  void Post(std::function<void()> task) {
    {
      std::lock_guard lock(mu_);
      if (stop_) return;  // task is destroyed on return, outside the lock
      tasks_.push_back(std::move(task));
    }
    wake_.notify_one();
  }

 private:
  void Run() {
    while (true) {
      std::function<void()> task;
      {
        std::unique_lock lock(mu_);
        wake_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
        if (stop_) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> threads_;
  bool stop_ = true;
};

}  // namespace

struct HttpServer::Shared {
  Shared(const HttpServerOptions& o, HttpServerMetrics& m)
      : limits(o.limits), budget(o.limits.body_memory_bytes), table(limits),
        own_downloads(o.download_ledger ? nullptr
                                        : std::make_unique<DownloadLedger>(
                                              o.downloads, &m.download_held_bytes.Get())),
        downloads(o.download_ledger ? *o.download_ledger : *own_downloads), metrics(m) {}
  edge::EdgeLimits limits;
  edge::BodyBudget budget;
  edge::ConnectionTable table;
  std::unique_ptr<DownloadLedger> own_downloads;  // when the options share none
  DownloadLedger& downloads;  // what streamed answers hold; stalled ones are cut by the reaper
  edge::TrustedProxies proxies;
  PartMakers part_makers;
  HttpServerMetrics& metrics;
  std::mutex mu;
  std::condition_variable wake;
};

namespace {

using namespace Pistache;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Pistache 0.0.5 hands query values over still percent-encoded.
std::string PercentDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && HexValue(s[i + 1]) >= 0 && HexValue(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2])));
      i += 2;
    } else if (s[i] == '+') {
      out.push_back(' ');
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

HttpRequest Convert(const Http::Request& req, const edge::TrustedProxies& proxies) {
  HttpRequest out;
  out.method = Http::methodString(req.method());
  out.path = req.resource();
  for (auto it = req.query().parameters_begin(); it != req.query().parameters_end(); ++it) {
    out.query.emplace_back(PercentDecode(it->first), PercentDecode(it->second));
  }
  for (const auto& h : req.headers().list()) {
    std::ostringstream value;
    h->write(value);
    out.headers[edge::Lower(h->name())] = value.str();
  }
  for (const auto& [name, raw] : req.headers().rawList()) {
    out.headers[edge::Lower(name)] = raw.value();
  }
  // Pistache parses Cookie headers into a jar and keeps no header: give the header back.
  std::string cookies;
  for (const Http::Cookie& c : req.cookies()) {
    if (!cookies.empty()) cookies += "; ";
    cookies += c.name + "=" + c.value;
  }
  if (!cookies.empty()) out.headers["cookie"] = std::move(cookies);
  // Take the body rather than copy it: Pistache already holds one copy, and resets the request
  // right after onRequest returns, so moving out of it is safe.
  out.body = std::move(const_cast<std::string&>(req.body()));
  out.client_ip = proxies.ClientAddress(req.address().host(), out.Header("x-forwarded-for"));
  // Only a trusted proxy may say the client came over https (the gateway then sends HSTS).
  if (!proxies.Contains(req.address().host())) out.headers.erase("x-forwarded-proto");
  if (proxies.empty() && out.Header("x-forwarded-for") != nullptr) {
    // Behind a proxy with no trusted proxies set, every client has the proxy's address: one
    // address for the per-address limits (10 bad sign-ins lock everyone out; 64 connections cap
    // the service). Said once.
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true)) {
      log::Warn("requests arrive through a proxy (X-Forwarded-For) but DQ_TRUSTED_PROXIES is "
                "empty: every client counts as the proxy's address for per-address limits; set "
                "DQ_TRUSTED_PROXIES to the proxy's addresses",
                {{"proxy", req.address().host()}});
    }
  }
  out.request_id = RequestIdFor(out);
  return out;
}

// A response header with a name chosen at run time. Pistache 0.0.5 does not write headers added
// with addRaw(), so every custom header goes through this typed wrapper instead.
class NamedHeader final : public Http::Header::Header {
 public:
  NamedHeader(std::string name, std::string value)
      : name_(std::move(name)), value_(std::move(value)) {}
  const char* name() const override { return name_.c_str(); }
  void write(std::ostream& os) const override { os << value_; }
  uint64_t hash() const override { return Http::Header::detail::hash(name_.c_str()); }

 private:
  std::string name_;
  std::string value_;
};

// HTTP/1.1 connections are persistent unless the client says otherwise. Pistache 0.0.5 answers
// "Connection: close" whenever the request has no Connection header, yet keeps the socket open;
// clients then reconnect for every request. Say what really happens instead.
bool WantsKeepAlive(const Http::Request& req) {
  auto conn = req.headers().tryGet<Http::Header::Connection>();
  if (conn) return conn->control() == Http::ConnectionControl::KeepAlive;
  return req.version() == Http::Version::Http11;
}

// The status line and headers Pistache's ResponseWriter would write for this answer, written
// with Pistache's own types (reason phrase, Connection and Content-Type values) so they read
// the same.
std::string ResponseHead(const HttpResponse& r, const std::string& request_id,
                         Http::Version version, bool keep_alive, bool content_length = true,
                         bool chunked = false) {
  std::ostringstream os;
  os << version << ' ' << r.status << ' ' << static_cast<Http::Code>(r.status) << "\r\n";
  os << Http::Header::Connection::Name << ": ";
  Http::Header::Connection(keep_alive ? Http::ConnectionControl::KeepAlive
                                      : Http::ConnectionControl::Close)
      .write(os);
  os << "\r\n";
  for (const auto& [name, value] : r.headers) os << name << ": " << value << "\r\n";
  os << "X-Request-Id: " << request_id << "\r\n";
  if (!r.content_type.empty()) {  // a 204 has no body and no type
    os << Http::Header::ContentType::Name << ": ";
    Http::Header::ContentType(Http::Mime::MediaType::fromString(r.content_type)).write(os);
    os << "\r\n";
  }
  if (content_length) os << Http::Header::ContentLength::Name << ": " << r.body.size() << "\r\n";
  if (chunked) os << Http::Header::TransferEncoding::Name << ": chunked\r\n";
  os << "\r\n";
  return os.str();
}

// The connection's ordered output (defined below, with the connection's state).
bool WriteAnswer(const std::shared_ptr<Tcp::Peer>& peer, std::string_view head,
                 std::string_view body);
void LoseTrack(const std::shared_ptr<Tcp::Peer>& peer);
// A deferred answer (HttpResponse::deferred): the connection reads nothing more until it is sent.
void Defer(const std::shared_ptr<Tcp::Peer>& peer, HttpResponse::Send* send,
           const std::string& request_id, Http::Version version, bool keep_alive,
           bool head_only);

// A connection's state (its edge and its ordered output), kept in its Peer's data.
struct ConnectionState;
std::shared_ptr<ConnectionState> StateOf(const std::shared_ptr<Tcp::Peer>& peer);
// Ends the connection's output (SHUT_WR) or the whole connection (SHUT_RDWR), unless it has
// gone. Pistache closes a descriptor before the last reference to its Peer is dropped, and the
// number is soon another connection's: a live Peer does not prove that its fd() is still this
// connection's, the state's closed flag (set on disconnection, before the close) does. A
// shutdown after an asynchronous write must go through here (a stale shutdown cut the next
// client's fresh connection before it was answered: hostile-load's good tenant).
void ShutdownIfOpen(const std::weak_ptr<ConnectionState>& state, int how);

// A streamed answer (HttpResponse::body_producer), written a part at a time: the next part is
// made (on a part maker) only once the previous one is written. kNoState when the connection has
// no state (cannot happen behind the guard), kRefused when the downloads in progress hold their
// memory bound (DQ_DOWNLOAD_MEMORY_BYTES); nothing is written then.
enum class Streamed { kYes, kNoState, kRefused };
Streamed Stream(const std::shared_ptr<Tcp::Peer>& peer, HttpServer::Shared* shared,
            const HttpResponse& r, const std::string& request_id, Http::Version version,
            bool keep_alive);

// An answer that said "Connection: close" is followed by the end of the connection's output,
// once everything before it is written (an empty write through Pistache's queue completes after
// whatever waits there): the client reads the answer, then the end, and need not wait for a
// timeout. Pistache 0.0.5 itself keeps such a socket open.
void CloseAfterAnswer(const std::shared_ptr<Tcp::Peer>& peer) {
  if (std::shared_ptr<ConnectionState> state = StateOf(peer)) {
    peer->send(RawBuffer(std::string(), 0))
        .then([weak = std::weak_ptr<ConnectionState>(state)](
                  ssize_t) { ShutdownIfOpen(weak, SHUT_WR); },
              [](std::exception_ptr) {});
    return;
  }
  // No connection state (cannot happen behind the guard): the Peer's liveness is all there is.
  std::weak_ptr<Tcp::Peer> weak = peer;
  const int fd = peer->fd();
  peer->send(RawBuffer(std::string(), 0))
      .then(
          [weak, fd](ssize_t) {
            if (weak.lock()) ::shutdown(fd, SHUT_WR);
          },
          [](std::exception_ptr) {});
}

void Send(const HttpResponse& r, const std::string& request_id, Http::Version version,
          Http::ResponseWriter& writer, bool keep_alive = true, bool head_only = false) {
  auto peer = writer.peer();
  if (!peer) return;  // the client has gone
  if (head_only) {
    // HEAD: the head GET would send, no body. A streamed body's length is not known: none is
    // named.
    const std::string head = ResponseHead(r, request_id, version, keep_alive, !r.body_producer);
    if (WriteAnswer(peer, head, {})) {
      peer->setIdle(true);
      if (!keep_alive) CloseAfterAnswer(peer);
      return;
    }
  }
  if (!r.body_producer) {
    const std::string head = ResponseHead(r, request_id, version, keep_alive);
    if (WriteAnswer(peer, head, r.body)) {
      peer->setIdle(true);  // as Pistache's writer does once it has sent: the keep-alive clock
      if (!keep_alive) CloseAfterAnswer(peer);
      return;
    }
    // No connection state (cannot happen behind the guard): Pistache's writer, as below.
  }
  // Pistache's writer. Its writes go to Pistache's queue without saying when they are done,
  // so the connection's later answers queue behind them.
  LoseTrack(peer);
  writer.headers().remove<Http::Header::Connection>();
  writer.headers().add<Http::Header::Connection>(keep_alive ? Http::ConnectionControl::KeepAlive
                                                            : Http::ConnectionControl::Close);
  for (const auto& [name, value] : r.headers) {
    writer.headers().add(std::make_shared<NamedHeader>(name, value));
  }
  writer.headers().add(std::make_shared<NamedHeader>("X-Request-Id", request_id));
  if (!r.content_type.empty()) {  // a 204 has no body and no type
    writer.headers().add<Http::Header::ContentType>(
        Http::Mime::MediaType::fromString(r.content_type));
  }
  if (!r.body_producer) {
    writer.send(static_cast<Http::Code>(r.status), r.body);
    if (!keep_alive) CloseAfterAnswer(peer);
    return;
  }
  // A streamed body: chunked transfer encoding, one chunk per piece, each sent as it is made.
  // Pistache's ResponseStream frames every write() as one chunk itself (size line, data, CRLF)
  // and ends() writes the last chunk: the pieces are written as they are.
  auto stream = writer.stream(static_cast<Http::Code>(r.status));
  std::string piece = r.body;
  BodyStep step = BodyStep::kMore;
  while (true) {
    if (!piece.empty()) {
      stream.write(piece.data(), static_cast<std::streamsize>(piece.size()));
      stream.flush();
    }
    if (step != BodyStep::kMore) break;
    piece.clear();
    step = r.body_producer(&piece);
  }
  if (step == BodyStep::kFailed) {
    // No last chunk: the client sees the answer cut off. The worker's epoll sees the end and
    // cleans up, as for the edge's cuts. Without a connection state (Pistache's own writer
    // above), the Peer held here is all there is.
    if (auto state = StateOf(peer)) {
      ShutdownIfOpen(state, SHUT_RDWR);
    } else {
      ::shutdown(peer->fd(), SHUT_RDWR);
    }
    return;
  }
  stream.ends();
  peer->setIdle(true);  // as for any other answer: the keep-alive clock, not a request's
  if (!keep_alive) CloseAfterAnswer(peer);
}

// Complete requests: Pistache parsed them (after the edge let them through).
constexpr const char* kStateKey = "dq.edge";
// The body the edge collected for the request being handled, if it did (defined below).
std::optional<std::string> TakeEdgeBody(const std::shared_ptr<Tcp::Peer>& peer);

class ApiHandler final : public Http::Handler {
 public:
  HTTP_PROTOTYPE(ApiHandler)

  ApiHandler(HttpService* service, HttpServer::Shared* shared)
      : service_(service), shared_(shared) {}

  // Pistache's onInput turns an exception from here into its own plain-text 500: none escapes.
  void onRequest(const Http::Request& req, Http::ResponseWriter writer) override {
    try {
      Answer(req, writer);
    } catch (const std::exception& e) {
      log::Error("unhandled exception in the HTTP adapter", {{"what", e.what()}});
      Fail(req, writer);
    } catch (...) {
      log::Error("unhandled exception in the HTTP adapter", {});
      Fail(req, writer);
    }
  }

  void onTimeout(const Http::Request& req, Http::ResponseWriter writer) override {
    HttpRequest empty;
    empty.request_id = NewRequestId();
    Send(service_->TransportError(
             empty, Status(ErrorCode::kRequestTimeout, "The request was not received in time.")),
         empty.request_id, req.version(), writer, false);
  }

 private:
  // An answer for a request whose handling threw; nothing may have been written yet.
  void Fail(const Http::Request& req, Http::ResponseWriter& writer) {
    try {
      HttpRequest empty;
      empty.request_id = NewRequestId();
      Send(service_->TransportError(
               empty, Status(ErrorCode::kInternal, "Something went wrong on our side; the "
                                                   "request id is " + empty.request_id + ".")),
           empty.request_id, req.version(), writer, false);
    } catch (...) {
      if (auto peer = writer.peer()) ::shutdown(peer->fd(), SHUT_RDWR);  // no answer: cut
    }
  }

  void Answer(const Http::Request& req, Http::ResponseWriter& writer) {
    const auto start = std::chrono::steady_clock::now();
    HttpRequest request;
    try {
      request = Convert(req, shared_->proxies);
    } catch (const std::exception&) {
      // An unparseable header value; answer rather than let Pistache send plain text.
      HttpRequest empty;
      empty.request_id = NewRequestId();
      Send(service_->TransportError(
               empty, Status(ErrorCode::kInvalidRequest, "The request headers are malformed.")),
           empty.request_id, req.version(), writer);
      return;
    }
    if (auto body = TakeEdgeBody(writer.peer())) {
      request.body = std::move(*body);
      request.headers["content-length"] = std::to_string(request.body.size());
    }
    const size_t bytes_in = request.body.size();
    HttpResponse response = service_->Handle(request);
    const bool head_only = request.method == "HEAD";
    if (response.deferred) {
      // Slow work runs elsewhere; this thread goes back to its other connections at once.
      HttpResponse::Send send;
      Defer(writer.peer(), &send, request.request_id, req.version(), WantsKeepAlive(req),
            head_only);
      if (send) {
        response.deferred(std::move(send));
      } else {
        // No connection state (cannot happen behind the guard): wait here, as before.
        std::promise<HttpResponse> ready;
        auto answer = ready.get_future();
        response.deferred([&ready](HttpResponse r) { ready.set_value(std::move(r)); });
        Send(answer.get(), request.request_id, req.version(), writer, WantsKeepAlive(req),
             head_only);
      }
      return;
    }
    const Streamed streamed =
        response.body_producer && !head_only
            ? Stream(writer.peer(), shared_, response, request.request_id, req.version(),
                     WantsKeepAlive(req))
            : Streamed::kNoState;
    if (streamed == Streamed::kRefused) {
      // Downloads hold the memory they may: the producer is dropped unread (the access log
      // records the service's answer as cut off, and this 503 as the edge's) and the client is
      // told to come back.
      response = service_->TransportError(
          request, Status(ErrorCode::kUnavailable, kDownloadsFullMessage));
    }
    if (streamed != Streamed::kYes) {
      Send(response, request.request_id, req.version(), writer, WantsKeepAlive(req), head_only);
    }
    // The access-log hook.
    service_->Record(ExchangeRecord{&request, &response, bytes_in,
                                    std::chrono::steady_clock::now() - start,
                                    streamed == Streamed::kRefused});
  }

  static std::string NewRequestId() { return RequestIdFor(HttpRequest{}); }
  HttpService* service_;
  HttpServer::Shared* shared_;
};

// Tcp::Handler::associateTransport is private; only Pistache's Transport, a friend, calls it.
// The guard below must hand its inner handler the transport it was itself given. Naming a
// private member in an explicit template instantiation is allowed (access is not checked
// there), which this well-known idiom uses to obtain the member pointer, once, here only.
using AssociateFn = void (Tcp::Handler::*)(Tcp::Transport*);
struct AssociateTag {
  friend AssociateFn AssociateMember(AssociateTag);
};
template <AssociateFn Member>
struct ExposeAssociate {
  friend AssociateFn AssociateMember(AssociateTag) { return Member; }
};
template struct ExposeAssociate<&Tcp::Handler::associateTransport>;

// The edge's view of one Pistache connection, and the connection's ordered output.
class PeerTransport final : public edge::EdgeTransport, public OutputSink {
 public:
  PeerTransport(std::weak_ptr<Tcp::Peer> peer, Tcp::Handler* inner, HttpServerMetrics& metrics)
      : peer_(std::move(peer)), inner_(inner), metrics_(metrics) {}
  void set_full_close() { full_close_ = true; }

  void Forward(std::string_view bytes) override {
    auto p = peer_.lock();
    if (!p) return;
    if (pending_) {
      Hold(std::string(bytes), std::string(), false);
      return;
    }
    Parse(p, bytes);
  }
  // Pistache is given the head with Content-Length 0 and handles the request at once; its
  // handler takes the body from here (TakeEdgeBody). So Pistache never copies the body.
  void ForwardRequest(std::string_view head, std::string body) override {
    auto p = peer_.lock();
    if (!p) return;
    if (pending_) {
      Hold(std::string(head), std::move(body), true);
      return;
    }
    const std::string bare = edge::HeadWithoutBody(head);
    body_ = std::move(body);
    has_body_ = true;
    Parse(p, bare);
    has_body_ = false;
    body_ = std::string();
  }
  // The body of the request being handled, if the edge collected it.
  std::optional<std::string> TakeBody() {
    if (!has_body_) return std::nullopt;
    has_body_ = false;
    return std::move(body_);
  }
  // What Pistache's parser would refuse (and answer in plain text) is refused by the edge.
  Status CheckHead(std::string_view block, const edge::RequestHead& head) override {
    return PistacheHeadVerdict(block, head);
  }
  void SendRaw(std::string bytes) override { output_.Write(*this, bytes); }
  void SendAndClose(const HttpResponse& response, const std::string& request_id) override {
    auto p = peer_.lock();
    if (!p) return;
    Http::Handler::getParser(p)->reset();  // drop whatever was buffered of this request
    std::string raw = SerializeResponse(response, request_id, true);
    const size_t size = raw.size();
    // Once the answer is written, half-close: the client reads it, sees the end, and whatever
    // it still sends is read and dropped until it closes (or the linger ends). A connection
    // refused at connect is in no table (no linger): it is closed outright. The answer goes
    // through Pistache's queue, behind anything of the connection's still waiting there, and
    // nothing is written after it.
    const int how = full_close_ ? SHUT_RDWR : SHUT_WR;
    output_.LoseTrack();
    std::weak_ptr<ConnectionState> state = StateOf(p);
    p->send(RawBuffer(std::move(raw), size))
        .then([state, how](ssize_t) { ShutdownIfOpen(state, how); }, [](std::exception_ptr) {});
    metrics_.edge_refusals.With({std::to_string(response.status)}).Inc();
  }

  // An answer of ApiHandler's, in order after everything written before.
  void WriteAnswer(std::string_view head, std::string_view body) {
    ++answered_;
    std::lock_guard lock(write_mu_);
    output_.Write(*this, head, body);
  }

  // A deferred answer is coming: until Resume(), what the edge forwards is held, not parsed.
  void BeginDeferred() {
    ++answered_;  // the request is taken care of: the peer stays busy, not idle
    pending_ = true;
  }
  // From the thread that finished the work: writes the deferred answer, in order, unless the
  // connection has gone (its descriptor may then belong to another connection already).
  bool WriteDeferred(std::string_view head, std::string_view body) {
    std::lock_guard lock(write_mu_);
    if (closed_) return false;
    output_.Write(*this, head, body);
    return true;
  }
  // Cuts the connection (no more output; the worker's epoll sees the end and cleans up), unless
  // it has gone already (its descriptor may then belong to another connection). From any thread.
  void CutIfOpen() { ShutdownUnlessClosed(SHUT_RDWR); }
  // As CutIfOpen, for either direction (SHUT_WR: the end of the output).
  void ShutdownUnlessClosed(int how) {
    std::lock_guard lock(write_mu_);
    if (closed_) return;
    if (auto p = peer_.lock()) ::shutdown(p->fd(), how);
  }
  // On the connection's worker thread, before Pistache closes the descriptor.
  void MarkClosed() {
    std::lock_guard lock(write_mu_);
    closed_ = true;
  }
  // On the connection's worker thread, once the deferred answer is on its way: what arrived
  // meanwhile is read now, in order, until another answer is deferred.
  void Resume(const std::shared_ptr<Tcp::Peer>& p) {
    pending_ = false;
    while (!pending_ && !held_.empty()) {
      Held h = std::move(held_.front());
      held_.pop_front();
      held_bytes_ -= h.head.size() + h.body.size();
      if (h.with_body) {
        body_ = std::move(h.body);
        has_body_ = true;
        Parse(p, edge::HeadWithoutBody(h.head));
        has_body_ = false;
        body_ = std::string();
      } else {
        Parse(p, h.head);
      }
    }
  }
  void LoseTrack() { output_.LoseTrack(); }

  // OutputSink: the socket itself, and Pistache's write queue.
  ssize_t TrySend(std::string_view first, std::string_view second) override {
    auto p = peer_.lock();
    if (!p) return -1;
    iovec parts[2] = {{const_cast<char*>(first.data()), first.size()},
                      {const_cast<char*>(second.data()), second.size()}};
    msghdr message{};
    message.msg_iov = parts;
    message.msg_iovlen = second.empty() ? 1 : 2;
    while (true) {
      const ssize_t n = ::sendmsg(p->fd(), &message, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n >= 0) return n;
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
    }
  }
  void Enqueue(std::string bytes, std::function<void()> done) override {
    auto p = peer_.lock();
    if (!p) return;
    const size_t size = bytes.size();
    p->send(RawBuffer(std::move(bytes), size))
        .then([done](ssize_t) { done(); }, [done](std::exception_ptr) { done(); });
  }

 private:
  // Hands bytes to Pistache's parser. A request they complete is answered by ApiHandler through
  // WriteAnswer. Pistache answers a request its parser rejects by itself, through its own queue,
  // unseen; its writer marks the peer idle when it does, which is how that is noticed here.
  void Parse(const std::shared_ptr<Tcp::Peer>& p, std::string_view bytes) {
    const bool was_idle = p->isIdle();
    const uint64_t answered = answered_;
    p->setIdle(false);
    inner_->onInput(bytes.data(), bytes.size(), p);
    if (answered_ != answered) return;
    if (p->isIdle()) {
      output_.LoseTrack();
    } else {
      p->setIdle(was_idle);
    }
  }

  // A client that pipelines more than this behind a deferred answer is cut off.
  static constexpr size_t kMaxHeldBytes = 16u << 20;
  struct Held {
    std::string head;  // or raw bytes, when !with_body
    std::string body;
    bool with_body = false;
  };
  void Hold(std::string head, std::string body, bool with_body) {
    held_bytes_ += head.size() + body.size();
    held_.push_back(Held{std::move(head), std::move(body), with_body});
    if (held_bytes_ > kMaxHeldBytes) {
      if (auto p = peer_.lock()) ::shutdown(p->fd(), SHUT_RDWR);
      held_.clear();
      held_bytes_ = 0;
    }
  }

  std::weak_ptr<Tcp::Peer> peer_;
  Tcp::Handler* inner_;
  HttpServerMetrics& metrics_;
  bool full_close_ = false;
  bool pending_ = false;  // a deferred answer is being worked on
  std::deque<Held> held_;
  size_t held_bytes_ = 0;
  std::mutex write_mu_;   // output_ and closed_, for a deferred answer's thread
  bool closed_ = false;
  std::string body_;
  bool has_body_ = false;
  OrderedOutput output_;
  uint64_t answered_ = 0;
};

struct ConnectionState {
  std::unique_ptr<PeerTransport> transport;
  std::unique_ptr<edge::EdgeConnection> edge;
};

std::shared_ptr<ConnectionState> StateOf(const std::shared_ptr<Tcp::Peer>& peer) {
  auto data = peer ? peer->tryGetData(kStateKey) : nullptr;
  if (!data) return nullptr;
  return std::static_pointer_cast<ConnectionState>(data);
}

void ShutdownIfOpen(const std::weak_ptr<ConnectionState>& state, int how) {
  if (auto s = state.lock(); s && s->transport) s->transport->ShutdownUnlessClosed(how);
}

std::optional<std::string> TakeEdgeBody(const std::shared_ptr<Tcp::Peer>& peer) {
  auto state = StateOf(peer);
  if (!state || !state->transport) return std::nullopt;
  return state->transport->TakeBody();
}

bool WriteAnswer(const std::shared_ptr<Tcp::Peer>& peer, std::string_view head,
                 std::string_view body) {
  auto state = StateOf(peer);
  if (!state || !state->transport) return false;
  state->transport->WriteAnswer(head, body);
  return true;
}

void LoseTrack(const std::shared_ptr<Tcp::Peer>& peer) {
  if (auto state = StateOf(peer); state && state->transport) state->transport->LoseTrack();
}

void Defer(const std::shared_ptr<Tcp::Peer>& peer, HttpResponse::Send* send,
           const std::string& request_id, Http::Version version, bool keep_alive,
           bool head_only) {
  auto state = StateOf(peer);
  if (!state || !state->transport) return;
  state->transport->BeginDeferred();
  std::weak_ptr<Tcp::Peer> weak = peer;
  *send = [weak, request_id, version, keep_alive, head_only](HttpResponse r) {
    auto p = weak.lock();
    if (!p) return;  // the client has gone
    auto st = StateOf(p);
    if (!st || !st->transport) return;
    if (r.body_producer) {  // not expected here; sent whole rather than streamed
      r.body = r.FullBody();
      r.body_producer = nullptr;
    }
    const std::string head = ResponseHead(r, request_id, version, keep_alive);
    if (!st->transport->WriteDeferred(head, head_only ? std::string_view() : r.body)) return;
    // An empty write through Pistache's queue completes on the connection's worker thread,
    // after whatever of the answer waits there: the place to read on.
    p->send(RawBuffer(std::string(), 0))
        .then(
            [weak, keep_alive](ssize_t) {
              auto again = weak.lock();
              if (!again) return;
              if (!keep_alive) ShutdownIfOpen(StateOf(again), SHUT_WR);  // as CloseAfterAnswer
              again->setIdle(true);  // as after any answer: the keep-alive clock
              if (auto s = StateOf(again); s && s->transport) s->transport->Resume(again);
            },
            [](std::exception_ptr) {});
  };
}

// One streamed answer in progress. Its parts are made on a part maker (PartMakers) and written
// through the connection's ordered output; the next part is made only when Pistache's write queue
// has written the previous one, so one part (JobsOptions::cleaned_part_bytes, or a page of
// issues) at most waits in the gateway for a client that reads slowly or not at all. Each written
// part restarts the connection's idle clock in the edge's table, so a download that goes on is
// never cut as idle, and one whose client stops reading is cut by the reaper after
// DQ_IDLE_TIMEOUT_MS. It is also in the server's DownloadLedger (download_ledger.h) with what it
// holds (the producer's buffers, HttpResponse::body_held_bytes, and the part not yet written):
// the reaper cuts it once it has not moved for DQ_DOWNLOAD_STALL_TIMEOUT_MS, or sooner when the
// downloads together hold more than DQ_DOWNLOAD_MEMORY_BYTES. Only a weak reference to the peer
// is held: when the connection goes, Pistache drops its queued writes and, with them, the
// completions that hold this object, which releases the producer (and what it holds: the job,
// the store's reads) and takes it off the ledger.
class BodyStream : public std::enable_shared_from_this<BodyStream> {
 public:
  BodyStream(std::weak_ptr<Tcp::Peer> peer, HttpServer::Shared* shared,
             std::function<BodyStep(std::string*)> producer, std::function<size_t()> held,
             bool keep_alive, uint64_t download)
      : peer_(std::move(peer)), shared_(shared), producer_(std::move(producer)),
        held_(std::move(held)), keep_alive_(keep_alive),
        open_(shared->metrics.streamed_answers.Get()), download_(download) {
    open_.Add(1);
  }
  ~BodyStream() {
    shared_->downloads.Close(download_);
    open_.Add(-1);
  }
  BodyStream(const BodyStream&) = delete;
  BodyStream& operator=(const BodyStream&) = delete;

  // Writes the head and the first piece (on the worker thread), then goes on part by part.
  bool Begin(const std::string& head, const std::string& first) {
    auto p = peer_.lock();
    if (!p) return true;  // the client has gone: nothing to write
    auto st = StateOf(p);
    if (!st || !st->transport) return false;
    id_ = p->getID();
    st->transport->BeginDeferred();  // what the client sends meanwhile waits for the end
    Touch();
    std::string bytes = head;
    AppendChunk(&bytes, first);
    Account(bytes.size(), true);
    if (!st->transport->WriteDeferred(bytes, {})) return true;
    AfterWritten(p, [](BodyStream& self) { self.PostNext(); });
    return true;
  }

 private:
  static void AppendChunk(std::string* out, std::string_view data) {
    if (data.empty()) return;  // an empty chunk would end the body
    char size[24];
    const int n = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    out->append(size, static_cast<size_t>(n));
    out->append(data);
    out->append("\r\n");
  }

  // The connection's idle clock starts again: the answer has progressed.
  void Touch() { shared_->table.Update(id_, edge::Progress{false, NowMs(), 0}); }

  // Tells the ledger what this answer holds now: the producer's buffers and `unwritten` bytes of
  // a part handed to the connection's output (counted whole until the write completes, though
  // the socket may have taken some at once). moved: the answer has progressed as of now.
  void Account(size_t unwritten, bool moved) {
    const size_t held = producer_ && held_ ? held_() : 0;
    shared_->downloads.Update(download_, held + unwritten,
                              moved ? std::optional<int64_t>(NowMs()) : std::nullopt);
  }

  // Runs next(*this) on the connection's worker thread once everything written so far has left
  // Pistache's queue: an empty write through that queue completes after whatever waits there.
  // If the connection goes first, Pistache drops the write and next (with this object's
  // reference) unrun.
  void AfterWritten(const std::shared_ptr<Tcp::Peer>& p, void (*next)(BodyStream&)) {
    p->send(RawBuffer(std::string(), 0))
        .then(
            [self = shared_from_this(), next](ssize_t) {
              self->Touch();
              self->Account(0, true);
              next(*self);
            },
            [](std::exception_ptr) {});  // a failed write: the connection is ending
  }

  // The next part, to be made on a part maker.
  void PostNext() { shared_->part_makers.Post([s = shared_from_this()] { s->MakePart(); }); }

  // On a part maker: the next part, then its write.
  void MakePart() {
    std::string piece;
    BodyStep step = BodyStep::kFailed;
    try {
      step = producer_(&piece);
    } catch (const std::exception& e) {
      log::Error("a streamed answer's producer threw", {{"what", e.what()}});
    } catch (...) {
      log::Error("a streamed answer's producer threw", {});
    }
    auto p = peer_.lock();
    if (!p) return;  // the client has gone; this object and the producer go with the task
    auto st = StateOf(p);
    if (!st || !st->transport) return;
    if (step == BodyStep::kFailed) {
      // No last chunk: the client sees the answer cut off, never a short one that looks whole.
      st->transport->CutIfOpen();
      return;
    }
    std::string bytes;
    bytes.reserve(piece.size() + 32);
    AppendChunk(&bytes, piece);
    piece = std::string();
    if (step == BodyStep::kEnd) bytes.append("0\r\n\r\n");
    if (step != BodyStep::kMore) {
      producer_ = nullptr;  // done with: released now, not when the last write completes
      held_ = nullptr;
    }
    // The part was made: the clock of a stall starts now (a slow store read is not the client's).
    Account(bytes.size(), true);
    if (!st->transport->WriteDeferred(bytes, {})) return;
    bytes = std::string();
    if (step == BodyStep::kMore) {
      AfterWritten(p, [](BodyStream& self) { self.PostNext(); });
      return;
    }
    AfterWritten(p, [](BodyStream& self) { self.Finish(); });
  }

  // On the worker thread, once the last chunk is written: as after a deferred answer.
  void Finish() {
    auto p = peer_.lock();
    if (!p) return;
    if (!keep_alive_) ShutdownIfOpen(StateOf(p), SHUT_WR);  // as CloseAfterAnswer
    p->setIdle(true);  // the keep-alive clock
    if (auto s = StateOf(p); s && s->transport) s->transport->Resume(p);
  }

  std::weak_ptr<Tcp::Peer> peer_;
  HttpServer::Shared* shared_;
  std::function<BodyStep(std::string*)> producer_;
  std::function<size_t()> held_;  // HttpResponse::body_held_bytes
  bool keep_alive_;
  // dq_gateway_streamed_answers: streamed answers whose producer is still held (in progress, or
  // waiting for their client). A registry's series outlives the server.
  GaugeMetric& open_;
  uint64_t download_;  // in shared_->downloads
  uint64_t id_ = 0;
};

Streamed Stream(const std::shared_ptr<Tcp::Peer>& peer, HttpServer::Shared* shared,
                const HttpResponse& r, const std::string& request_id, Http::Version version,
                bool keep_alive) {
  if (!peer) return Streamed::kYes;  // the client has gone
  auto state = StateOf(peer);
  if (!state || !state->transport) return Streamed::kNoState;
  // The ledger's cut, from the reaper: as a producer's failure cuts (CutIfOpen knows whether the
  // descriptor is still the connection's).
  const std::string head = ResponseHead(r, request_id, version, keep_alive,
                                        /*content_length=*/false, /*chunked=*/true);
  std::weak_ptr<ConnectionState> weak = state;
  const size_t first = head.size() + r.body.size() + (r.body_held_bytes ? r.body_held_bytes() : 0);
  auto download = shared->downloads.Open(NowMs(), first, [weak] {
    if (auto s = weak.lock(); s && s->transport) s->transport->CutIfOpen();
  });
  if (!download) return Streamed::kRefused;
  auto stream = std::make_shared<BodyStream>(peer, shared, r.body_producer, r.body_held_bytes,
                                             keep_alive, *download);
  return stream->Begin(head, r.body) ? Streamed::kYes : Streamed::kNoState;
}

// In front of Pistache's parser: every byte goes through the connection's EdgeConnection.
class GuardHandler final : public Http::Handler {
 public:
  GuardHandler(HttpService* service, HttpServer::Shared* shared)
      : service_(service), shared_(shared), inner_(std::make_shared<ApiHandler>(service, shared)) {}

  // One guard (and one inner handler) per Pistache worker, with the prototype's settings.
  std::shared_ptr<Tcp::Handler> clone() const override {
    auto copy = std::make_shared<GuardHandler>(service_, shared_);
    copy->setMaxRequestSize(getMaxRequestSize());
    copy->setMaxResponseSize(getMaxResponseSize());
    copy->setHeaderTimeout(getHeaderTimeout());
    copy->setBodyTimeout(getBodyTimeout());
    copy->inner_->setMaxRequestSize(getMaxRequestSize());
    copy->inner_->setMaxResponseSize(getMaxResponseSize());
    copy->inner_->setHeaderTimeout(getHeaderTimeout());
    copy->inner_->setBodyTimeout(getBodyTimeout());
    return copy;
  }

  // Never called: complete requests are handled by the inner ApiHandler.
  void onRequest(const Http::Request&, Http::ResponseWriter) override {}

 private:
  void Associate() {
    if (!associated_) {
      (static_cast<Tcp::Handler&>(*inner_).*AssociateMember(AssociateTag{}))(transport());
      associated_ = true;
    }
  }

  void onConnection(const std::shared_ptr<Tcp::Peer>& peer) override {
    Associate();
    static_cast<Tcp::Handler&>(*inner_).onConnection(peer);  // Pistache's parser for the peer
    auto state = std::make_shared<ConnectionState>();
    state->transport = std::make_unique<PeerTransport>(peer, inner_.get(), shared_->metrics);
    const std::string host = peer->address().host();
    state->edge = std::make_unique<edge::EdgeConnection>(*state->transport, *service_,
                                                         shared_->budget, shared_->limits,
                                                         shared_->proxies, host, NowMs());
    peer->putData(kStateKey, state);
    const Status opened = shared_->table.Open(peer->getID(), host, shared_->proxies.Contains(host),
                                              peer->fd(), NowMs());
    if (!opened.ok()) {
      HttpRequest head;
      head.client_ip = host;
      head.request_id = RequestIdFor(head);
      state->transport->set_full_close();
      state->transport->SendAndClose(service_->TransportError(head, opened), head.request_id);
      // Not in the table: the socket is shut once the answer is written; input is dropped.
      state->edge.reset();
      log::Warn("connection refused", {{"address", host}, {"reason", opened.message()}});
    }
  }

  void onDisconnection(const std::shared_ptr<Tcp::Peer>& peer) override {
    shared_->table.Close(peer->getID());
    if (auto data = peer->tryGetData(kStateKey)) {
      auto state = std::static_pointer_cast<ConnectionState>(data);
      if (state->transport) state->transport->MarkClosed();
      state->edge.reset();  // releases the connection's body reservation
    }
  }

  void onInput(const char* buffer, size_t len, const std::shared_ptr<Tcp::Peer>& peer) override {
    auto data = peer->tryGetData(kStateKey);
    if (!data) return;
    auto state = std::static_pointer_cast<ConnectionState>(data);
    if (!state->edge) return;  // refused at connect: drop
    state->edge->OnData(std::string_view(buffer, len), NowMs());
    shared_->table.Update(peer->getID(), state->edge->progress());
  }

  HttpService* service_;
  HttpServer::Shared* shared_;
  std::shared_ptr<ApiHandler> inner_;
  bool associated_ = false;  // one guard per worker thread: no race
};

}  // namespace

// Threads that make the parts of streamed answers (BodyStream). A part is one store read or a
// few: a handful of threads keep as many downloads going while one waits on the store.
constexpr int kPartMakers = 4;

HttpServer::HttpServer(HttpService& service, HttpServerOptions options,
                       HttpServerMetrics& metrics)
    : service_(service), options_(std::move(options)), metrics_(metrics) {}

HttpServer::~HttpServer() { Shutdown(); }

Status HttpServer::Start() {
  shared_ = std::make_unique<Shared>(options_, metrics_);
  auto proxies = edge::TrustedProxies::Parse(options_.trusted_proxies);
  if (!proxies.ok()) return proxies.status();
  shared_->proxies = *proxies;
  try {
    Address addr(options_.bind, Port(static_cast<uint16_t>(options_.port)));
    endpoint_ = std::make_unique<Http::Endpoint>(addr);
    auto opts = Http::Endpoint::options()
                    .threads(options_.threads)
                    // Pistache's own limit sits above the edge's, so the edge answers first.
                    .maxRequestSize(options_.limits.max_request_body +
                                    options_.limits.max_header_bytes + (1 << 16))
                    .flags(Tcp::Options::ReuseAddr)
                    .keepaliveTimeout(std::chrono::seconds(75))
                    // Pistache's own header and body clocks (60 s by default) answer a plain-text
                    // 408 to any connection whose parser has waited that long: an upload the edge
                    // is still collecting, or a request whose deferred answer is being worked on.
                    // The edge judges slowness itself (JSON 408): Pistache's clocks are put out
                    // of the way.
                    .headerTimeout(std::chrono::hours(24 * 365))
                    .bodyTimeout(std::chrono::hours(24 * 365));
    endpoint_->init(opts);
    endpoint_->setHandler(std::make_shared<GuardHandler>(&service_, shared_.get()));
    endpoint_->serveThreaded();
    port_ = static_cast<uint16_t>(endpoint_->getPort());
  } catch (const std::exception& e) {
    endpoint_.reset();
    return Status(ErrorCode::kUnavailable,
                  "cannot listen on " + options_.bind + ":" + std::to_string(options_.port) +
                      ": " + e.what());
  }
  stop_ = false;
  shared_->part_makers.Start(kPartMakers);
  reaper_ = std::thread([this] { Reap(); });
  log::Info("gateway listening", {{"port", std::to_string(port_)}});
  return Status::Ok();
}

// Cuts connections that send too slowly, idle too long, or linger after the edge's answer.
void HttpServer::Reap() {
  std::unique_lock lock(shared_->mu);
  while (!stop_) {
    shared_->wake.wait_for(lock, std::chrono::milliseconds(250));
    if (stop_) break;
    lock.unlock();
    // Downloads stalled too long, or holding more than their memory bound (download_ledger.h).
    for (auto& cut : shared_->downloads.Sweep(NowMs())) cut();
    shared_->table.Sweep(NowMs(), [this](int fd, edge::Verdict v) {
      if (v == edge::Verdict::kTooSlow) {
        HttpRequest head;
        head.request_id = RequestIdFor(head);
        const std::string raw = SerializeResponse(
            service_.TransportError(head, Status(ErrorCode::kRequestTimeout,
                                                 "The request arrived too slowly.")),
            head.request_id, true);
        // Best effort: the connection is mid-request, so nothing else is writing to it.
        (void)::send(fd, raw.data(), raw.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      }
      ::shutdown(fd, SHUT_RDWR);  // the worker's epoll sees the end and cleans up
    });
    lock.lock();
  }
}

void HttpServer::Shutdown() {
  if (reaper_.joinable()) {
    {
      std::lock_guard lock(shared_->mu);
      stop_ = true;
    }
    shared_->wake.notify_all();
    reaper_.join();
    shared_->part_makers.Stop();  // streamed answers in progress end here, cut off
  }
  if (endpoint_) {
    endpoint_->shutdown();
    endpoint_.reset();
  }
}

}  // namespace dq::http
