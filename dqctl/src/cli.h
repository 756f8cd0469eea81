// dqctl: the admin CLI for accounts, plans, keys, quotas and webhooks, until the web console
// exists. Each command prints one JSON object on stdout; errors go to stderr as
// {"error": ..., "message": ...} with a non-zero exit code.
//
//   dqctl account create --plan pro [--name "Acme"]
//   dqctl account show --account ID
//   dqctl account list
//   dqctl account set-plan --account ID --plan business
//   dqctl account set-quota --account ID --records N      (N = -1 clears the override)
//   dqctl key create --account ID
//   dqctl key list --account ID
//   dqctl key revoke --account ID --key KEY_ID
//   dqctl webhook set --account ID --url URL [--secret S]
//   dqctl webhook show --account ID
//   dqctl webhook deliveries --account ID [--limit N]   (the last attempts and the dead letters)
//   dqctl webhook redeliver --account ID --delivery DELIVERY_ID
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "delivery_log.h"
#include "dq/common/account_store.h"

namespace dq::cli {

struct CliOptions {
  bool allow_http_webhooks = false;  // DQ_WEBHOOK_ALLOW_HTTP
};

// Runs one command. Exit codes: 0 success, 1 failed (store error, not found), 2 usage error.
// deliveries may be null when the command line has no webhook log (tests of other commands).
int Run(const std::vector<std::string>& args, AccountStore& store,
        notifier::RedisDeliveryLog* deliveries, const CliOptions& options, std::ostream& out,
        std::ostream& err);

std::string Usage();

}  // namespace dq::cli
