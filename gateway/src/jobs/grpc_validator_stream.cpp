#include "grpc_validator_stream.h"

#include "clients/grpc_validator_client.h"

namespace dq::gateway {
namespace {

using validator::v1::ValidateStreamRequest;
using validator::v1::ValidateStreamResponse;

class GrpcValidatorStream final : public ValidatorStream {
 public:
  GrpcValidatorStream(validator::v1::Validator::Stub& stub, std::chrono::milliseconds deadline) {
    ctx_.set_deadline(std::chrono::system_clock::now() + deadline);
    stream_ = stub.ValidateStream(&ctx_);
  }
  ~GrpcValidatorStream() override {
    if (!finished_) Cancel();
  }

  Status Start(const validator::v1::BatchSpec& spec) override {
    request_.Clear();
    *request_.mutable_spec() = spec;
    return Write();
  }
  Status Send(const validator::v1::RowChunk& chunk) override {
    // The request points at the caller's chunk for the length of the write instead of holding a
    // copy of it (a chunk is ~1 MB of rows): serialising only reads it, and the pointer is
    // released, not freed, before Send returns.
    request_.Clear();
    request_.unsafe_arena_set_allocated_chunk(const_cast<validator::v1::RowChunk*>(&chunk));
    Status s = Write();
    request_.unsafe_arena_release_chunk();
    return s;
  }
  Status Receive(validator::v1::IssueChunk* out) override {
    if (!stream_->Read(&response_) || !response_.has_issues()) return Broken();
    out->Swap(response_.mutable_issues());
    return Status::Ok();
  }
  Status WritesDone() override {
    if (!stream_->WritesDone()) return Broken();
    return Status::Ok();
  }
  Result<bool> Tail(ValidateStreamResponse* out) override {
    if (stream_->Read(out)) return true;
    finished_ = true;
    grpc::Status s = stream_->Finish();
    if (!s.ok()) return FromGrpcStatus(s);
    return false;
  }
  void Cancel() override {
    if (finished_) return;
    finished_ = true;
    ctx_.TryCancel();
    stream_->Finish();
  }

 private:
  Status Write() {
    if (!stream_->Write(request_)) return Broken();
    return Status::Ok();
  }
  // A failed read or write: the stream's final status says why.
  Status Broken() {
    finished_ = true;
    grpc::Status s = stream_->Finish();  // a failed read or write means the stream is over
    Status mapped = FromGrpcStatus(s);
    if (s.ok() || s.error_code() == grpc::StatusCode::CANCELLED) {
      return Status(ErrorCode::kUnavailable, "validator stream closed");
    }
    return mapped;
  }

  grpc::ClientContext ctx_;
  std::unique_ptr<grpc::ClientReaderWriter<ValidateStreamRequest, ValidateStreamResponse>> stream_;
  ValidateStreamRequest request_;
  ValidateStreamResponse response_;
  bool finished_ = false;
};

}  // namespace

GrpcValidatorStreamFactory::GrpcValidatorStreamFactory(std::shared_ptr<grpc::Channel> channel,
                                                       std::chrono::milliseconds deadline)
    : stub_(validator::v1::Validator::NewStub(std::move(channel))), deadline_(deadline) {}

std::unique_ptr<ValidatorStream> GrpcValidatorStreamFactory::Open() {
  return std::make_unique<GrpcValidatorStream>(*stub_, deadline_);
}

}  // namespace dq::gateway
