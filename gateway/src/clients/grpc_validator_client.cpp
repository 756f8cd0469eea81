#include "grpc_validator_client.h"

#include "dq/common/log.h"

#include <grpcpp/generic/generic_stub.h>

#include <condition_variable>
#include <mutex>

namespace dq::gateway {

Status FromGrpcStatus(const grpc::Status& status) {
  // gRPC's own text (addresses, library internals) is logged, never shown to the caller.
  if (status.ok()) return Status::Ok();
  log::Warn("validator call failed", {{"grpc_code", std::to_string(status.error_code())},
                                      {"grpc_message", status.error_message()}});
  // An answer too large to carry (many issues carrying long values): retrying cannot cure it.
  // The validator bounds its answer before building it (OUT_OF_RANGE); the channel's own limit
  // catches what slips past (RESOURCE_EXHAUSTED with this text).
  if (status.error_code() == grpc::StatusCode::OUT_OF_RANGE ||
      (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED &&
       status.error_message().rfind("Received message larger than max", 0) == 0)) {
    return Status(ErrorCode::kPayloadTooLarge,
                  "The answer would be larger than 64 MiB: too many issues carrying long "
                  "values. Send fewer records, shorter values, or fewer fields mapped to one "
                  "column.");
  }
  switch (status.error_code()) {
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
    case grpc::StatusCode::CANCELLED:
      return Status(ErrorCode::kUnavailable,
                    "The validation service is unavailable; retry shortly.");
    default:
      return Status(ErrorCode::kInternal,
                    "The validation service could not process the request.");
  }
}

GrpcValidatorClient::GrpcValidatorClient(const std::string& target,
                                         std::chrono::milliseconds deadline)
    : deadline_(deadline) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 * 1024 * 1024);
  args.SetMaxSendMessageSize(64 * 1024 * 1024);
  // Spread calls over every validator replica a DNS name resolves to.
  args.SetLoadBalancingPolicyName("round_robin");
  // Reconnect quickly after the validator restarts (default backoff grows to 2 minutes).
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  channel_ = grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
  stub_ = validator::v1::Validator::NewStub(channel_);
}

Status GrpcValidatorClient::Validate(const validator::v1::ValidateRequest& request,
                                     validator::v1::ValidateResponse* response) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + deadline_);
  return FromGrpcStatus(stub_->Validate(&ctx, request, response));
}

Status GrpcValidatorClient::ValidateBy(const validator::v1::ValidateRequest& request,
                                       validator::v1::ValidateResponse* response,
                                       std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) {
    return Status(ErrorCode::kUnavailable, "The validation service is unavailable; retry shortly.");
  }
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::min(deadline_, left));
  return FromGrpcStatus(stub_->Validate(&ctx, request, response));
}

bool GrpcValidatorClient::Healthy() {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
  // grpc.health.v1.HealthCheckRequest{service: ""} is the empty message.
  grpc::Slice empty("", 0);
  grpc::ByteBuffer req(&empty, 1);
  grpc::ByteBuffer resp;
  grpc::GenericStub generic(channel_);
  grpc::Status status;
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  generic.UnaryCall(&ctx, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &req, &resp,
                    [&](grpc::Status s) {
                      std::lock_guard lock(mu);
                      status = std::move(s);
                      done = true;
                      cv.notify_one();
                    });
  std::unique_lock lock(mu);
  cv.wait(lock, [&] { return done; });
  if (!status.ok()) return false;
  // HealthCheckResponse{status = SERVING (1)} encodes as field 1, varint 1: bytes 08 01.
  std::vector<grpc::Slice> slices;
  resp.Dump(&slices);
  std::string bytes;
  for (const auto& s : slices) bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return bytes == std::string("\x08\x01", 2);
}

}  // namespace dq::gateway
