#include "pistache_server.h"

#include <pistache/endpoint.h>
#include <pistache/http.h>

#include <sstream>

#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "error_response.h"

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
  writer.headers().add<Http::Header::ContentType>(Http::Mime::MediaType::fromString(r.content_type));
  writer.send(static_cast<Http::Code>(r.status), r.body);
}

class Handler final : public Http::Handler {
 public:
  HTTP_PROTOTYPE(Handler)

  explicit Handler(Gateway* gateway) : gateway_(gateway) {}

  void onRequest(const Http::Request& req, Http::ResponseWriter writer) override {
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
                    .maxRequestSize(options_.max_request_bytes)
                    .flags(Tcp::Options::ReuseAddr)
                    .keepaliveTimeout(std::chrono::seconds(75));
    endpoint_->init(opts);
    endpoint_->setHandler(Http::make_handler<Handler>(&gateway_));
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
