#include "dq/common/grpc_health_server.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>

namespace dq {

GrpcHealthServer::GrpcHealthServer(std::string bind, int port, std::function<bool()> ready)
    : bind_(std::move(bind)), port_(port), ready_(std::move(ready)) {}

GrpcHealthServer::~GrpcHealthServer() { Shutdown(); }

Status GrpcHealthServer::Start() {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  const std::string host = bind_.find(':') != std::string::npos ? "[" + bind_ + "]" : bind_;
  int bound = 0;
  builder.AddListeningPort(host + ":" + std::to_string(port_), grpc::InsecureServerCredentials(),
                           &bound);
  cq_ = builder.AddCompletionQueue();
  server_ = builder.BuildAndStart();
  if (!server_ || bound == 0) {
    server_.reset();
    cq_->Shutdown();
    void* tag = nullptr;
    bool ok = false;
    while (cq_->Next(&tag, &ok)) {
    }
    cq_.reset();
    return Status(ErrorCode::kUnavailable,
                  "cannot listen on " + bind_ + ":" + std::to_string(port_) + " (gRPC health)");
  }
  port_ = bound;
  cq_drainer_ = std::thread([this] {
    void* tag = nullptr;
    bool ok = false;
    while (cq_->Next(&tag, &ok)) {
    }
  });
  auto* health = server_->GetHealthCheckService();
  health->SetServingStatus(ready_());
  poller_ = std::thread([this, health] {
    while (!stop_) {
      for (int i = 0; i < 10 && !stop_; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      if (!stop_) health->SetServingStatus(ready_());
    }
  });
  return Status::Ok();
}

void GrpcHealthServer::Shutdown() {
  stop_ = true;
  if (poller_.joinable()) poller_.join();
  if (server_) {
    server_->GetHealthCheckService()->SetServingStatus(false);
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
    cq_->Shutdown();
    if (cq_drainer_.joinable()) cq_drainer_.join();
    server_.reset();
    cq_.reset();
  }
}

}  // namespace dq
