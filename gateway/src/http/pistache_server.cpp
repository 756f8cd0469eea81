#include "pistache_server.h"

#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <pistache/peer.h>

#include <cstdio>
#include <sstream>

#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "error_response.h"
#include "json_util.h"

namespace dq::gateway {
namespace {

using namespace Pistache;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
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

bool SaneRequestId(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
      return false;
    }
  }
  return true;
}

HttpRequest Convert(const Http::Request& req) {
  HttpRequest out;
  out.method = Http::methodString(req.method());
  out.path = req.resource();
  for (auto it = req.query().parameters_begin(); it != req.query().parameters_end(); ++it) {
    out.query.emplace_back(PercentDecode(it->first), PercentDecode(it->second));
  }
  for (const auto& h : req.headers().list()) {
    std::ostringstream value;
    h->write(value);
    out.headers[Lower(h->name())] = value.str();
  }
  for (const auto& [name, raw] : req.headers().rawList()) {
    out.headers[Lower(name)] = raw.value();
  }
  // Take the body rather than copy it: uploads are up to 50 MiB and Pistache already holds one
  // copy. The parser's request object is not const (only our view of it is) and Pistache resets
  // it right after onRequest returns, so moving out of it is safe.
  out.body = std::move(const_cast<std::string&>(req.body()));
  out.client_ip = req.address().host();
  const std::string* rid = out.Header("x-request-id");
  out.request_id = rid != nullptr && SaneRequestId(*rid) ? *rid : NewUuidV4();
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

void Send(const HttpResponse& r, const std::string& request_id, Http::ResponseWriter& writer,
          bool keep_alive = true) {
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
    return;
  }
  // A streamed body: chunked transfer encoding, one chunk per piece, each sent as it is made.
  auto stream = writer.stream(static_cast<Http::Code>(r.status));
  std::string piece = r.body;
  bool more = true;
  while (true) {
    if (!piece.empty()) {  // one chunk: size in hex, CRLF, data, CRLF
      char size[24];
      const int n = std::snprintf(size, sizeof size, "%zx\r\n", piece.size());
      piece += "\r\n";
      stream.write(size, n);
      stream.write(piece.data(), static_cast<std::streamsize>(piece.size()));
      stream.flush();
    }
    if (!more) break;
    piece.clear();
    more = r.body_producer(&piece);
  }
  stream.ends();
}

// Bytes received for the request in progress on one connection (kept in the peer's data).
struct RequestBytes {
  size_t received = 0;
  bool started = false;   // the connection's first bytes have been seen
  bool rejected = false;  // answered with an error; the rest of the input is discarded
};
constexpr const char* kRequestBytesKey = "dq.request_bytes";

std::shared_ptr<RequestBytes> BytesOf(const std::shared_ptr<Tcp::Peer>& peer) {
  if (auto data = peer->tryGetData(kRequestBytesKey)) {
    return std::static_pointer_cast<RequestBytes>(data);
  }
  auto bytes = std::make_shared<RequestBytes>();
  peer->putData(kRequestBytesKey, bytes);
  return bytes;
}

// The API handler: a complete request in, the Gateway's response out.
class ApiHandler final : public Http::Handler {
 public:
  HTTP_PROTOTYPE(ApiHandler)

  explicit ApiHandler(Gateway* gateway) : gateway_(gateway) {}

  void onRequest(const Http::Request& req, Http::ResponseWriter writer) override {
    // The request is complete: the next bytes on this connection start a new one.
    if (auto peer = writer.peer()) BytesOf(peer)->received = 0;
    HttpRequest request;
    try {
      request = Convert(req);
    } catch (const std::exception& e) {
      // An unparseable header value; answer rather than let Pistache send plain text.
      Send(ErrorResponse(Status(ErrorCode::kInvalidRequest, "The request headers are malformed.")),
           NewUuidV4(), writer);
      return;
    }
    const HttpResponse response = gateway_->Handle(request);
    Send(response, request.request_id, writer, WantsKeepAlive(req));
  }

  void onTimeout(const Http::Request&, Http::ResponseWriter writer) override {
    HttpResponse r = JsonResponse(
        408, R"({"error":"request_timeout","message":"The request was not received in time."})");
    Send(r, NewUuidV4(), writer);
  }

 private:
  Gateway* gateway_;
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

// Pistache buffers a whole request and, past its buffer limit, answers a plain-text 413 from
// code no handler can override. The guard sits in front of the ApiHandler: it counts each
// connection's request bytes and, past the cap, answers a JSON 413 itself (and discards the rest
// of that connection's input, so memory stays bounded); below the cap it passes every byte on
// to the ApiHandler through Pistache's public Tcp::Handler interface. Pistache's own limit is
// set above the cap, so its plain-text answer is never reached.
class GuardHandler final : public Http::Handler {
 public:
  GuardHandler(Gateway* gateway, size_t cap)
      : gateway_(gateway), cap_(cap), inner_(std::make_shared<ApiHandler>(gateway)) {}

  // One guard (and one inner handler) per Pistache worker, with the prototype's settings.
  std::shared_ptr<Tcp::Handler> clone() const override {
    auto copy = std::make_shared<GuardHandler>(gateway_, cap_);
    copy->setMaxRequestSize(getMaxRequestSize());
    copy->setMaxResponseSize(getMaxResponseSize());
    copy->setHeaderTimeout(getHeaderTimeout());
    copy->setBodyTimeout(getBodyTimeout());
    return copy;
  }

