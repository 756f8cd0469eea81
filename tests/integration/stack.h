// A real dq stack for integration tests: redis-server, dq-validator and one or more dq-gateway
// processes on free loopback ports, started per test fixture and stopped afterwards. With
// worker_processes > 0 the gateways run DQ_ROLE=api (unless gateway_env says otherwise) and that
// many extra dq-gateway processes run DQ_ROLE=worker, each with only its ops port.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dq/common/account_store.h"
#include "dq/common/redis_client.h"
#include "dq/testing/harness.h"

namespace dq::testing {

struct StackOptions {
  int gateways = 1;
  bool appendonly = false;
  std::map<std::string, std::string> gateway_env;  // extra DQ_* for every gateway
  int worker_processes = 0;
  std::map<std::string, std::string> worker_env = {};  // extra DQ_* for every worker process
};

class Stack {
 public:
  explicit Stack(StackOptions options = {});
  ~Stack();

  std::string GatewayUrl(int i = 0) const;
  RedisServer& redis() { return *redis_; }
  ChildProcess& validator() { return *validator_; }
  int validator_port() const { return validator_port_; }
  int validator_ops_port() const { return validator_ops_port_; }
  ChildProcess& gateway(int i = 0) { return *gateways_[i]; }
  AccountStore& accounts() { return *accounts_; }

  // Starts (or restarts) the validator on its port and waits for it.
  void StartValidator();
  void StopValidator();
  // Kills and restarts gateway i on the same port.
  void RestartGateway(int i);
  // SIGTERM (the gateway drains and exits by itself), then a new process on the same port: what
  // a rolling update does to one replica.
  void GracefulRestartGateway(int i);

  // Worker-role process i: its process, its ops URL (/healthz, /readyz, /metrics).
  ChildProcess& worker(int i = 0) { return *workers_[i]; }
  std::string WorkerOpsUrl(int i = 0) const;
  // Starts (or restarts) worker process i (any i up to the count so far) and waits until its
  // ops port answers.
  void StartWorker(int i);

  // An account on `plan` with one key: {account_id, api_key}.
  std::pair<std::string, std::string> NewAccount(Plan plan = Plan::kPro);

 private:
  void StartGateway(int i);
  std::map<std::string, std::string> CommonEnv() const;

  StackOptions options_;
  std::unique_ptr<RedisServer> redis_;
  std::unique_ptr<RedisClient> client_;
  std::unique_ptr<RedisAccountStore> accounts_;
  int validator_port_ = 0;
  int validator_ops_port_ = 0;
  std::unique_ptr<ChildProcess> validator_;
  std::vector<int> gateway_ports_;
  std::vector<std::unique_ptr<ChildProcess>> gateways_;
  std::vector<int> worker_ops_ports_;
  std::vector<std::unique_ptr<ChildProcess>> workers_;
};

}  // namespace dq::testing
