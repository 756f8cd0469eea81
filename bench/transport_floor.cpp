// The floor the fixed design puts under POST /v1/validate: the gateway's own HTTP server
// (Pistache behind the edge, as dq-gateway serves) and a gRPC hop to a second process, with no
// work on either side. scripts/bench-validate-floor.sh runs each rung with the same body and wrk
// load as the real stack, so the CPU a call of each rung is the least that layer can cost on this
// machine, whatever the code above it does (docs/PERFORMANCE.md, "The floor under a validate
// call").
//
//   transport_floor capture BODY VALIDATOR_ADDR OUT_DIR
//       Reads BODY as the gateway does, calls the real validator once, and writes the validator
//       request and answer (protobuf wire bytes) to OUT_DIR/request.pb and OUT_DIR/response.pb.
//   transport_floor work OUT_DIR [CALLS]
//       The validator's whole work on OUT_DIR/request.pb, in process and on one thread, as its
//       Validate does it without gRPC (the rules, cross-row checks, the answer's bytes encoded
//       by AnswerWire): CPU ms a call, the median of CALLS (default 2,000) calls in 10 batches.
//   transport_floor grpc-messages PORT OUT_DIR
//       A Validator service (synchronous, as dq-validator is) that parses each request and
//       answers a copy of OUT_DIR/response.pb: gRPC and protobuf with dq's messages, no rules.
//   transport_floor grpc-bytes PORT ANSWER
//       The same server with one bytes-in, bytes-out method answering ANSWER's bytes: the least
//       any message design could cost.
//   transport_floor http PORT ANSWER [messages VALIDATOR_ADDR OUT_DIR | bytes VALIDATOR_ADDR]
//       dq-gateway's HttpServer answering every request with ANSWER's bytes; with `messages`,
//       each request first calls grpc-messages with OUT_DIR/request.pb (serialized per call, the
//       answer parsed onto an arena, as the gateway does); with `bytes`, grpc-bytes with the
//       request's body.
//
// A benchmark fixture, never a service: loopback only, no authentication, no limits beyond the
// edge's defaults.
#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/client_unary_call.h>
#include <grpcpp/impl/codegen/method_handler.h>
#include <grpcpp/impl/codegen/rpc_service_method.h>

#include <google/protobuf/arena.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "clients/grpc_validator_client.h"
#include "dq/common/allocator.h"
#include "dq/validator/v1/validator.grpc.pb.h"
#include "dq/http/pistache_server.h"
#include "rpc/stream_validation.h"
#include "validate/validate_request.h"

namespace dq::gateway {
namespace {

constexpr const char* kBytesMethod = "/dq.bench.v1.Floor/Call";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "transport_floor: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) {
    std::fprintf(stderr, "transport_floor: cannot write %s\n", path.c_str());
    std::exit(2);
  }
}

std::shared_ptr<grpc::Channel> Channel(const std::string& addr) {
  grpc::ChannelArguments args;  // the gateway's limits (grpc_validator_client.cpp)
  args.SetMaxReceiveMessageSize(64 * 1024 * 1024);
  args.SetMaxSendMessageSize(64 * 1024 * 1024);
  return grpc::CreateCustomChannel(addr, grpc::InsecureChannelCredentials(), args);
}

int Capture(const std::string& body_path, const std::string& addr, const std::string& dir) {
  const std::string body = ReadFile(body_path);
  auto command = ParseValidateRequest(body, 1000);
  if (!command.ok()) {
    std::fprintf(stderr, "transport_floor: %s\n", command.status().message().c_str());
    return 1;
  }
  auto request = BuildValidatorRequest(*command);
  if (!request.ok()) {
    std::fprintf(stderr, "transport_floor: %s\n", request.status().message().c_str());
    return 1;
  }
  GrpcValidatorClient client(addr, std::chrono::seconds(10));
  validator::v1::ValidateResponse response;
  if (Status s = client.Validate(*request, &response); !s.ok()) {
    std::fprintf(stderr, "transport_floor: the validator: %s\n", s.message().c_str());
    return 1;
  }
  WriteFile(dir + "/request.pb", request->SerializeAsString());
  WriteFile(dir + "/response.pb", response.SerializeAsString());
  std::printf("# validator request %zu bytes, its answer %zu bytes (%d issues)\n",
              request->ByteSizeLong(), response.ByteSizeLong(), response.issues_size());
  return 0;
}

volatile size_t benchmark_sink = 0;  // keeps the encoded answer from being optimised away

double ThreadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

