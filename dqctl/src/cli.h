// dqctl: the admin CLI for accounts, plans, keys, quotas and webhooks. Arguments are parsed by
// CLI11: an unknown flag, a missing value or a missing command is a usage error, and every
// command has --help. Each command prints one JSON object on stdout; errors go to stderr as
// {"error": ..., "message": ...} with a non-zero exit code. Both are made by nlohmann::json.
//
//   dqctl account create --plan pro [--name "Acme"]
//   dqctl account show --account ID
//   dqctl account list
//   dqctl account set-plan --account ID --plan business
//   dqctl account set-quota --account ID --records N      (N = -1 clears the override)
//   dqctl account migrate-plans     (once, after upgrading from a version that kept the plan in
//                                    the account hash)
//   dqctl key create --account ID
//   dqctl key list --account ID
//   dqctl key revoke --account ID --key KEY_ID
//   dqctl webhook set --account ID --url URL [--secret-stdin | --secret-env VAR]
//   dqctl webhook show --account ID
//   dqctl webhook deliveries --account ID [--limit N]   (the last attempts and the dead letters)
//   dqctl webhook redeliver --account ID --delivery DELIVERY_ID
//   dqctl user verify --email E-MAIL   (a console user's address, verified by hand)
//   dqctl --version | --help | <command> --help
//
// Secrets never travel as command-line arguments (they would show in `ps` and shell history):
// the webhook secret is read from standard input (--secret-stdin, first line) or from a named
// environment variable (--secret-env VAR).
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "dq/common/account_store.h"
#include "dq/common/delivery_log.h"

namespace dq::cli {

struct CliOptions {
  bool allow_http_webhooks = false;  // DQ_WEBHOOK_ALLOW_HTTP
  // Where secrets come from: standard input and the environment (injected for tests).
  std::istream* in = nullptr;
  std::function<std::optional<std::string>(const std::string&)> env;
  // `user verify`: marks the console user with this (lower-cased) e-mail verified and returns its
  // account id. Errors: kNotFound, kUnavailable. Null: the command fails.
  std::function<Result<std::string>(const std::string& email)> verify_user;
};

// The console's users as dqctl reaches them (the layout is the gateway's,
// gateway/src/console/user_store.h): dq:email:<e-mail> names the account, whose dq:{acct}:user
// hash gets email_verified 1.
Result<std::string> VerifyUserInRedis(RedisClient& redis, const std::string& email);

// Exit codes of Run.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;  // a store error, an unknown account, ...
inline constexpr int kExitUsage = 2;   // the command line is wrong

// Runs one command line (without the program name). --help and --version print text on out and
// answer 0. deliveries may be null when there is no webhook log (tests of other commands).
int Run(const std::vector<std::string>& args, AccountStore& store,
        webhook::RedisDeliveryLog* deliveries, const CliOptions& options, std::ostream& out,
        std::ostream& err);

}  // namespace dq::cli
