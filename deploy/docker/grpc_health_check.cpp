// dq-grpc-health: a container healthcheck for gRPC servers. Calls grpc.health.v1.Health/Check for
// the whole server (service "") and exits 0 only on SERVING. Kubernetes has native gRPC probes;
// this exists for docker-compose/podman healthchecks, since Debian 12 ships no grpc_health_probe.
//
// It needs no generated code: HealthCheckRequest{service: ""} encodes to zero bytes and
// HealthCheckResponse{status: SERVING} to the two bytes 0x08 0x01 (field 1, varint 1).
//
// Usage: dq-grpc-health [host:port] [timeout_ms]     defaults: 127.0.0.1:50051 2000
// Exit:  0 serving, 1 not serving or unreachable (reason on stderr), 2 usage.
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc > 3) {
    std::fprintf(stderr, "usage: dq-grpc-health [host:port] [timeout_ms]\n");
    return 2;
  }
  const std::string target = argc > 1 ? argv[1] : "127.0.0.1:50051";
  const int timeout_ms = argc > 2 ? std::atoi(argv[2]) : 2000;
  if (timeout_ms <= 0) {
    std::fprintf(stderr, "dq-grpc-health: timeout_ms must be a positive integer\n");
    return 2;
  }

  auto channel = grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
  grpc::GenericStub stub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(timeout_ms));

  grpc::Slice empty;
  grpc::ByteBuffer request(&empty, 1);
  grpc::ByteBuffer response;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&context, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request,
                 &response, [&done](grpc::Status status) { done.set_value(std::move(status)); });
  const grpc::Status status = done.get_future().get();
  if (!status.ok()) {
    std::fprintf(stderr, "dq-grpc-health: %s: gRPC status %d: %s\n", target.c_str(),
                 static_cast<int>(status.error_code()), status.error_message().c_str());
    return 1;
  }

  std::vector<grpc::Slice> slices;
  std::string bytes;
  if (response.Dump(&slices).ok()) {
    for (const auto& slice : slices) {
      bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
    }
  }
  if (bytes == std::string("\x08\x01", 2)) {
    std::printf("SERVING\n");
    return 0;
  }
  std::fprintf(stderr, "dq-grpc-health: %s: not SERVING (response %zu bytes)\n", target.c_str(),
               bytes.size());
  return 1;
}
