#include "dq/http/edge/edge_connection.h"

#include <algorithm>

namespace dq::http::edge {
namespace {

constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
// A chunked body: Pistache keeps the raw request and a copy of its body, two bytes a byte. A
// Content-Length body is collected here once and moved into the request.
constexpr size_t kChunkedCopies = 2;

}  // namespace

EdgeConnection::EdgeConnection(EdgeTransport& transport, HttpService& service,
                               BodyBudget& budget, const EdgeLimits& limits,
                               const TrustedProxies& proxies, std::string peer, int64_t now_ms)
    : transport_(transport),
      service_(service),
      budget_(budget),
      limits_(limits),
      proxies_(proxies),
      peer_(std::move(peer)),
      chunked_(limits.max_request_body) {
  progress_.since_ms = now_ms;
}

EdgeConnection::~EdgeConnection() {
  if (reserved_ > 0) budget_.Release(reserved_);
}

HttpRequest EdgeConnection::HeadRequest() const {
  HttpRequest r;
  if (parsed_) {
    r.method = current_.method;
    r.path = std::string(current_.Path());
    for (const auto& [k, v] : current_.headers) r.headers.emplace(k, v);
  }
  r.client_ip = proxies_.ClientAddress(peer_, r.Header("x-forwarded-for"));
  r.request_id = RequestIdFor(r);
  return r;
}

void EdgeConnection::Refuse(const Status& status) {
  progress_.closing = true;
  const HttpRequest head = HeadRequest();
  HttpResponse response = service_.TransportError(head, status);
  state_ = State::kClosed;
  head_.clear();
  head_.shrink_to_fit();
  body_ = std::string();
  transport_.SendAndClose(response, head.request_id);
  ExchangeRecord record{&head, &response, progress_.bytes, {}, true};
  service_.Record(record);
}

bool EdgeConnection::Reserve(size_t bytes) {
  if (!budget_.TryReserve(bytes)) {
    Refuse(Status(ErrorCode::kUnavailable,
                  "The server is holding as many request bodies as it can; retry shortly."));
    return false;
  }
  reserved_ += bytes;
  return true;
}

void EdgeConnection::RequestDone(int64_t now_ms) {
  if (reserved_ > 0) budget_.Release(reserved_);
  reserved_ = 0;
  state_ = State::kHead;
  parsed_ = false;
  body_seen_ = 0;
  chunked_ = ChunkedBodyTracker(limits_.max_request_body);
  progress_ = Progress{false, now_ms, 0};
}

void EdgeConnection::OnData(std::string_view data, int64_t now_ms) {
  while (!data.empty() && state_ != State::kClosed) {
    if (!progress_.in_request) progress_ = Progress{true, now_ms, 0};
    if (state_ == State::kHead) {
      const size_t end = scanner_.Feed(data);
      if (end == HeadScanner::kBareLf) {
        return Refuse(Status(ErrorCode::kInvalidRequest,
                             "A line of the request head ends with LF alone; HTTP/1.1 lines "
                             "end with CRLF."));
      }
      const size_t take = end == HeadScanner::kNotYet ? data.size() : end;
      progress_.bytes += take;
      if (head_.size() + take > limits_.max_header_bytes) {
        Refuse(Status(ErrorCode::kHeadersTooLarge,
                      "The request line and headers are larger than " +
                          std::to_string(limits_.max_header_bytes) + " bytes."));
        return;
      }
      head_.append(data.substr(0, take));
      data.remove_prefix(take);
      if (end == HeadScanner::kNotYet) return;
      HeadComplete(now_ms);
      continue;
    }
    // The body.
    size_t take = 0;
    bool done = false;
    std::string forward;
    if (current_.framing == RequestHead::Framing::kChunked) {
      auto n = chunked_.Feed(data, &forward);
      if (!n.ok()) return Refuse(n.status());
      take = *n;
      done = chunked_.done();
      // Counted as forwarded (what Pistache holds): bare LFs made CRLF can make it longer than
      // what was read, never by more than two bytes a chunk.
      const size_t held = std::max(take, forward.size());
      body_seen_ += held;
      if (body_seen_ > limits_.max_request_body) {
        return Refuse(Status(ErrorCode::kPayloadTooLarge,
                             "The request body is larger than " +
                                 std::to_string(limits_.max_request_body) +
                                 " bytes, the most this server accepts."));
      }
      if (!Reserve(held * kChunkedCopies)) return;
    } else {
      take = std::min(body_left_, data.size());
      body_left_ -= take;
      body_.append(data.substr(0, take));
      progress_.bytes += take;
      data.remove_prefix(take);
      if (body_left_ == 0) {
        std::string head;
        head.swap(head_);
        transport_.ForwardRequest(head, std::move(body_));
        body_ = std::string();
        RequestDone(now_ms);
      }
      continue;
    }
    progress_.bytes += take;
    if (!forward.empty()) transport_.Forward(forward);
    data.remove_prefix(take);
    if (done) RequestDone(now_ms);
  }
}

void EdgeConnection::HeadComplete(int64_t now_ms) {
  auto head = ParseRequestHead(head_);
  if (!head.ok()) return Refuse(head.status());
  current_ = std::move(*head);
  parsed_ = true;
  // What the HTTP parser behind the edge would refuse is refused here, with the JSON contract.
  if (Status verdict = transport_.CheckHead(head_, current_); !verdict.ok()) {
    return Refuse(verdict);
  }

  std::optional<size_t> body;
  if (current_.framing == RequestHead::Framing::kLength) body = current_.content_length;
  if (current_.framing == RequestHead::Framing::kNone) body = 0;
  if (!body || *body > limits_.max_unauthenticated_body) {
    HttpRequest request = HeadRequest();
    if (auto answer = service_.Admit(request, body)) {
      state_ = State::kClosed;
      progress_.closing = true;
      transport_.SendAndClose(*answer, request.request_id);
      ExchangeRecord record{&request, &*answer, progress_.bytes, {}, true};
      service_.Record(record);
      return;
    }
  }
  // Authentication first (docs/api.md's order), then the size.
  if (body && *body > limits_.max_request_body) {
    return Refuse(Status(ErrorCode::kPayloadTooLarge,
                         "The request body is " + std::to_string(*body) +
                             " bytes; this server accepts at most " +
                             std::to_string(limits_.max_request_body) + "."));
  }
  if (body && *body > 0 && !Reserve(*body)) return;
  if (current_.expect_continue && body != size_t{0}) transport_.SendRaw(std::string(kContinue));

  if (body && *body > 0) {  // collected here; the head waits in head_ for its body
    state_ = State::kBody;
    body_left_ = *body;
    body_.reserve(*body);
    return;
  }
  // The head goes to the parser in one piece: it is parsed once.
  std::string block;
  block.swap(head_);
  transport_.Forward(block);
  if (body == size_t{0}) {
    RequestDone(now_ms);
  } else {
    state_ = State::kBody;
    body_left_ = 0;
  }
}

}  // namespace dq::http::edge