int Work(const std::string& dir, int calls) {
  validator::v1::ValidateRequest request;
  if (!request.ParseFromString(ReadFile(dir + "/request.pb"))) {
    std::fprintf(stderr, "transport_floor: %s/request.pb does not parse\n", dir.c_str());
    return 2;
  }
  const auto& ref = validator::ReferenceData::Default();
  constexpr int kBatches = 10;
  const int per_batch = std::max(1, calls / kBatches);
  std::vector<double> batch_ms;
  size_t issues = 0;
  for (int b = 0; b <= kBatches; ++b) {  // batch 0 warms up
    const double start = ThreadCpuMs();
    for (int i = 0; i < per_batch; ++i) {
      validator::rpc::BatchAnswer answer;
      if (Status s = validator::rpc::CheckBatch(ref, request, &answer); !s.ok()) {
        std::fprintf(stderr, "transport_floor: %s\n", s.message().c_str());
        return 1;
      }
      const validator::rpc::AnswerWire wire(answer);
      std::string bytes(wire.Size(), '\0');
      wire.WriteTo(bytes.data());
      benchmark_sink = bytes.size();
      issues = answer.issues.size();
    }
    if (b > 0) batch_ms.push_back((ThreadCpuMs() - start) / per_batch);
  }
  std::sort(batch_ms.begin(), batch_ms.end());
  std::printf("# the validator's work in process, one thread (%zu issues a call): %.3f ms a call "
              "(median of %d batches of %d; range %.3f-%.3f)\n",
              issues, batch_ms[batch_ms.size() / 2], kBatches, per_batch, batch_ms.front(),
              batch_ms.back());
  return 0;
}

// dq-validator's Validate without the rules: the request parsed, a ready answer copied.
class MessagesService final : public validator::v1::Validator::Service {
 public:
  explicit MessagesService(validator::v1::ValidateResponse answer) : answer_(std::move(answer)) {}
  grpc::Status Validate(grpc::ServerContext*, const validator::v1::ValidateRequest* request,
                        validator::v1::ValidateResponse* response) override {
    if (request->spec().fields_size() == 0) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no fields");
    }
    response->CopyFrom(answer_);
    return grpc::Status::OK;
  }

 private:
  const validator::v1::ValidateResponse answer_;
};

// One unary method on raw bytes, served by the same synchronous server.
class BytesService final : public grpc::Service {
 public:
  explicit BytesService(const std::string& answer) {
    grpc::Slice slice(answer);
    answer_ = grpc::ByteBuffer(&slice, 1);
    AddMethod(new grpc::internal::RpcServiceMethod(
        kBytesMethod, grpc::internal::RpcMethod::NORMAL_RPC,
        new grpc::internal::RpcMethodHandler<BytesService, grpc::ByteBuffer, grpc::ByteBuffer,
                                             grpc::ByteBuffer, grpc::ByteBuffer>(
            [](BytesService* service, grpc::ServerContext*, const grpc::ByteBuffer* request,
               grpc::ByteBuffer* response) {
              if (request->Length() == 0) {
                return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "empty");
              }
              *response = service->answer_;  // shares the slice: no copy
              return grpc::Status::OK;
            },
            this)));
  }

 private:
  grpc::ByteBuffer answer_;
};

int Serve(grpc::Service& service, int port) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:" + std::to_string(port),
                           grpc::InsecureServerCredentials());
  builder.SetMaxReceiveMessageSize(64 * 1024 * 1024);  // as dq-validator
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  if (!server) {
    std::fprintf(stderr, "transport_floor: cannot listen on %d\n", port);
    return 1;
  }
  server->Wait();
  return 0;
}

// What the HTTP server runs for each request: nothing, or one of the two gRPC calls.
class FloorService final : public http::HttpService {
 public:
  enum class Hop { kNone, kMessages, kBytes };
  FloorService(std::string answer, Hop hop, const std::string& addr, const std::string& dir)
      : answer_(std::move(answer)), hop_(hop) {
    if (hop_ == Hop::kNone) return;
    channel_ = Channel(addr);
    if (hop_ == Hop::kMessages) {
      stub_ = validator::v1::Validator::NewStub(channel_);
      if (!request_.ParseFromString(ReadFile(dir + "/request.pb"))) {
        std::fprintf(stderr, "transport_floor: %s/request.pb does not parse\n", dir.c_str());
        std::exit(2);
      }
    }
  }