  // Never called: complete requests are handled by the inner ApiHandler.
  void onRequest(const Http::Request&, Http::ResponseWriter) override {}

 private:
  void onInput(const char* buffer, size_t len, const std::shared_ptr<Tcp::Peer>& peer) override {
    if (!associated_) {
      (static_cast<Tcp::Handler&>(*inner_).*AssociateMember(AssociateTag{}))(transport());
      associated_ = true;
    }
    auto bytes = BytesOf(peer);
    if (bytes->rejected) return;
    // The connection's first request line, if the library would answer it with plain text or
    // not at all, gets the JSON contract instead. Only the first: with pipelining, later reads
    // may start in the middle of a request.
    const bool first = !bytes->started;
    bytes->started = true;
    if (first && !RequestLineAcceptable(std::string_view(buffer, len))) {
      Reject(peer, *bytes, 400, "Bad Request", "invalid_request",
             "The request line is not a valid HTTP/1.0 or HTTP/1.1 request line.");
      return;
    }
    bytes->received += len;
    if (bytes->received > cap_) {
      Reject(peer, *bytes, 413, "Payload Too Large", "payload_too_large",
             "The request is larger than " + std::to_string(cap_) +
                 " bytes, the most this server accepts.");
      return;
    }
    static_cast<Tcp::Handler&>(*inner_).onInput(buffer, len, peer);
  }

  // True unless `data` (the first bytes of a request) holds a complete first line that is not
  // "METHOD SP TARGET SP HTTP/1.0|1.1". An incomplete line passes: the library parses it later.
  static bool RequestLineAcceptable(std::string_view data) {
    // (RFC 9112 lets a server skip empty lines before a request; Pistache does not, so they
    // are refused here too rather than left to its plain-text answer.)
    const size_t eol = data.find('\n');
    if (eol == std::string_view::npos) return true;
    std::string_view line = data.substr(0, eol);
    if (line.ends_with('\r')) line.remove_suffix(1);
    const size_t sp1 = line.find(' ');
    const size_t sp2 = line.rfind(' ');
    if (sp1 == std::string_view::npos || sp1 == 0 || sp2 == sp1 || sp2 == sp1 + 1) return false;
    for (char c : line.substr(0, sp1)) {  // the method is a token
      if (!std::isalpha(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
    }
    const std::string_view version = line.substr(sp2 + 1);
    return version == "HTTP/1.1" || version == "HTTP/1.0";
  }

  // Answers the request in progress with the JSON error contract, closes the connection for
  // further requests, and discards whatever else arrives on it.
  void Reject(const std::shared_ptr<Tcp::Peer>& peer, RequestBytes& bytes, int status,
              const char* reason, const char* code, const std::string& message) {
    bytes.rejected = true;
    getParser(peer)->reset();  // drop what was buffered of this request
    const std::string body = DumpJson(nlohmann::json{{"error", code}, {"message", message}});
    std::string raw = "HTTP/1.1 " + std::to_string(status) + " " + reason +
                      "\r\nContent-Type: application/json\r\nContent-Length: " +
                      std::to_string(body.size()) +
                      "\r\nConnection: close\r\nX-Request-Id: " + NewUuidV4() + "\r\n\r\n" +
                      body;
    const size_t size = raw.size();
    peer->send(RawBuffer(std::move(raw), size));
    log::Warn("request refused before parsing", {{"status", std::to_string(status)},
                                                  {"error", code}});
  }

  Gateway* gateway_;
  size_t cap_;
  std::shared_ptr<ApiHandler> inner_;
  bool associated_ = false;  // one guard per worker thread: no race
};

}  // namespace

HttpServer::HttpServer(Gateway& gateway, HttpServerOptions options)
    : gateway_(gateway), options_(std::move(options)) {}

HttpServer::~HttpServer() { Shutdown(); }

Status HttpServer::Start() {
  try {
    Address addr(options_.bind, Port(static_cast<uint16_t>(options_.port)));
    endpoint_ = std::make_unique<Http::Endpoint>(addr);
    auto opts = Http::Endpoint::options()
                    .threads(options_.threads)
                    // Pistache's own limit sits above the guard's, so the guard answers first.
                    .maxRequestSize(options_.max_request_bytes + (1 << 20))
                    .flags(Tcp::Options::ReuseAddr)
                    .keepaliveTimeout(std::chrono::seconds(75));
    endpoint_->init(opts);
    endpoint_->setHandler(
        std::make_shared<GuardHandler>(&gateway_, options_.max_request_bytes));
    endpoint_->serveThreaded();
    port_ = static_cast<uint16_t>(endpoint_->getPort());
  } catch (const std::exception& e) {
    endpoint_.reset();
    return Status(ErrorCode::kUnavailable,
                  "cannot listen on " + options_.bind + ":" + std::to_string(options_.port) +
                      ": " + e.what());
  }
  log::Info("gateway listening", {{"port", std::to_string(port_)}});
  return Status::Ok();
}

void HttpServer::Shutdown() {
  if (endpoint_) {
    endpoint_->shutdown();
    endpoint_.reset();
  }
}

}  // namespace dq::gateway
