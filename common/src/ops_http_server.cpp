#include "dq/common/ops_http_server.h"

#include <pistache/endpoint.h>
#include <pistache/http.h>

#include "dq/common/metrics.h"

namespace dq {
namespace {

using namespace Pistache;

class Handler final : public Http::Handler {
 public:
  HTTP_PROTOTYPE(Handler)
  explicit Handler(std::function<bool()> ready) : ready_(std::move(ready)) {}

  void onRequest(const Http::Request& req, Http::ResponseWriter writer) override {
    try {
      const std::string& path = req.resource();
      if (req.method() != Http::Method::Get) {
        Json(writer, Http::Code::Method_Not_Allowed,
             R"({"error":"method_not_allowed","message":"Use GET."})");
      } else if (path == "/healthz") {
        Json(writer, Http::Code::Ok, R"({"status":"ok"})");
      } else if (path == "/readyz") {
        if (ready_()) {
          Json(writer, Http::Code::Ok, R"({"status":"ready"})");
        } else {
          Json(writer, Http::Code::Service_Unavailable,
               R"({"error":"service_unavailable","message":"A dependency is not reachable."})");
        }
      } else if (path == "/metrics") {
        writer.headers().add<Http::Header::ContentType>(
            Http::Mime::MediaType::fromString("text/plain; version=0.0.4"));
        writer.send(Http::Code::Ok, Metrics::Global().Render());
      } else {
        Json(writer, Http::Code::Not_Found,
             R"({"error":"not_found","message":"Try /healthz, /readyz or /metrics."})");
      }
    } catch (const std::exception&) {
      Json(writer, Http::Code::Internal_Server_Error,
           R"({"error":"internal_error","message":"The probe failed."})");
    }
  }

 private:
  static void Json(Http::ResponseWriter& w, Http::Code code, const std::string& body) {
    w.headers().add<Http::Header::ContentType>(MIME(Application, Json));
    w.send(code, body);
  }
  std::function<bool()> ready_;
};

}  // namespace

OpsHttpServer::OpsHttpServer(std::string bind, int port, std::function<bool()> ready)
    : bind_(std::move(bind)), port_(port), ready_(std::move(ready)) {}

OpsHttpServer::~OpsHttpServer() { Shutdown(); }

Status OpsHttpServer::Start() {
  try {
    Address addr(bind_, Port(static_cast<uint16_t>(port_)));
    endpoint_ = std::make_unique<Http::Endpoint>(addr);
    endpoint_->init(Http::Endpoint::options().threads(1).flags(Tcp::Options::ReuseAddr));
    endpoint_->setHandler(Http::make_handler<Handler>(ready_));
    endpoint_->serveThreaded();
    port_ = static_cast<uint16_t>(endpoint_->getPort());
  } catch (const std::exception& e) {
    endpoint_.reset();
    return Status(ErrorCode::kUnavailable,
                  "cannot listen on " + bind_ + ":" + std::to_string(port_) + ": " + e.what());
  }
  return Status::Ok();
}

void OpsHttpServer::Shutdown() {
  if (endpoint_) {
    endpoint_->shutdown();
    endpoint_.reset();
  }
}

}  // namespace dq
