#include "stack.h"

#include <csignal>
#include <functional>
#include <stdexcept>
#include <string>

namespace dq::testing {

Stack::Stack(StackOptions options) : options_(std::move(options)) {
  redis_ = std::make_unique<RedisServer>(options_.appendonly);
  RedisOptions ro;
  ro.port = redis_->port();
  client_ = std::make_unique<RedisClient>(ro);
  accounts_ = std::make_unique<RedisAccountStore>(*client_, SystemClock::Instance());
  validator_port_ = FreePort();
  validator_ops_port_ = FreePort();
  // A port free when picked can be taken by another test's process before a service binds it
  // (tests run in parallel): the service then exits at once, and it is given other ports.
  auto with_fresh_ports = [](const std::function<void()>& start, const std::function<void()>& repick) {
    for (int attempt = 1;; ++attempt) {
      try {
        start();
        return;
      } catch (const std::runtime_error& e) {
        const bool taken = std::string(e.what()).find("already in use") != std::string::npos;
        if (!taken || attempt == 3) throw;
        repick();
      }
    }
  };
  with_fresh_ports([&] { StartValidator(); }, [&] {
    validator_port_ = FreePort();
    validator_ops_port_ = FreePort();
  });
  for (int i = 0; i < options_.gateways; ++i) {
    gateway_ports_.push_back(FreePort());
    gateway_ops_ports_.push_back(FreePort());
    gateways_.emplace_back();
    with_fresh_ports([&] { StartGateway(i); }, [&] {
      gateway_ports_[i] = FreePort();
      gateway_ops_ports_[i] = FreePort();
    });
  }
  for (int i = 0; i < options_.worker_processes; ++i) {
    worker_ops_ports_.push_back(FreePort());
    workers_.emplace_back();
    StartWorker(i);
  }
}

Stack::~Stack() {
  for (auto& w : workers_) w.reset();
  for (auto& g : gateways_) g.reset();
  validator_.reset();
}

std::string Stack::GatewayUrl(int i) const {
  return "http://127.0.0.1:" + std::to_string(gateway_ports_[i]);
}

std::string Stack::GatewayOpsUrl(int i) const {
  return "http://127.0.0.1:" + std::to_string(gateway_ops_ports_[i]);
}

void Stack::StartValidator() {
  validator_ = std::make_unique<ChildProcess>(
      DQ_VALIDATOR_BIN, std::map<std::string, std::string>{
                            {"DQ_VALIDATOR_BIND", "127.0.0.1"},
                            {"DQ_VALIDATOR_PORT", std::to_string(validator_port_)},
                            {"DQ_VALIDATOR_OPS_PORT", std::to_string(validator_ops_port_)}});
  // Ours listening, not another process on the port: it must still be running once it answers.
  if (!WaitFor([&] { return !validator_->Running() || TcpConnects(validator_port_); },
               std::chrono::seconds(15)) ||
      !validator_->Running()) {
    throw std::runtime_error("validator did not start: " + validator_->Log());
  }
}

void Stack::StopValidator() {
  validator_->Stop(SIGKILL);
}

std::map<std::string, std::string> Stack::CommonEnv() const {
  return {
      {"DQ_GATEWAY_BIND", "127.0.0.1"},
      {"DQ_REDIS_PORT", std::to_string(redis_->port())},
      {"DQ_VALIDATOR_ADDR", "127.0.0.1:" + std::to_string(validator_port_)},
      {"DQ_VALIDATOR_TIMEOUT_MS", "3000"},
      {"DQ_REDIS_TIMEOUT_MS", "500"},
      {"DQ_SHUTDOWN_GRACE_MS", "0"},  // tests stop gateways often; drains are tested apart
      // Job files: one directory per stack, shared by its gateways and workers.
      {"DQ_ARTIFACT_DIR", "/tmp/dq-test-artifacts/" + std::to_string(redis_->port())},
  };
}

std::string Stack::WorkerOpsUrl(int i) const {
  return "http://127.0.0.1:" + std::to_string(worker_ops_ports_[i]);
}

void Stack::StartWorker(int i) {
  while (static_cast<int>(workers_.size()) <= i) {  // a worker the options did not start
    worker_ops_ports_.push_back(FreePort());
    workers_.emplace_back();
  }
  std::map<std::string, std::string> env = CommonEnv();
  env["DQ_ROLE"] = "worker";
  env["DQ_GATEWAY_OPS_PORT"] = std::to_string(worker_ops_ports_[i]);
  for (const auto& [k, v] : options_.worker_env) env[k] = v;
  workers_[i] = std::make_unique<ChildProcess>(DQ_GATEWAY_BIN, env);
  const std::string url = WorkerOpsUrl(i) + "/healthz";
  if (!WaitFor([&] { return Http("GET", url).status == 200; }, std::chrono::seconds(15))) {
    throw std::runtime_error("worker did not start: " + workers_[i]->Log());
  }
}

void Stack::StartGateway(int i) {
  std::map<std::string, std::string> env = CommonEnv();
  env["DQ_GATEWAY_PORT"] = std::to_string(gateway_ports_[i]);
  env["DQ_GATEWAY_OPS_PORT"] = std::to_string(gateway_ops_ports_[i]);
  if (options_.worker_processes > 0) env["DQ_ROLE"] = "api";
  for (const auto& [k, v] : options_.gateway_env) env[k] = v;
  gateways_[i] = std::make_unique<ChildProcess>(DQ_GATEWAY_BIN, env);
  const std::string url = GatewayUrl(i) + "/healthz";
  // Ours answering, not another process on the port: it must still be running once it answers.
  auto& gateway = *gateways_[i];
  if (!WaitFor([&] { return !gateway.Running() || Http("GET", url).status == 200; },
               std::chrono::seconds(15)) ||
      !gateway.Running()) {
    throw std::runtime_error("gateway did not start: " + gateway.Log());
  }
}

void Stack::RestartGateway(int i) {
  gateways_[i]->Kill9();
  StartGateway(i);
}

void Stack::GracefulRestartGateway(int i) {
  gateways_[i]->Stop(SIGTERM, std::chrono::seconds(30));
  StartGateway(i);
}

std::pair<std::string, std::string> Stack::NewAccount(Plan plan) {
  auto account = accounts_->CreateAccount(plan, "test");
  if (!account.ok()) throw std::runtime_error(account.status().message());
  auto key = accounts_->CreateKey(account->id);
  if (!key.ok()) throw std::runtime_error(key.status().message());
  return {account->id, key->api_key};
}

}  // namespace dq::testing
