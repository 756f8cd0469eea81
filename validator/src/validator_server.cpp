#include "validator_server.h"

#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/resource_quota.h>

#include "dq/common/available_cpus.h"
#include "dq/common/log.h"

namespace dq::validator {

ValidatorConfig ValidatorConfig::FromSettings(const Settings& s) {
  ValidatorConfig c;
  c.bind = s.String("DQ_VALIDATOR_BIND");
  c.port = static_cast<int>(s.Int("DQ_VALIDATOR_PORT"));
  c.max_threads = static_cast<int>(s.Int("DQ_VALIDATOR_THREADS"));
  c.eval_threads = static_cast<int>(s.Int("DQ_VALIDATOR_EVAL_THREADS"));
  c.ops_port = static_cast<int>(s.Int("DQ_VALIDATOR_OPS_PORT"));
  return c;
}

namespace {

size_t EvalThreads(int configured) {
  return configured > 0 ? static_cast<size_t>(configured) : AvailableCpus();
}

}  // namespace

ValidatorServer::ValidatorServer(ValidatorConfig config)
    : config_(std::move(config)),
      pool_(std::make_unique<WorkerPool>(EvalThreads(config_.eval_threads))),
      service_(ReferenceData::Default(), pool_.get()) {}

ValidatorServer::~ValidatorServer() {
  if (server_) server_->Shutdown();
}

bool ValidatorServer::Start() {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  const std::string host = config_.bind.find(':') != std::string::npos
                               ? "[" + config_.bind + "]"
                               : config_.bind;
  builder.AddListeningPort(host + ":" + std::to_string(config_.port),
                           grpc::InsecureServerCredentials(), &bound_port_);
  builder.RegisterService(&service_);
  // Inline batches are small; streamed chunks are bounded by the caller. 64 MiB leaves room.
  builder.SetMaxReceiveMessageSize(64 * 1024 * 1024);
  // Clients balance over the replicas a DNS name resolves to, but only re-resolve when a
  // connection ends. Ending each connection after a few minutes (calls in flight may finish
  // within the grace) lets new replicas receive traffic after a scale-up.
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS, 5 * 60 * 1000);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS, 30 * 60 * 1000);
  if (config_.max_threads > 0) {
    grpc::ResourceQuota quota("dq-validator");
    quota.SetMaxThreads(config_.max_threads);
    builder.SetResourceQuota(quota);
  }
  server_ = builder.BuildAndStart();
  if (!server_ || bound_port_ == 0) return false;
  server_->GetHealthCheckService()->SetServingStatus(true);
  serving_ = true;
  ops_ = std::make_unique<OpsHttpServer>(config_.bind, config_.ops_port,
                                         [this] { return serving_.load(); });
  if (Status s = ops_->Start(); !s.ok()) {
    log::Error("could not start the operations port", {{"error", s.message()}});
    return false;
  }
  const GoogleTaxonomy& taxonomy = ReferenceData::Default().taxonomy();
  log::Info("validator listening",
            {{"port", std::to_string(bound_port_)},
             {"ops_port", std::to_string(ops_->port())},
             {"eval_threads", std::to_string(pool_->threads())},
             // docs/channels.md: without Google's file the category checks stand aside
             {"google_taxonomy", taxonomy.empty() ? std::string("none (scripts/update-taxonomy.sh)")
                                                  : taxonomy.version()}});
  return true;
}

void ValidatorServer::Shutdown(std::chrono::milliseconds grace) {
  if (!server_) return;
  serving_ = false;
  server_->GetHealthCheckService()->SetServingStatus(false);
  server_->Shutdown(std::chrono::system_clock::now() + grace);
  server_->Wait();
  server_.reset();
  if (ops_) ops_->Shutdown();
}

}  // namespace dq::validator
