#include "cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#ifndef DQ_VERSION
#define DQ_VERSION "0.0.0"
#endif

namespace dq::cli {
namespace {

using nlohmann::json;

// What the command line said; filled by CLI11.
struct Flags {
  std::string account, plan, name, key, url, delivery, secret_env, secret_arg, email, status;
  int64_t records = 0;
  int limit = 100;
  bool secret_stdin = false;
  CLI::Option* secret_arg_option = nullptr;  // the refused --secret
};

struct Context {
  const Flags& f;
  AccountStore& store;
  webhook::RedisDeliveryLog* deliveries;
  const CliOptions& options;
  std::ostream& out;
  std::ostream& err;
};

using Handler = int (*)(Context&);

int Fail(std::ostream& err, int code, std::string_view error, const std::string& message) {
  err << json{{"error", error}, {"message", message}}.dump() << "\n";
  return code;
}

int FailStatus(std::ostream& err, const Status& s) {
  return Fail(err, kExitFailed, ErrorCodeName(s.code()), s.message());
}

int Print(std::ostream& out, const json& j) {
  out << j.dump() << "\n";
  return kExitOk;
}

json AccountJson(const Account& a) {
  json j = {{"account_id", a.id}, {"name", a.name}, {"plan", std::string(PlanName(a.plan))},
            {"created_at", a.created_at}};
  j["quota_override"] = a.quota_override ? json(*a.quota_override) : json(nullptr);
  return j;
}

const CLI::Validator kNonEmpty(
    [](std::string& v) { return v.empty() ? std::string("must not be empty") : std::string(); },
    "NONEMPTY");
const std::vector<std::string> kPlans = {"free", "pro", "business", "agency"};

int AccountCreate(Context& c) {
  auto account = c.store.CreateAccount(*ParsePlan(c.f.plan), c.f.name);
  if (!account.ok()) return FailStatus(c.err, account.status());
  return Print(c.out, AccountJson(*account));
}

int AccountShow(Context& c) {
  auto a = c.store.GetAccount(c.f.account);
  if (!a.ok()) return FailStatus(c.err, a.status());
  return Print(c.out, AccountJson(*a));
}

int AccountList(Context& c) {
  auto ids = c.store.ListAccountIds();
  if (!ids.ok()) return FailStatus(c.err, ids.status());
  json list = json::array();
  for (const auto& id : *ids) {
    auto a = c.store.GetAccount(id);
    if (a.ok()) list.push_back(AccountJson(*a));
  }
  return Print(c.out, {{"accounts", list}});
}

int AccountSetPlan(Context& c) {
  if (Status s = c.store.SetPlan(c.f.account, *ParsePlan(c.f.plan)); !s.ok()) {
    return FailStatus(c.err, s);
  }
  return Print(c.out, {{"account_id", c.f.account}, {"plan", c.f.plan}});
}

int AccountSetQuota(Context& c) {
  if (Status s = c.store.SetQuota(c.f.account, c.f.records); !s.ok()) return FailStatus(c.err, s);
  return Print(c.out, {{"account_id", c.f.account},
                       {"quota_override", c.f.records < 0 ? json(nullptr) : json(c.f.records)}});
}

int AccountMigratePlans(Context& c) {
  auto moved = c.store.MigratePlans();
  if (!moved.ok()) return FailStatus(c.err, moved.status());
  return Print(c.out, {{"migrated", *moved}});
}

int UserVerify(Context& c) {
  if (!c.options.verify_user) {
    return Fail(c.err, kExitFailed, "internal_error", "users cannot be reached");
  }
  std::string email = c.f.email;
  for (char& ch : email) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  auto account = c.options.verify_user(email);
  if (!account.ok()) return FailStatus(c.err, account.status());
  return Print(c.out, {{"account_id", *account}, {"email", email}, {"email_verified", true}});
}

int KeyCreate(Context& c) {
  auto key = c.store.CreateKey(c.f.account);
  if (!key.ok()) return FailStatus(c.err, key.status());
  return Print(c.out,
               {{"account_id", c.f.account}, {"key_id", key->key_id}, {"api_key", key->api_key}});
}

int KeyList(Context& c) {
  auto keys = c.store.ListKeys(c.f.account);
  if (!keys.ok()) return FailStatus(c.err, keys.status());
  json list = json::array();
  for (const auto& k : *keys) {
    list.push_back({{"key_id", k.key_id}, {"hint", k.hint}, {"created_at", k.created_at},
                    {"revoked_at", k.revoked_at.empty() ? json(nullptr) : json(k.revoked_at)}});
  }
  return Print(c.out, {{"account_id", c.f.account}, {"keys", list}});
}

int KeyRevoke(Context& c) {
  if (Status s = c.store.RevokeKey(c.f.account, c.f.key); !s.ok()) return FailStatus(c.err, s);
  return Print(c.out, {{"account_id", c.f.account}, {"key_id", c.f.key}, {"revoked", true}});
}

// The webhook secret from standard input (first line, without its line ending) or from the
// named environment variable; empty when neither is asked for.
Result<std::string> ReadSecret(Context& c) {
  std::string secret;
  if (c.f.secret_stdin) {
    if (c.options.in == nullptr || !std::getline(*c.options.in, secret)) {
      return Status(ErrorCode::kInvalidRequest, "--secret-stdin: standard input is empty");
    }
    if (!secret.empty() && secret.back() == '\r') secret.pop_back();
  } else if (!c.f.secret_env.empty()) {
    auto value = c.options.env ? c.options.env(c.f.secret_env) : std::nullopt;
    if (!value) {
      return Status(ErrorCode::kInvalidRequest,
                    "--secret-env: the environment variable " + c.f.secret_env + " is not set");
    }
    secret = *value;
  } else {
    return secret;
  }
  if (secret.empty()) return Status(ErrorCode::kInvalidRequest, "the webhook secret is empty");
  return secret;
}

int WebhookSet(Context& c) {
  const std::string& url = c.f.url;
  const bool https = url.starts_with("https://");
  const bool http = url.starts_with("http://");
  if (!https && !(http && c.options.allow_http_webhooks)) {
    return Fail(c.err, kExitUsage, "usage",
                c.options.allow_http_webhooks
                    ? "--url must start with https:// or http://"
                    : "--url must start with https:// (http is allowed only when the operator "
                      "sets DQ_WEBHOOK_ALLOW_HTTP=1)");
  }
  auto secret = ReadSecret(c);
  if (!secret.ok()) return Fail(c.err, kExitUsage, "usage", secret.status().message());
  Webhook hook{url, *secret};
  if (Status s = c.store.SetWebhook(c.f.account, hook); !s.ok()) return FailStatus(c.err, s);
  return Print(c.out, {{"account_id", c.f.account}, {"url", url}, {"signed", !secret->empty()}});
}

int WebhookShow(Context& c) {
  auto hook = c.store.GetWebhook(c.f.account);
  if (!hook.ok()) return FailStatus(c.err, hook.status());
  json j = {{"account_id", c.f.account}};
  j["url"] = hook->has_value() ? json((*hook)->url) : json(nullptr);
  j["signed"] = hook->has_value() && !(*hook)->secret.empty();
  // While a rolled secret still signs beside the new one (never the secrets themselves).
  const int64_t now = UnixMillis(SystemClock::Instance().Now());
  j["previous_secret_until_ms"] = hook->has_value() && SigningSecrets(**hook, now).size() > 1
                                      ? json((*hook)->previous_until_ms)
                                      : json(nullptr);
  return Print(c.out, j);
}

int WebhookDeliveries(Context& c) {
  if (c.deliveries == nullptr) {
    return Fail(c.err, kExitFailed, "internal_error", "the delivery log is not available");
  }
  if (Status s = c.store.GetAccount(c.f.account).status(); !s.ok()) return FailStatus(c.err, s);
  auto attempts = c.deliveries->Deliveries(
      c.f.account, c.f.status.empty() ? c.f.limit : webhook::kDeliveryLogSize);
  if (!attempts.ok()) return FailStatus(c.err, attempts.status());
  auto dead = c.deliveries->DeadLetters(c.f.account);
  if (!dead.ok()) return FailStatus(c.err, dead.status());
  json list = json::array();
  for (const auto& a : *attempts) {
    if (!c.f.status.empty() && a.outcome != c.f.status) continue;
    if (list.size() >= static_cast<size_t>(c.f.limit)) break;
    list.push_back({{"time", a.time},
                    {"delivery_id", a.delivery_id},
                    {"url", a.url},
                    {"http_status", a.http_status == 0 ? json(nullptr) : json(a.http_status)},
                    {"latency_ms", a.latency_ms},
                    {"error", a.error.empty() ? json(nullptr) : json(a.error)},
                    {"outcome", a.outcome},
                    {"attempt", a.attempt},
                    {"event", a.event},
                    {"test", a.test},
                    {"response", a.response}});
  }
  json dead_list = json::array();
  for (const auto& d : *dead) {
    dead_list.push_back({{"time", d.time},
                         {"delivery_id", d.event.delivery_id},
                         {"url", d.url},
                         {"attempts", d.event.attempts},
                         {"last_error", d.last_error}});
  }
  return Print(c.out,
               {{"account_id", c.f.account}, {"deliveries", list}, {"dead_letters", dead_list}});
}

int WebhookRedeliver(Context& c) {
  if (c.deliveries == nullptr) {
    return Fail(c.err, kExitFailed, "internal_error", "the delivery log is not available");
  }
  const int64_t now = UnixMillis(SystemClock::Instance().Now());
  if (Status s = c.deliveries->Redeliver(c.f.account, c.f.delivery, now); !s.ok()) {
    return FailStatus(c.err, s);
  }
  return Print(c.out,
               {{"account_id", c.f.account}, {"delivery_id", c.f.delivery}, {"redelivered", true}});
}

// The command tree. Each leaf command is mapped to its handler.
void Build(CLI::App& app, Flags& f, std::map<const CLI::App*, Handler>& handlers) {
  app.set_version_flag("--version", std::string("dqctl ") + DQ_VERSION);
  app.require_subcommand(1);
  auto account_opt = [&](CLI::App* cmd) {
    cmd->add_option("--account", f.account, "Account id (acct_...)")->required()->check(kNonEmpty);
  };
  auto leaf = [&](CLI::App* parent, const char* name, const char* what, Handler h) {
    CLI::App* cmd = parent->add_subcommand(name, what);
    handlers[cmd] = h;
    return cmd;
  };

  CLI::App* account = app.add_subcommand("account", "Accounts, plans and quotas");
  account->require_subcommand(1);
  CLI::App* cmd = leaf(account, "create", "Create an account", AccountCreate);
  cmd->add_option("--plan", f.plan, "free, pro, business or agency")
      ->required()
      ->check(CLI::IsMember(kPlans));
  cmd->add_option("--name", f.name, "A name for people");
  account_opt(leaf(account, "show", "Show one account", AccountShow));
  leaf(account, "list", "List every account", AccountList);
  cmd = leaf(account, "set-plan", "Change an account's plan", AccountSetPlan);
  account_opt(cmd);
  cmd->add_option("--plan", f.plan, "free, pro, business or agency")
      ->required()
      ->check(CLI::IsMember(kPlans));
  cmd = leaf(account, "set-quota", "Override the monthly record quota", AccountSetQuota);
  account_opt(cmd);
  cmd->add_option("--records", f.records, "Records a month; -1 clears the override")
      ->required()
      ->check(CLI::Range(int64_t{-1}, std::numeric_limits<int64_t>::max()));
  leaf(account, "migrate-plans",
       "Move plans and quota overrides stored by an earlier version into the plan records",
       AccountMigratePlans);

  CLI::App* user = app.add_subcommand("user", "Console users");
  user->require_subcommand(1);
  cmd = leaf(user, "verify", "Mark a console user's e-mail address verified", UserVerify);
  cmd->add_option("--email", f.email, "The user's e-mail address")->required()->check(kNonEmpty);

  CLI::App* key = app.add_subcommand("key", "API keys");
  key->require_subcommand(1);
  account_opt(leaf(key, "create", "Create a key; it is printed once", KeyCreate));
  account_opt(leaf(key, "list", "List an account's keys (never the keys themselves)", KeyList));
  cmd = leaf(key, "revoke", "Revoke a key; it fails from the next request on", KeyRevoke);
  account_opt(cmd);
  cmd->add_option("--key", f.key, "Key id (key_...)")->required()->check(kNonEmpty);

  CLI::App* webhook = app.add_subcommand("webhook", "The account's webhook and its deliveries");
  webhook->require_subcommand(1);
  cmd = leaf(webhook, "set", "Set the webhook URL and, optionally, its signing secret",
             WebhookSet);
  account_opt(cmd);
  cmd->add_option("--url", f.url, "https:// URL (http:// with DQ_WEBHOOK_ALLOW_HTTP=1)")
      ->required()
      ->check(kNonEmpty);
  auto* from_stdin =
      cmd->add_flag("--secret-stdin", f.secret_stdin, "Read the secret from standard input");
  cmd->add_option("--secret-env", f.secret_env,
                  "Read the secret from this environment variable")
      ->check(kNonEmpty)
      ->excludes(from_stdin);
  // Refused with a clear message instead of "unknown option": secrets never go on the command
  // line, where ps and shell history would keep them.
  f.secret_arg_option = cmd->add_option("--secret", f.secret_arg)->group("");
  account_opt(leaf(webhook, "show", "Show the webhook (never the secret)", WebhookShow));
  cmd = leaf(webhook, "deliveries", "The last attempts and the dead letters", WebhookDeliveries);
  account_opt(cmd);
  cmd->add_option("--limit", f.limit, "How many attempts, 1..100")->check(CLI::Range(1, 100));
  cmd->add_option("--status", f.status, "Only attempts with this outcome")
      ->check(CLI::IsMember({"delivered", "retry", "failed", "dead_letter", "skipped"}));
  cmd = leaf(webhook, "redeliver", "Deliver an event again, same delivery id", WebhookRedeliver);
  account_opt(cmd);
  cmd->add_option("--delivery", f.delivery, "Delivery id")->required()->check(kNonEmpty);
}

// The leaf command that was given: the deepest parsed subcommand.
const CLI::App* Leaf(const CLI::App& app) {
  const CLI::App* at = &app;
  while (true) {
    auto subs = at->get_subcommands();
    if (subs.empty()) return at;
    at = subs.front();
  }
}

}  // namespace

int Run(const std::vector<std::string>& args, AccountStore& store,
        webhook::RedisDeliveryLog* deliveries, const CliOptions& options, std::ostream& out,
        std::ostream& err) {
  Flags flags;
  std::map<const CLI::App*, Handler> handlers;
  CLI::App app("dqctl: the admin CLI for dq (accounts, plans, keys, quotas, webhooks)", "dqctl");
  Build(app, flags, handlers);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses from the back
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    return Fail(err, kExitUsage, "usage", e.what());
  }
  if (flags.secret_arg_option != nullptr && flags.secret_arg_option->count() > 0) {
    return Fail(err, kExitUsage, "usage",
                "--secret is not accepted on the command line; pipe the secret in with "
                "--secret-stdin, or name an environment variable with --secret-env VAR");
  }
  const CLI::App* leaf = Leaf(app);
  auto it = handlers.find(leaf);
  if (it == handlers.end()) return Fail(err, kExitUsage, "usage", app.help());
  Context c{flags, store, deliveries, options, out, err};
  return it->second(c);
}

Result<std::string> VerifyUserInRedis(RedisClient& redis, const std::string& email) {
  auto id = redis.Command({"GET", "dq:email:" + email});
  if (!id.ok()) return id.status();
  if (id->is_nil()) return Status(ErrorCode::kNotFound, "no console user with e-mail " + email);
  auto mark = redis.Command({"HSET", AccountKey(id->str, "user"), "email_verified", "1"});
  if (!mark.ok()) return mark.status();
  return id->str;
}

}  // namespace dq::cli
