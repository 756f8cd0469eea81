// dqctl against a real redis-server: every command prints one JSON object; errors go to stderr
// as JSON with a non-zero exit.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dq/common/delivery_log.h"
#include "stack.h"

namespace dq::testing {
namespace {

using nlohmann::json;

struct CliResult {
  int exit_code;
  std::string out;
  std::string err;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class DqctlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { redis_ = new RedisServer(); }
  static void TearDownTestSuite() {
    delete redis_;
    redis_ = nullptr;
  }

  // Runs dqctl with args (shell words); stdin_text, when given, is its standard input.
  CliResult Run(const std::string& args, const std::string& stdin_text = "",
                const std::string& env = "") {
    const std::string dir = TempDir();
    std::ofstream(dir + "/in") << stdin_text;
    const std::string cmd = "env -u DQ_REDIS_HOST DQ_REDIS_PORT=" + std::to_string(redis_->port()) +
                            " " + env + " " DQ_DQCTL_BIN " " + args + " <" + dir + "/in >" + dir +
                            "/out 2>" + dir + "/err";
    const int status = std::system(cmd.c_str());
    return {WEXITSTATUS(status), ReadFile(dir + "/out"), ReadFile(dir + "/err")};
  }

  static RedisServer* redis_;
};
RedisServer* DqctlTest::redis_ = nullptr;

TEST_F(DqctlTest, AccountKeyQuotaPlanAndWebhookLifecycle) {
  CliResult created = Run("account create --plan pro --name 'Acme Ltd'");
  ASSERT_EQ(created.exit_code, 0) << created.err;
  json account = json::parse(created.out);
  const std::string id = account["account_id"];
  EXPECT_EQ(id.rfind("acct_", 0), 0u);
  EXPECT_EQ(account["plan"], "pro");
  EXPECT_EQ(account["name"], "Acme Ltd");

  CliResult key = Run("key create --account " + id);
  ASSERT_EQ(key.exit_code, 0) << key.err;
  json k = json::parse(key.out);
  EXPECT_EQ(k["api_key"].get<std::string>().size(), 43u);
  const std::string key_id = k["key_id"];

  EXPECT_EQ(json::parse(Run("account set-plan --account " + id + " --plan agency").out)["plan"],
            "agency");
  EXPECT_EQ(
      json::parse(Run("account set-quota --account " + id + " --records 250").out)["quota_override"],
      250);
  json shown = json::parse(Run("account show --account " + id).out);
  EXPECT_EQ(shown["plan"], "agency");
  EXPECT_EQ(shown["quota_override"], 250);

  CliResult hook = Run("webhook set --account " + id +
                           " --url https://hooks.example.com/dq --secret-stdin",
                       "s3cret\n");
  ASSERT_EQ(hook.exit_code, 0) << hook.err;
  EXPECT_EQ(json::parse(hook.out)["signed"], true);

  CliResult revoked = Run("key revoke --account " + id + " --key " + key_id);
  ASSERT_EQ(revoked.exit_code, 0) << revoked.err;
  EXPECT_EQ(json::parse(revoked.out)["revoked"], true);
  json listed = json::parse(Run("key list --account " + id).out);
  ASSERT_EQ(listed["keys"].size(), 1u);
  EXPECT_FALSE(listed["keys"][0]["revoked_at"].is_null());
}

TEST_F(DqctlTest, WebhookDeliveriesAndRedeliver) {
  const std::string id = json::parse(Run("account create --plan pro").out)["account_id"];
  CliResult empty = Run("webhook deliveries --account " + id);
  ASSERT_EQ(empty.exit_code, 0) << empty.err;
  json log = json::parse(empty.out);
  EXPECT_EQ(log["account_id"], id);
  EXPECT_TRUE(log["deliveries"].is_array());
  EXPECT_TRUE(log["dead_letters"].is_array());
  CliResult missing = Run("webhook redeliver --account " + id + " --delivery nope");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(json::parse(missing.err.substr(0, missing.err.find('\n')))["error"], "not_found");
  EXPECT_EQ(Run("webhook deliveries --account " + id + " --limit 0").exit_code, 2);
  EXPECT_EQ(Run("webhook deliveries --account acct_nobody").exit_code, 1);
  // --status keeps the attempts with that outcome.
  RedisOptions options;
  options.port = redis_->port();
  RedisClient redis(options);
  webhook::RedisDeliveryLog store(redis);
  for (const char* outcome : {"delivered", "retry", "delivered"}) {
    webhook::DeliveryAttempt a;
    a.delivery_id = std::string("d-") + outcome;
    a.outcome = outcome;
    ASSERT_TRUE(store.Record(id, a).ok());
  }
  json retries = json::parse(Run("webhook deliveries --account " + id + " --status retry").out);
  ASSERT_EQ(retries["deliveries"].size(), 1u);
  EXPECT_EQ(retries["deliveries"][0]["outcome"], "retry");
  EXPECT_EQ(json::parse(Run("webhook deliveries --account " + id + " --status delivered --limit 1")
                            .out)["deliveries"]
                .size(),
            1u);
  EXPECT_EQ(Run("webhook deliveries --account " + id + " --status nope").exit_code, 2);
}

TEST_F(DqctlTest, ErrorsAreJsonOnStderrWithNonZeroExit) {
  struct Case {
    std::string args;
    int exit_code;
    std::string error;
  };
  const Case cases[] = {
      {"account create --plan platinum", 2, "usage"},
      {"account create", 2, "usage"},
      {"key create --account acct_doesnotexist", 1, "not_found"},
      {"key revoke --account acct_doesnotexist --key key_x", 1, "not_found"},
      {"account set-quota --account acct_x --records many", 2, "usage"},
      {"webhook set --account acct_x --url http://plain.example.com", 2, "usage"},
      {"frobnicate now", 2, "usage"},
      // CLI11: unknown flags, missing values and missing commands are errors, never ignored.
      {"account create --plan pro --nmae Acme", 2, "usage"},
      {"account create --plan pro --name", 2, "usage"},
      {"account show --account", 2, "usage"},
      {"account show --account ''", 2, "usage"},
      {"account", 2, "usage"},
      {"", 2, "usage"},
      {"key list --account acct_x extra", 2, "usage"},
      {"webhook deliveries --account acct_x --limit 101", 2, "usage"},
      // The secret never goes on the command line.
      {"webhook set --account acct_x --url https://h.example.com --secret s3cret", 2, "usage"},
      {"webhook set --account acct_x --url https://h.example.com --secret-stdin --secret-env V",
       2, "usage"},
      {"webhook set --account acct_x --url https://h.example.com --secret-env DQ_TEST_UNSET_VAR",
       2, "usage"},
      {"webhook set --account acct_x --url https://h.example.com --secret-stdin", 2, "usage"},
  };
  for (const Case& c : cases) {
    CliResult r = Run(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args;
    EXPECT_TRUE(r.out.empty()) << c.args;
    ASSERT_NO_THROW(json::parse(r.err.substr(0, r.err.find('\n')))) << c.args << ": " << r.err;
    EXPECT_EQ(json::parse(r.err.substr(0, r.err.find('\n')))["error"], c.error) << c.args;
  }
}

TEST_F(DqctlTest, SecretFromStdinOrEnvironmentNeverTheCommandLine) {
  const std::string id = json::parse(Run("account create --plan pro").out)["account_id"];
  const std::string set = "webhook set --account " + id + " --url https://h.example.com/x";
  CliResult refused = Run(set + " --secret s3cret");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--secret-stdin"), std::string::npos) << refused.err;
  EXPECT_EQ(json::parse(Run("webhook show --account " + id).out)["signed"], false);

  CliResult from_env = Run(set + " --secret-env HOOK_SECRET", "", "HOOK_SECRET=whsec_abc");
  ASSERT_EQ(from_env.exit_code, 0) << from_env.err;
  EXPECT_EQ(json::parse(from_env.out)["signed"], true);
  CliResult unsigned_hook = Run(set);
  ASSERT_EQ(unsigned_hook.exit_code, 0) << unsigned_hook.err;
  EXPECT_EQ(json::parse(unsigned_hook.out)["signed"], false);
  CliResult from_stdin = Run(set + " --secret-stdin", "line-one\r\nline-two\n");
  ASSERT_EQ(from_stdin.exit_code, 0) << from_stdin.err;
  EXPECT_EQ(json::parse(from_stdin.out)["signed"], true);
  // The secret is stored as given on the first line, without its line ending.
  RedisOptions options;
  options.port = redis_->port();
  RedisClient redis(options);
  RedisAccountStore store(redis, SystemClock::Instance());
  auto hook = store.GetWebhook(id);
  ASSERT_TRUE(hook.ok() && hook->has_value());
  EXPECT_EQ((*hook)->secret, "line-one");
}

// Every command has --help (text on stdout, exit 0), and so has dqctl itself; --version too.
TEST_F(DqctlTest, HelpForEveryCommandAndVersion) {
  for (const char* cmd : {"", "account", "account create", "account show", "account list",
                          "account set-plan", "account set-quota", "key", "key create",
                          "key list", "key revoke", "webhook", "webhook set", "webhook show",
                          "webhook deliveries", "webhook redeliver"}) {
    CliResult r = Run(std::string(cmd) + " --help");
    EXPECT_EQ(r.exit_code, 0) << cmd << ": " << r.err;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd << ": " << r.out;
    EXPECT_TRUE(r.err.empty()) << cmd;
  }
  EXPECT_NE(Run("account set-quota --help").out.find("--records"), std::string::npos);
  EXPECT_EQ(Run("webhook set --help").out.find("--secret "), std::string::npos);  // hidden
  CliResult v = Run("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("dqctl ", 0), 0u) << v.out;
}

// Values with quotes, backslashes and control characters come out as valid JSON.
TEST_F(DqctlTest, OutputIsValidJsonWhateverTheInput) {
  const std::string name = "A \"quoted\" \\ name\t\x01";  // no single quote: shell-quoted below
  CliResult r = Run("account create --plan pro --name '" + name + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["name"], name);
  CliResult e = Run("account show --account 'acct_\"\\\x02'");
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_NO_THROW(json::parse(e.err.substr(0, e.err.find('\n')))) << e.err;
}

TEST_F(DqctlTest, RedisDownIsReportedNotHung) {
  const std::string cmd = "env DQ_REDIS_PORT=" + std::to_string(FreePort()) +
                          " " DQ_DQCTL_BIN " account list >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 1);
}

// Plans and quota overrides live in dq:{acct}:plan, which only dqctl's Redis user may write: a
// plan written into the account hash (which the gateway writes at sign-up) counts for nothing,
// and migrate-plans moves what an earlier version kept there.
TEST_F(DqctlTest, OnlyThePlanRecordCountsAndMigratePlansMovesOldOnes) {
  const std::string id = json::parse(Run("account create --plan free").out)["account_id"];
  const std::string account_key = "dq:{" + id + "}:account";
  redis_->Cli({"HSET", account_key, "plan", "agency", "quota", "99999999"});
  json shown = json::parse(Run("account show --account " + id).out);
  EXPECT_EQ(shown["plan"], "free");
  EXPECT_TRUE(shown["quota_override"].is_null());

  // An account stored by an earlier version: its plan is moved, once.
  CliResult migrated = Run("account migrate-plans");
  ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
  EXPECT_GE(json::parse(migrated.out)["migrated"].get<int>(), 1);
  shown = json::parse(Run("account show --account " + id).out);
  EXPECT_EQ(shown["plan"], "agency");
  EXPECT_EQ(shown["quota_override"], 99999999);
  // The plan record wins from now on.
  ASSERT_EQ(Run("account set-plan --account " + id + " --plan pro").exit_code, 0);
  ASSERT_EQ(Run("account migrate-plans").exit_code, 0);
  EXPECT_EQ(json::parse(Run("account show --account " + id).out)["plan"], "pro");
  EXPECT_EQ(redis_->Cli({"HGET", "dq:{" + id + "}:plan", "plan"}), "pro");
}

}  // namespace
}  // namespace dq::testing