  http::HttpResponse Handle(const http::HttpRequest& request) override {
    if (request.body.empty()) return Error(400, "no body");
    if (hop_ == Hop::kMessages) {
      google::protobuf::Arena arena;  // as Gateway::Validate: the answer parsed onto an arena
      auto* answer =
          google::protobuf::Arena::CreateMessage<validator::v1::ValidateResponse>(&arena);
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
      if (!stub_->Validate(&ctx, request_, answer).ok() || answer->stats().rows() == 0) {
        return Error(503, "the floor's gRPC server did not answer");
      }
    } else if (hop_ == Hop::kBytes) {
      grpc::Slice slice(request.body);
      grpc::ByteBuffer out(&slice, 1);
      grpc::ByteBuffer in;
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
      const grpc::internal::RpcMethod method(kBytesMethod, grpc::internal::RpcMethod::NORMAL_RPC);
      grpc::Status s =
          grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer, grpc::ByteBuffer,
                                            grpc::ByteBuffer>(channel_.get(), method, &ctx, out,
                                                              &in);
      if (!s.ok() || in.Length() != answer_.size()) {
        return Error(503, "the floor's gRPC server did not answer");
      }
    }
    http::HttpResponse r;
    r.body = answer_;  // the gateway makes its answer as a fresh string too
    return r;
  }
  std::optional<http::HttpResponse> Admit(const http::HttpRequest&,
                                          std::optional<size_t>) override {
    return std::nullopt;
  }
  http::HttpResponse TransportError(const http::HttpRequest&, const Status& status) override {
    return Error(400, status.message());
  }

 private:
  static http::HttpResponse Error(int status, const std::string& message) {
    http::HttpResponse r;
    r.status = status;
    r.body = "{\"error\":\"" + message + "\"}";
    return r;
  }

  const std::string answer_;
  const Hop hop_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<validator::v1::Validator::Stub> stub_;
  validator::v1::ValidateRequest request_;
};

int ServeHttp(int port, const std::string& answer_path, FloorService::Hop hop,
              const std::string& addr, const std::string& dir) {
  // Blocked before any thread starts, so that every thread inherits the mask and sigwait below
  // takes SIGTERM and SIGINT for a clean shutdown.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  FloorService service(ReadFile(answer_path), hop, addr, dir);
  http::HttpServerOptions options;
  options.bind = "127.0.0.1";
  options.port = port;
  options.threads = 8;  // DQ_GATEWAY_THREADS' default
  http::HttpServer server(service, options);
  if (Status s = server.Start(); !s.ok()) {
    std::fprintf(stderr, "transport_floor: %s\n", s.message().c_str());
    return 1;
  }
  int sig = 0;
  sigwait(&set, &sig);
  server.Shutdown();
  return 0;
}

int Usage() {
  std::fprintf(stderr,
               "usage: transport_floor capture BODY VALIDATOR_ADDR OUT_DIR\n"
               "       transport_floor work OUT_DIR [CALLS]\n"
               "       transport_floor grpc-messages PORT OUT_DIR\n"
               "       transport_floor grpc-bytes PORT ANSWER\n"
               "       transport_floor http PORT ANSWER [messages ADDR OUT_DIR | bytes ADDR]\n");
  return 2;
}

}  // namespace
}  // namespace dq::gateway

int main(int argc, char** argv) {
  using namespace dq::gateway;
  dq::TuneAllocator(std::getenv("GLIBC_TUNABLES"));  // as the services' mains
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "capture" && argc == 5) return Capture(argv[2], argv[3], argv[4]);
  if (mode == "work" && (argc == 3 || argc == 4)) {
    return Work(argv[2], argc == 4 ? std::atoi(argv[3]) : 2000);
  }
  if (mode == "grpc-messages" && argc == 4) {
    dq::validator::v1::ValidateResponse answer;
    if (!answer.ParseFromString(ReadFile(std::string(argv[3]) + "/response.pb"))) return Usage();
    MessagesService service(std::move(answer));
    return Serve(service, std::atoi(argv[2]));
  }
  if (mode == "grpc-bytes" && argc == 4) {
    BytesService service(ReadFile(argv[3]));
    return Serve(service, std::atoi(argv[2]));
  }
  if (mode == "http" && argc == 4) {
    return ServeHttp(std::atoi(argv[2]), argv[3], FloorService::Hop::kNone, "", "");
  }
  if (mode == "http" && argc == 7 && std::string(argv[4]) == "messages") {
    return ServeHttp(std::atoi(argv[2]), argv[3], FloorService::Hop::kMessages, argv[5], argv[6]);
  }
  if (mode == "http" && argc == 6 && std::string(argv[4]) == "bytes") {
    return ServeHttp(std::atoi(argv[2]), argv[3], FloorService::Hop::kBytes, argv[5], "");
  }
  return Usage();
}
